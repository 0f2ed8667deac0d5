import type { ReadStream } from 'node:fs';
import {
  MESSAGE_PAGE_SIZE,
  MESSAGE_SEARCH_PAGE_SIZE,
  type MessageDto,
  type MessageListQuery,
  type MessageSearchResponse,
  type MessagesPage,
  type SearchMessageQuery,
} from '@shared/schemas/messages';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { TenantFileStore, safeDisplayName, safeMimeType } from '../../core/tenant-file-store';
import type { AppDeps } from '../../deps';
import { MessageAccess, messageNotFound } from './message-access';
import { emitMessages } from './message-events';
import { emitTicketChanged } from './message-ticket-events';
import type { MessageTicket } from './message-ticket';
import { readingMarksRead, visibleTicketsSql } from './messages.policy';
import { presentMessage, type MessageRow } from './messages.presenter';
import { MESSAGE_SELECT, returnedRows } from './messages.query';

/**
 * One page of a thread. The ids come from an index-only backward scan of messages
 * ("ticketId", id) and only then are the 31 rows read: with the conditions of the inner query on
 * the index's columns alone, the planner cannot prefer walking the primary key backwards and
 * filtering by ticket, which is fast for a busy ticket but reads every newer message of the
 * database for a ticket that went quiet (a LIMIT misestimate). The tenant condition stays on the
 * outer rows (the ticket was already checked to be the caller's).
 */
export function threadPageSql(keyset: boolean, pageNumber: number): string {
  const offset = keyset ? 0 : (pageNumber - 1) * MESSAGE_PAGE_SIZE;
  return `WITH page AS (
      SELECT id FROM messages WHERE "ticketId" = $1 ${keyset ? 'AND id < $3' : ''}
       ORDER BY id DESC LIMIT ${MESSAGE_PAGE_SIZE + 1} OFFSET ${offset}
    )
    ${MESSAGE_SELECT}
      JOIN page ON page.id = m.id
     WHERE m."tenantId" = $2
     ORDER BY m.id DESC`;
}

export interface MessageMediaFile {
  stream: ReadStream;
  size: number;
  name: string;
  type: string;
}

/**
 * Reading the messages of tickets: the thread page, search, a message's file, and marking
 * received messages read. Every read starts from the caller's tenant and ticket visibility.
 */
export class MessagesService {
  private readonly access: MessageAccess;
  private readonly files: TenantFileStore;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock' | 'config'>) {
    this.access = new MessageAccess(deps);
    this.files = new TenantFileStore(deps.config.dataDir);
  }

  /**
   * GET /messages/{ticketId}: newest first, MESSAGE_PAGE_SIZE per page. `before` (keyset on
   * id, one index range read on messages ("ticketId", id) however deep) wins over pageNumber
   * (offset; kept for the anchor clients). Canceled scheduled messages are left out.
   *
   * Opening the thread (first page) as the ticket's agent resets the unread counter and marks
   * the received messages read (`ticket:update`), as the anchor clients expect; a supervisor
   * looking into someone else's ticket does not (spy).
   */
  async list(auth: AuthContext, ticketId: number, query: MessageListQuery): Promise<MessagesPage> {
    const { ticket } = await this.access.ticket(auth, ticketId);
    const rows: MessageRow[] = await this.deps.dataSource.query(threadPageSql(query.before !== undefined, query.pageNumber), [
      ticket.id,
      auth.tenantId,
      ...(query.before !== undefined ? [query.before] : []),
    ]);
    const hasMore = rows.length > MESSAGE_PAGE_SIZE;
    const window = rows.slice(0, MESSAGE_PAGE_SIZE);
    const result: MessagesPage = {
      // Canceled scheduled messages take their place in the window but are not shown: a page
      // may then be shorter than MESSAGE_PAGE_SIZE, and the cursor still moves past them.
      messages: window.filter((r) => r.status !== 'canceled').map(presentMessage),
      messagesOffLine: [],
      hasMore,
      nextBefore: hasMore ? Number(window[window.length - 1].id) : null,
    };
    if (query.withCount) {
      const [{ count }] = (await this.deps.dataSource.query(
        `SELECT count(*)::int AS count FROM messages m WHERE m."ticketId" = $1 AND m."tenantId" = $2 AND m.status <> 'canceled'`,
        [ticket.id, auth.tenantId],
      )) as { count: number }[];
      result.count = count;
    }
    const firstPage = query.before === undefined && query.pageNumber === 1;
    if (firstPage && ticket.unreadMessages > 0 && readingMarksRead(auth, ticket)) await this.markTicketRead(ticket);
    return result;
  }

  /** Zeroes the unread counter and marks every received message read. */
  private async markTicketRead(ticket: MessageTicket, upToMessageId?: number): Promise<void> {
    await this.deps.events.transaction(async (tx, emit) => {
      const params: unknown[] = [ticket.id];
      if (upToMessageId !== undefined) params.push(upToMessageId);
      await tx.query(
        `UPDATE messages SET read = true, "updatedAt" = now()
          WHERE "ticketId" = $1 AND NOT read AND NOT "fromMe" ${upToMessageId !== undefined ? 'AND id <= $2' : ''}`,
        params,
      );
      // The counter is recounted rather than zeroed when only part of the thread was read.
      const updated = returnedRows<{ id: number }>(
        await tx.query(
          upToMessageId === undefined
            ? `UPDATE tickets SET "unreadMessages" = 0, "updatedAt" = now() WHERE id = $1 AND "unreadMessages" <> 0 RETURNING id`
            : `UPDATE tickets t SET "unreadMessages" = u.n, "updatedAt" = now()
                 FROM (SELECT count(*)::int AS n FROM messages WHERE "ticketId" = $1 AND NOT read AND NOT "fromMe") u
                WHERE t.id = $1 AND t."unreadMessages" <> u.n RETURNING t.id`,
          [ticket.id],
        ),
      );
      if (updated.length > 0) await emitTicketChanged(tx, emit, ticket.id);
    });
  }

  /** PATCH /messages/{id} `{read: true}`: this received message and the older ones are read. */
  async markRead(auth: AuthContext, messageId: number): Promise<MessageDto> {
    const { message, ticket } = await this.access.message(auth, messageId);
    if (message.fromMe) {
      throw new AppError('ERR_VALIDATION', {
        fields: [{ path: 'read', message: 'só mensagens recebidas podem ser marcadas como lidas' }],
      });
    }
    await this.markTicketRead(ticket, Number(message.id));
    await this.deps.events.transaction((tx, emit) => emitMessages(tx, emit, ticket, 'update', [Number(message.id)]));
    const { message: updated } = await this.access.message(auth, messageId);
    return presentMessage(updated);
  }

  /**
   * GET /searchMessage: full-text search (plainto_tsquery('portuguese'), the GIN index on
   * to_tsvector('portuguese', body)) over the caller's tenant, restricted to a ticket, a
   * contact's tickets, or every ticket the caller may see; best matches first. Within one
   * ticket an exact substring match also counts (codes, numbers, partial words that the
   * stemmer would not find), which stays cheap because it reads that ticket's rows only.
   */
  async search(auth: AuthContext, query: SearchMessageQuery): Promise<MessageSearchResponse> {
    const viewer = await this.access.viewer(auth);
    const params: unknown[] = [];
    const conditions: string[] = [];
    if (query.ticketId !== undefined) {
      await this.access.ticket(auth, query.ticketId, { viewer });
      params.push(query.ticketId);
      conditions.push(`m."ticketId" = $${params.length}`);
    }
    if (query.contactId !== undefined) {
      const [contact] = (await this.deps.dataSource.query(`SELECT id FROM contacts WHERE id = $1 AND "tenantId" = $2`, [
        query.contactId,
        auth.tenantId,
      ])) as { id: number }[];
      if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
      params.push(query.contactId);
      conditions.push(`t."contactId" = $${params.length}`);
    }
    params.push(auth.tenantId);
    conditions.push(`m."tenantId" = $${params.length}`, `m.status <> 'canceled'`);
    const visible = visibleTicketsSql(viewer, params);
    if (visible) conditions.push(visible);
    params.push(query.searchParam);
    const q = `$${params.length}`;
    const fts = `to_tsvector('portuguese', m.body) @@ plainto_tsquery('portuguese', ${q})`;
    conditions.push(query.ticketId !== undefined ? `(${fts} OR strpos(lower(m.body), lower(${q})) > 0)` : fts);
    const offset = (query.pageNumber - 1) * MESSAGE_SEARCH_PAGE_SIZE;
    params.push(MESSAGE_SEARCH_PAGE_SIZE + 1);
    const rows: (MessageRow & { total: number })[] = await this.deps.dataSource.query(
      `${MESSAGE_SELECT}
         JOIN tickets t ON t.id = m."ticketId"
        WHERE ${conditions.join(' AND ')}
        ORDER BY ts_rank(to_tsvector('portuguese', m.body), plainto_tsquery('portuguese', ${q})) DESC, m.id DESC
        LIMIT $${params.length} OFFSET ${offset}`,
      params,
    );
    const countParams = params.slice(0, -1);
    const [{ count }] = (await this.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM messages m JOIN tickets t ON t.id = m."ticketId" WHERE ${conditions.join(' AND ')}`,
      countParams,
    )) as { count: number }[];
    return {
      messages: rows.slice(0, MESSAGE_SEARCH_PAGE_SIZE).map(presentMessage),
      count,
      hasMore: rows.length > MESSAGE_SEARCH_PAGE_SIZE,
    };
  }

  /** GET /messages/media/{messageId}: the stored file, to users who may see the ticket. */
  async openMedia(auth: AuthContext, messageId: number): Promise<MessageMediaFile> {
    const { message } = await this.access.message(auth, messageId);
    const [stored] = (await this.deps.dataSource.query(`SELECT "mediaPath" FROM messages WHERE id = $1 AND "tenantId" = $2`, [
      message.id,
      auth.tenantId,
    ])) as { mediaPath: string | null }[];
    const opened = stored?.mediaPath ? await this.files.open(auth.tenantId, stored.mediaPath) : null;
    if (!opened) throw messageNotFound();
    return {
      ...opened,
      name: safeDisplayName(message.mediaName ?? 'arquivo'),
      type: safeMimeType(message.mimeType ?? undefined),
    };
  }
}
