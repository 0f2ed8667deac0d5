import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { TicketViewerLoader } from '../tickets/ticket-viewer';
import type { TicketViewer } from '../tickets/ticket-visibility.policy';
import { loadTicket, type MessageTicket } from './message-ticket';
import { authorizeTicket } from './messages.policy';
import type { MessageRow } from './messages.presenter';
import { selectMessage } from './messages.query';

export const messageNotFound = () => new AppError('ERR_NOT_FOUND', { message: 'Mensagem não encontrada.' });

/**
 * The loads every message route starts from, each followed at once by its authorisation: the
 * caller as ticket visibility sees them, a ticket, or a message and its ticket.
 */
export class MessageAccess {
  private readonly viewers: TicketViewerLoader;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock'>) {
    this.viewers = new TicketViewerLoader(deps);
  }

  viewer(auth: AuthContext): Promise<TicketViewer> {
    return this.viewers.load(auth);
  }

  /** `db` may be a transaction only together with `viewer` (the viewer is read outside it). */
  async ticket(
    auth: AuthContext,
    ticketId: number,
    opts: { viewer?: TicketViewer; db?: Queryable; lock?: boolean } = {},
  ): Promise<{ ticket: MessageTicket; viewer: TicketViewer }> {
    // Two independent reads: in parallel, one round trip less on every message route.
    const [viewer, row] = await Promise.all([
      opts.viewer ?? this.viewer(auth),
      loadTicket(opts.db ?? this.deps.dataSource, ticketId, { lock: opts.lock }),
    ]);
    return { ticket: authorizeTicket(auth, viewer, row), viewer };
  }

  /** A message of the caller's tenant on a ticket they may see; another tenant's is not found. */
  async message(
    auth: AuthContext,
    messageId: number,
    opts: { viewer?: TicketViewer; db?: Queryable } = {},
  ): Promise<{ message: MessageRow; ticket: MessageTicket; viewer: TicketViewer }> {
    const db = opts.db ?? this.deps.dataSource;
    const message = await selectMessage(db, messageId);
    if (!message || message.tenantId !== auth.tenantId) throw messageNotFound();
    try {
      const { ticket, viewer } = await this.ticket(auth, message.ticketId, { viewer: opts.viewer, db });
      return { message, ticket, viewer };
    } catch (err) {
      // A message on a ticket hidden from the caller is as unknown as another tenant's.
      if (err instanceof AppError && err.code === 'ERR_NO_TICKET_FOUND') throw messageNotFound();
      throw err;
    }
  }
}
