import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { SettingsService } from '../settings/settings.service';
import { TicketViewerLoader } from '../tickets/ticket-viewer';
import { buildViewer, type TicketViewer } from '../tickets/ticket-visibility.policy';
import { loadTicket, loadTicketWithCaller, type MessageTicket } from './message-ticket';
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
  private readonly settings: SettingsService;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock'>) {
    this.viewers = new TicketViewerLoader(deps);
    this.settings = new SettingsService(deps);
  }

  viewer(auth: AuthContext): Promise<TicketViewer> {
    return this.viewers.load(auth);
  }

  /**
   * With a transaction as `db`, pass `viewer` too: a settings cache miss reads outside the
   * transaction, which on the embedded database (one connection) would wait for it forever.
   */
  async ticket(
    auth: AuthContext,
    ticketId: number,
    opts: { viewer?: TicketViewer; db?: Queryable } = {},
  ): Promise<{ ticket: MessageTicket; viewer: TicketViewer }> {
    if (opts.viewer) {
      const row = await loadTicket(opts.db ?? this.deps.dataSource, ticketId);
      return { ticket: authorizeTicket(auth, opts.viewer, row), viewer: opts.viewer };
    }
    // The usual path: ticket and caller in one statement, the tenant's settings from the cache.
    const [loaded, settings] = await Promise.all([
      loadTicketWithCaller(opts.db ?? this.deps.dataSource, ticketId, auth),
      this.settings.valuesOfTenant(auth.tenantId),
    ]);
    // A user deleted since the token was issued sees nothing beyond their own tickets (as TicketViewerLoader).
    const viewer = buildViewer(auth, loaded.caller ?? { profile: 'user', email: auth.email, queues: [] }, settings);
    return { ticket: authorizeTicket(auth, viewer, loaded.ticket), viewer };
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
