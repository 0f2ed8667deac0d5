import { SOCKET_EVENTS } from '@shared/events';
import {
  CHAT_SOCKET_EVENTS,
  INTERNAL_CHAT_ERRORS,
  INTERNAL_CHAT_MAX_FILES,
  INTERNAL_CHAT_MESSAGE_MAX_CEILING,
  INTERNAL_CHAT_MESSAGE_MAX_DEFAULT,
  conversationOf,
  type ChatConversationDto,
  type ChatHistoryAnswer,
  type ChatKind,
  type ChatMessageDto,
  type ChatMessageEventPayload,
  type ChatReadEventPayload,
  type ChatReadStateDto,
  type ChatUnreadCount,
  type EditChatMessageInput,
  type SendChatMessageInput,
} from '@shared/schemas/internal-chat';
import { MESSAGE_MEDIA_FIELD } from '@shared/schemas/messages';
import type { NotificationCreatePayload } from '@shared/schemas/notifications';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { TenantFileStore, safeDisplayName, safeMimeType } from '../../core/tenant-file-store';
import { updateReturning, type Queryable } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { recordEvents, type PendingEvent } from '../../realtime/domain-events';
import type { StatementPart } from '../../db/statement-part';
import { uniqueViolationOf } from '../../db/pg-errors';
import { discardMedia, type ReceivedMedia } from '../messages/message-media';
import { presentNotification, type NotificationRow } from '../notifications/notifications.presenter';
import { SettingsService } from '../settings/settings.service';
import { mentionedUserIds } from './internal-chat.mentions';
import {
  authorizeOwnMessage,
  chatError,
  conversationCondition,
  loadConversation,
  userIdsOf,
  type Conversation,
} from './internal-chat.policy';
import {
  CHAT_MESSAGE_SELECT,
  presentChatMessage,
  presentConversation,
  type ChatMessageRow,
  type ConversationRow,
} from './internal-chat.presenter';

type ChatDeps = Pick<AppDeps, 'dataSource' | 'events' | 'config' | 'logger' | 'clock'>;

/** A mention notification quotes this much of the message. */
const MENTION_EXCERPT_CHARS = 120;

export interface SendOutcome {
  /** 201 for a new message, 200 for a retry answered with the stored one. */
  status: 200 | 201;
  message: ChatMessageDto;
}

export interface ChatMediaFile {
  stream: NodeJS.ReadableStream;
  size: number;
  name: string;
  type: string;
}

/** A stored message with what the rules need (author, conversation, state). */
interface StoredMessage {
  id: number;
  tenantId: number;
  kind: ChatKind;
  toId: number;
  userLow: number | null;
  userHigh: number | null;
  fromUserId: number | null;
  deletedAt: Date | null;
  mediaPath: string | null;
  mediaName: string | null;
  mimeType: string | null;
}

/**
 * Unread messages of conversations (alias `c` for the conversation's key columns): the
 * conversation's messages of others above the reader's "lastReadId", counted on the partial
 * index (one range from lastReadId). $1 = the caller.
 */
const UNREAD_USER = `(SELECT count(*)::int FROM chat_messages m
   WHERE m.kind = 'user' AND m."userLow" = c.lo AND m."userHigh" = c.hi
     AND m.id > coalesce(c."lastReadId", 0) AND m."fromUserId" IS DISTINCT FROM $1)`;
const UNREAD_TEAM = `(SELECT count(*)::int FROM chat_messages m
   WHERE m.kind = 'team' AND m."toId" = c.id
     AND m.id > coalesce(c."lastReadId", 0) AND m."fromUserId" IS DISTINCT FROM $1)`;

/** The caller's colleagues ($1 caller, $2 tenant) with the pair key and the caller's read state. */
const COLLEAGUES = `
  SELECT u.id, u.name, u."isOnline", u.away, LEAST(u.id, $1) AS lo, GREATEST(u.id, $1) AS hi, r."lastReadId"
    FROM users u
    LEFT JOIN chat_reads r ON r."userId" = $1 AND r.kind = 'user' AND r."conversationId" = u.id
   WHERE u."tenantId" = $2 AND u.id <> $1`;

/** The caller's team rooms ($1 caller, $2 tenant) with the caller's read state. */
const TEAMS = `
  SELECT t.id, t.name, r."lastReadId",
         (SELECT count(*)::int FROM team_users x JOIN users xu ON xu.id = x."userId" AND xu."tenantId" = t."tenantId"
           WHERE x."teamId" = t.id) AS members
    FROM teams t
    JOIN team_users tu ON tu."teamId" = t.id AND tu."userId" = $1
    LEFT JOIN chat_reads r ON r."userId" = $1 AND r.kind = 'team' AND r."conversationId" = t.id
   WHERE t."tenantId" = $2 AND t.active`;

const LAST_MESSAGE_COLUMNS = `last.id AS "lastId", last.body AS "lastBody", last."fromUserId" AS "lastFromUserId",
       lu.name AS "lastFromUserName", last."createdAt" AS "lastCreatedAt", last."deletedAt" AS "lastDeletedAt",
       last."mediaName" AS "lastMediaName"`;

/**
 * The internal chat (/chat-privado): one-to-one conversations and team rooms. Rules:
 * internal-chat.policy.ts. Every write records its events in its transaction, to the
 * conversation's users only (audience `users`): `chat:privateMessage`, `chat:messageUpdate`,
 * `chat:read`, and `notification:create` for a mention.
 */
export class InternalChatService {
  private readonly files: TenantFileStore;
  private readonly settings: SettingsService;

  constructor(private readonly deps: ChatDeps) {
    this.files = new TenantFileStore(deps.config.dataDir);
    this.settings = new SettingsService(deps);
  }

  /** GET /chat-interno/conversations: every colleague, then every team room of the caller; most recent first. */
  async conversations(auth: AuthContext): Promise<ChatConversationDto[]> {
    const db = this.deps.dataSource;
    const params = [auth.userId, auth.tenantId];
    const users = (await db.query(
      `SELECT 'user' AS kind, c.id, c.name, c."isOnline", c.away, NULL::int AS members, ${UNREAD_USER} AS unread, ${LAST_MESSAGE_COLUMNS}
         FROM (${COLLEAGUES}) c
         LEFT JOIN LATERAL (
           SELECT m.id, m.body, m."fromUserId", m."createdAt", m."deletedAt", m."mediaName" FROM chat_messages m
            WHERE m.kind = 'user' AND m."userLow" = c.lo AND m."userHigh" = c.hi ORDER BY m.id DESC LIMIT 1
         ) last ON true
         LEFT JOIN users lu ON lu.id = last."fromUserId"`,
      params,
    )) as ConversationRow[];
    const teams = (await db.query(
      `SELECT 'team' AS kind, c.id, c.name, NULL::boolean AS "isOnline", NULL::boolean AS away, c.members, ${UNREAD_TEAM} AS unread, ${LAST_MESSAGE_COLUMNS}
         FROM (${TEAMS}) c
         LEFT JOIN LATERAL (
           SELECT m.id, m.body, m."fromUserId", m."createdAt", m."deletedAt", m."mediaName" FROM chat_messages m
            WHERE m.kind = 'team' AND m."toId" = c.id ORDER BY m.id DESC LIMIT 1
         ) last ON true
         LEFT JOIN users lu ON lu.id = last."fromUserId"`,
      params,
    )) as ConversationRow[];
    return [...users, ...teams]
      .sort((a, b) => (b.lastId ?? 0) - (a.lastId ?? 0) || a.name.localeCompare(b.name, 'pt-BR') || a.id - b.id)
      .map(presentConversation);
  }

  /** GET /chat-interno/count/mensagens: unread messages over all the caller's conversations. */
  async unreadCount(auth: AuthContext): Promise<ChatUnreadCount> {
    const [row] = (await this.deps.dataSource.query(
      `SELECT coalesce((SELECT sum(${UNREAD_USER}) FROM (${COLLEAGUES}) c), 0)::int
            + coalesce((SELECT sum(${UNREAD_TEAM}) FROM (${TEAMS}) c), 0)::int AS count`,
      [auth.userId, auth.tenantId],
    )) as { count: number }[];
    return { count: Number(row?.count ?? 0) };
  }

  /**
   * GET /chat-interno/mensagens/{id}?kind=&before=&limit=: newest first. The page's ids come from
   * an index-only backward scan of the conversation's index below `before`, then only those rows
   * are read (the same shape as the ticket thread page), so any depth costs the same.
   */
  async history(
    auth: AuthContext,
    kind: ChatKind,
    id: number,
    query: { before?: number; limit: number },
  ): Promise<ChatHistoryAnswer> {
    const db = this.deps.dataSource;
    const conversation = await loadConversation(db, auth, kind, id);
    const cond = conversationCondition(conversation.key, 1, 'p');
    const params: unknown[] = [...cond.params];
    let beforeSql = '';
    if (query.before !== undefined) {
      params.push(query.before);
      beforeSql = ` AND p.id < $${params.length}`;
    }
    params.push(query.limit + 1, auth.tenantId);
    const rows = (await db.query(
      `WITH page AS (
         SELECT p.id FROM chat_messages p WHERE ${cond.sql}${beforeSql} ORDER BY p.id DESC LIMIT $${params.length - 1}
       )
       ${CHAT_MESSAGE_SELECT}
         JOIN page ON page.id = m.id
        WHERE m."tenantId" = $${params.length}
        ORDER BY m.id DESC`,
      params,
    )) as ChatMessageRow[];
    const page = rows.slice(0, query.limit);
    const lastRead = await this.lastReadOf(db, conversation);
    const members = userIdsOf(conversation);
    return { messages: page.map((r) => presentChatMessage(r, members, lastRead)), hasMore: rows.length > query.limit };
  }

  /**
   * POST /chat-interno/mensagens: text and/or one file (the ticket messages' private store and
   * limits), an optional quoted message of the same conversation and an optional ticket of the
   * tenant. `clientId` makes a retry answer the stored message (200) instead of storing it twice;
   * the insert itself is idempotent on (author, clientId), so two concurrent retries store one.
   * `@Name` mentions notify those users of the conversation once (a kind 'mention' notification).
   */
  async send(auth: AuthContext, input: SendChatMessageInput, media: readonly ReceivedMedia[]): Promise<SendOutcome> {
    try {
      return await this.store(auth, input, media);
    } catch (err) {
      // A retry of a send already stored answers it even when the checks now refuse it (the
      // sender left the team since): looked up only on a refusal, not before every send.
      if (input.clientId && err instanceof AppError) {
        const stored = await this.byClientId(this.deps.dataSource, auth, input.clientId).catch(() => null);
        if (stored) {
          await discardMedia(media);
          return { status: 200, message: stored };
        }
      }
      throw err;
    }
  }

  private async store(auth: AuthContext, input: SendChatMessageInput, media: readonly ReceivedMedia[]): Promise<SendOutcome> {
    const db = this.deps.dataSource;
    if (media.length > INTERNAL_CHAT_MAX_FILES) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: MESSAGE_MEDIA_FIELD, message: 'envie um arquivo por mensagem' }] });
    }
    const file = media[0];
    const body = input.body;
    if (body.trim() === '' && !file) throw chatError('empty');
    await this.checkLength(auth.tenantId, body);
    // The message's id is taken with the conversation's read, so the event is complete before the write.
    const conversation = await loadConversation(db, auth, input.kind, input.id, { allocateMessageId: true });
    const replyTo = input.replyToId === undefined ? null : await this.replyTarget(db, auth, conversation, input.replyToId);
    if (input.ticketId !== undefined) await this.checkTicket(db, auth, input.ticketId);

    const messageId = conversation.nextMessageId!;
    const createdAt = this.deps.clock.now();
    const author = conversation.users.find((u) => u.id === auth.userId)!;
    const key = conversation.key;
    const mediaName = file ? safeDisplayName(file.fileName) : null;
    const mimeType = file ? safeMimeType(file.mimeType) : null;
    const message = presentChatMessage(
      {
        id: messageId,
        kind: conversation.kind,
        toId: conversation.id,
        fromUserId: auth.userId,
        fromUserName: author.name,
        body,
        hasMedia: Boolean(file),
        mediaName,
        mimeType,
        replyToId: replyTo?.id ?? null,
        replyBody: replyTo?.body ?? null,
        replyFromName: replyTo?.fromUserName ?? null,
        replyDeletedAt: replyTo?.deletedAt ?? null,
        ticketId: input.ticketId ?? null,
        clientId: input.clientId ?? null,
        editedAt: null,
        deletedAt: null,
        createdAt,
      },
      userIdsOf(conversation),
      new Map(),
    );
    const insert: StatementPart = (p) =>
      `INSERT INTO chat_messages (id, "tenantId", kind, "toId", "userLow", "userHigh", "fromUserId", body,
                                  "mediaPath", "mediaName", "mimeType", "mediaSize", "replyToId", "ticketId", "clientId", "createdAt")
       VALUES (${[
         messageId,
         auth.tenantId,
         conversation.kind,
         conversation.id,
         key.kind === 'user' ? key.low : null,
         key.kind === 'user' ? key.high : null,
         auth.userId,
         body,
         file?.relativePath ?? null,
         mediaName,
         mimeType,
         file?.size ?? null,
         replyTo?.id ?? null,
         input.ticketId ?? null,
         input.clientId ?? null,
         createdAt,
       ]
         .map((value) => p(value))
         .join(', ')})`;
    const payload: ChatMessageEventPayload = { message };
    const event: PendingEvent = {
      name: SOCKET_EVENTS.privateMessage,
      payload,
      audience: { scope: 'users', userIds: userIdsOf(conversation) },
    };
    const mentioned = mentionedUserIds(
      body,
      conversation.users.filter((u) => u.id !== auth.userId),
    );
    try {
      if (mentioned.length === 0) {
        // The message and its event in ONE statement, without a transaction (atomic on its own):
        // the usual send costs three round trips (session, conversation, this).
        this.deps.events.publishCommitted(await recordEvents(db.manager, auth.tenantId, [event], [insert]));
      } else {
        await this.deps.events.transaction(async (tx, _emit, emitMany) => {
          const notifications = await this.mentionNotifications(tx, auth, conversation, author.name, message, mentioned);
          await emitMany(auth.tenantId, [event, ...notifications], [insert]);
        });
      }
    } catch (err) {
      // A retry of a stored send (the same clientId of the same author): nothing was written by
      // this one (the statement or transaction failed whole); answer the stored message.
      if (input.clientId && uniqueViolationOf(err) === 'chat_messages_client_uq') {
        await discardMedia(media);
        const stored = await this.byClientId(db, auth, input.clientId);
        if (stored) return { status: 200, message: stored };
      }
      throw err;
    }
    return { status: 201, message };
  }

  /** PUT /chat-interno/mensagens/{messageId}/edit: the author's text, while not deleted; `chat:messageUpdate`. Mentions are not notified again. */
  async edit(auth: AuthContext, messageId: number, input: EditChatMessageInput): Promise<ChatMessageDto> {
    await this.checkLength(auth.tenantId, input.body);
    return this.deps.events.transaction(async (tx, emit) => {
      const { message, conversation } = await this.ownMessage(tx, auth, messageId);
      if (message.deletedAt) throw chatError('messageDeleted');
      await tx.query(`UPDATE chat_messages SET body = $2, "editedAt" = now() WHERE id = $1`, [messageId, input.body]);
      const dto = await this.presentOne(tx, conversation, messageId);
      const payload: ChatMessageEventPayload = { message: dto };
      await emit(auth.tenantId, CHAT_SOCKET_EVENTS.messageUpdate, payload, { scope: 'users', userIds: userIdsOf(conversation) });
      return dto;
    });
  }

  /**
   * DELETE /chat-interno/mensagens/{messageId}: soft delete by the author (body '' and the file
   * gone; the file is removed from the store after the commit). Deleting a deleted message
   * answers it again without a new event (a retry).
   */
  async remove(auth: AuthContext, messageId: number): Promise<ChatMessageDto> {
    let removedFile: string | null = null;
    const dto = await this.deps.events.transaction(async (tx, emit) => {
      const { message, conversation } = await this.ownMessage(tx, auth, messageId);
      if (!message.deletedAt) {
        removedFile = message.mediaPath;
        await tx.query(
          `UPDATE chat_messages SET body = '', "mediaPath" = NULL, "mediaName" = NULL, "mimeType" = NULL, "mediaSize" = NULL,
                  "deletedAt" = now()
            WHERE id = $1`,
          [messageId],
        );
      }
      const presented = await this.presentOne(tx, conversation, messageId);
      if (!message.deletedAt) {
        const payload: ChatMessageEventPayload = { message: presented };
        await emit(auth.tenantId, CHAT_SOCKET_EVENTS.messageUpdate, payload, {
          scope: 'users',
          userIds: userIdsOf(conversation),
        });
      }
      return presented;
    });
    if (removedFile) {
      await this.files
        .remove(auth.tenantId, removedFile)
        .catch((err: unknown) => this.deps.logger.warn({ err, messageId }, 'could not remove a deleted chat message file'));
    }
    return dto;
  }

  /**
   * PUT /chat-interno/mensagens/{id} {kind}: the caller read the conversation up to its newest
   * message. `chat:read` goes to the conversation's users (read receipts) when the state moved.
   */
  async markRead(auth: AuthContext, kind: ChatKind, id: number): Promise<ChatReadStateDto> {
    const db = this.deps.dataSource;
    const conversation = await loadConversation(db, auth, kind, id);
    const cond = conversationCondition(conversation.key, 1);
    const [newest] = (await db.query(`SELECT max(m.id) AS id FROM chat_messages m WHERE ${cond.sql}`, cond.params)) as {
      id: number | null;
    }[];
    const lastReadId = newest?.id ?? 0;
    if (lastReadId > 0) {
      await this.deps.events.transaction(async (tx, _emit, emitMany) => {
        const changed = (await tx.query(
          `INSERT INTO chat_reads ("userId", kind, "conversationId", "tenantId", "lastReadId") VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT ("userId", kind, "conversationId")
           DO UPDATE SET "lastReadId" = EXCLUDED."lastReadId", "updatedAt" = now() WHERE chat_reads."lastReadId" <> EXCLUDED."lastReadId"
           RETURNING "lastReadId"`,
          [auth.userId, kind, id, auth.tenantId, lastReadId],
        )) as unknown[];
        if (changed.length > 0) await emitMany(auth.tenantId, readEvents(auth.userId, conversation, lastReadId));
      });
    }
    return { kind, id, userId: auth.userId, lastReadId, unread: 0 };
  }

  /**
   * PUT /chat-interno/mensagens/{messageId}/nao-lida: the caller's conversation is unread again
   * from that message on (its read state goes back to just before it; never forward).
   */
  async markUnread(auth: AuthContext, messageId: number): Promise<ChatReadStateDto> {
    const db = this.deps.dataSource;
    const message = await this.loadMessage(db, auth, messageId);
    const conversation = await this.conversationOfMessage(db, auth, message);
    const target = messageId - 1;
    const lastReadId = await this.deps.events.transaction(async (tx, _emit, emitMany) => {
      const rows = await updateReturning<{ lastReadId: number }>(
        tx,
        `UPDATE chat_reads SET "lastReadId" = $4, "updatedAt" = now()
          WHERE "userId" = $1 AND kind = $2 AND "conversationId" = $3 AND "lastReadId" > $4
          RETURNING "lastReadId"`,
        [auth.userId, conversation.kind, conversation.id, target],
      );
      if (rows.length > 0) {
        await emitMany(auth.tenantId, readEvents(auth.userId, conversation, target));
        return target;
      }
      const [current] = (await tx.query(
        `SELECT "lastReadId" FROM chat_reads WHERE "userId" = $1 AND kind = $2 AND "conversationId" = $3`,
        [auth.userId, conversation.kind, conversation.id],
      )) as { lastReadId: number }[];
      return current?.lastReadId ?? 0;
    });
    const unread = await this.unreadOf(db, auth, conversation, lastReadId);
    return { kind: conversation.kind, id: conversation.id, userId: auth.userId, lastReadId, unread };
  }

  /**
   * GET /chat-interno/search?q=: messages of the caller's conversations (one-to-ones with current
   * colleagues, rooms of teams they are in now) whose text contains `q`, case and accents aside;
   * newest first. Deleted messages are never found.
   */
  async search(auth: AuthContext, q: string, limit: number): Promise<ChatMessageDto[]> {
    const db = this.deps.dataSource;
    const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = (await db.query(
      `${CHAT_MESSAGE_SELECT}
        WHERE m."tenantId" = $1 AND m."deletedAt" IS NULL
          AND lower(public.immutable_unaccent(m.body)) LIKE lower(public.immutable_unaccent($3))
          AND (
            (m.kind = 'user' AND (m."userLow" = $2 OR m."userHigh" = $2)
              AND EXISTS (SELECT 1 FROM users o WHERE o.id = m."userLow" + m."userHigh" - $2 AND o."tenantId" = $1))
            OR (m.kind = 'team' AND m."toId" IN (
              SELECT t.id FROM teams t JOIN team_users tu ON tu."teamId" = t.id AND tu."userId" = $2
               WHERE t."tenantId" = $1 AND t.active))
          )
        ORDER BY m.id DESC
        LIMIT $4`,
      [auth.tenantId, auth.userId, pattern, limit],
    )) as ChatMessageRow[];
    // Receipts per conversation of the answer (a few conversations at most).
    const out: ChatMessageDto[] = [];
    const conversations = new Map<string, { members: number[]; lastRead: Map<number, number> }>();
    for (const row of rows) {
      const named = conversationOf({ kind: row.kind, toId: row.toId, fromUserId: row.fromUserId ?? 0 }, auth.userId);
      const tag = `${named.kind}:${named.id}`;
      let state = conversations.get(tag);
      if (!state) {
        const conversation = await loadConversation(db, auth, named.kind, named.id);
        state = { members: userIdsOf(conversation), lastRead: await this.lastReadOf(db, conversation) };
        conversations.set(tag, state);
      }
      out.push(presentChatMessage(row, state.members, state.lastRead));
    }
    return out;
  }

  /** GET /chat-interno/media/{messageId}: a message's file, to the users of its conversation only. */
  async openMedia(auth: AuthContext, messageId: number): Promise<ChatMediaFile> {
    const db = this.deps.dataSource;
    const message = await this.loadMessage(db, auth, messageId);
    await this.conversationOfMessage(db, auth, message);
    const opened = message.mediaPath && !message.deletedAt ? await this.files.open(auth.tenantId, message.mediaPath) : null;
    if (!opened) throw chatError('messageNotFound');
    return {
      ...opened,
      name: safeDisplayName(message.mediaName ?? 'arquivo'),
      type: safeMimeType(message.mimeType ?? undefined),
    };
  }

  // ---- helpers ----

  /**
   * The tenant's limit (setting internalChatMessageMax), through the settings' per-tenant cache:
   * a change applies at once in this process (the write invalidates it) and, in others, when
   * they see its `settings:update` (at most the cache's TTL later).
   */
  private async checkLength(tenantId: number, body: string): Promise<void> {
    if (body.length === 0) return;
    const max = messageMaxOf((await this.settings.valuesOfTenant(tenantId)).internalChatMessageMax);
    if (body.length > max) {
      throw new AppError(INTERNAL_CHAT_ERRORS.tooLong.code, {
        message: INTERNAL_CHAT_ERRORS.tooLong.message.replace('{max}', String(max)),
        fields: [{ path: 'body', message: `no máximo ${max} caracteres` }],
      });
    }
  }

  private async checkTicket(db: Queryable, auth: AuthContext, ticketId: number): Promise<void> {
    const found = (await db.query(`SELECT 1 FROM tickets WHERE id = $1 AND "tenantId" = $2`, [
      ticketId,
      auth.tenantId,
    ])) as unknown[];
    if (found.length === 0) throw new AppError('ERR_NO_TICKET_FOUND');
  }

  /** The quoted message: of the same conversation (anything else is not found). */
  private async replyTarget(
    db: Queryable,
    auth: AuthContext,
    conversation: Conversation,
    replyToId: number,
  ): Promise<{ id: number; body: string; fromUserName: string | null; deletedAt: Date | null }> {
    const cond = conversationCondition(conversation.key, 3);
    const [row] = (await db.query(
      `SELECT m.id, m.body, u.name AS "fromUserName", m."deletedAt"
         FROM chat_messages m LEFT JOIN users u ON u.id = m."fromUserId"
        WHERE m.id = $1 AND m."tenantId" = $2 AND ${cond.sql}`,
      [replyToId, auth.tenantId, ...cond.params],
    )) as { id: number; body: string; fromUserName: string | null; deletedAt: Date | null }[];
    if (!row) throw chatError('messageNotFound');
    return row;
  }

  /** The caller's stored send with that clientId, presented, or null. */
  private async byClientId(db: Queryable, auth: AuthContext, clientId: string): Promise<ChatMessageDto | null> {
    const [row] = (await db.query(
      `SELECT id FROM chat_messages WHERE "fromUserId" = $1 AND "clientId" = $2 AND "tenantId" = $3`,
      [auth.userId, clientId, auth.tenantId],
    )) as { id: number }[];
    if (!row) return null;
    const message = await this.loadMessage(db, auth, row.id);
    const conversation = await this.conversationOfMessage(db, auth, message);
    return this.presentOne(db, conversation, row.id);
  }

  private async loadMessage(db: Queryable, auth: AuthContext, messageId: number, lock = false): Promise<StoredMessage> {
    const [row] = (await db.query(
      `SELECT id, "tenantId", kind, "toId", "userLow", "userHigh", "fromUserId", "deletedAt", "mediaPath", "mediaName", "mimeType"
         FROM chat_messages WHERE id = $1 AND "tenantId" = $2${lock ? ' FOR UPDATE' : ''}`,
      [messageId, auth.tenantId],
    )) as StoredMessage[];
    if (!row) throw chatError('messageNotFound');
    return row;
  }

  /**
   * The conversation of a stored message, as the caller names it, if the caller is in it now.
   * A message of a conversation the caller is not part of is not found (it leaks nothing).
   */
  private async conversationOfMessage(db: Queryable, auth: AuthContext, message: StoredMessage): Promise<Conversation> {
    if (message.kind === 'user') {
      const { userLow: low, userHigh: high } = message;
      if (low !== auth.userId && high !== auth.userId) throw chatError('messageNotFound');
      const other = (low === auth.userId ? high : low)!;
      return loadConversation(db, auth, 'user', other).catch((err: unknown) => {
        throw err instanceof AppError ? chatError('messageNotFound') : err;
      });
    }
    return loadConversation(db, auth, 'team', message.toId).catch((err: unknown) => {
      throw err instanceof AppError ? chatError('messageNotFound') : err;
    });
  }

  /** Edit and delete: the message locked, in a conversation of the caller, written by the caller. */
  private async ownMessage(
    db: Queryable,
    auth: AuthContext,
    messageId: number,
  ): Promise<{ message: StoredMessage; conversation: Conversation }> {
    const message = await this.loadMessage(db, auth, messageId, true);
    const conversation = await this.conversationOfMessage(db, auth, message);
    authorizeOwnMessage(auth, message);
    return { message, conversation };
  }

  private async presentOne(db: Queryable, conversation: Conversation, messageId: number): Promise<ChatMessageDto> {
    const [row] = (await db.query(`${CHAT_MESSAGE_SELECT} WHERE m.id = $1 AND m."tenantId" = $2`, [
      messageId,
      conversation.tenantId,
    ])) as ChatMessageRow[];
    return presentChatMessage(row, userIdsOf(conversation), await this.lastReadOf(db, conversation));
  }

  /** How far each user of the conversation read it (users without a row read nothing). */
  private async lastReadOf(db: Queryable, conversation: Conversation): Promise<Map<number, number>> {
    const key = conversation.key;
    const rows = (await (key.kind === 'team'
      ? db.query(
          `SELECT "userId", "lastReadId" FROM chat_reads WHERE kind = 'team' AND "conversationId" = $1 AND "userId" = ANY($2::int[])`,
          [key.teamId, userIdsOf(conversation)],
        )
      : db.query(
          `SELECT "userId", "lastReadId" FROM chat_reads
            WHERE kind = 'user' AND (("userId" = $1 AND "conversationId" = $2) OR ("userId" = $2 AND "conversationId" = $1))`,
          [key.low, key.high],
        ))) as { userId: number; lastReadId: number }[];
    return new Map(rows.map((r) => [r.userId, r.lastReadId]));
  }

  private async unreadOf(db: Queryable, auth: AuthContext, conversation: Conversation, lastReadId: number): Promise<number> {
    const cond = conversationCondition(conversation.key, 3);
    const [row] = (await db.query(
      `SELECT count(*)::int AS n FROM chat_messages m WHERE ${cond.sql} AND m.id > $1 AND m."fromUserId" IS DISTINCT FROM $2`,
      [lastReadId, auth.userId, ...cond.params],
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  /**
   * One bell notification (kind 'mention') per user of the conversation the message names with
   * `@Name` (never the author), written with the message, so exactly once per message.
   */
  private async mentionNotifications(
    tx: Queryable,
    auth: AuthContext,
    conversation: Conversation,
    authorName: string,
    message: ChatMessageDto,
    mentioned: number[],
  ): Promise<PendingEvent[]> {
    const excerpt =
      message.body.length > MENTION_EXCERPT_CHARS ? `${message.body.slice(0, MENTION_EXCERPT_CHARS - 1)}…` : message.body;
    const where = conversation.kind === 'team' ? ` em ${conversation.name}` : '';
    const text = `${authorName} mencionou você${where}: ${excerpt}`;
    const events: PendingEvent[] = [];
    for (const userId of mentioned.sort((a, b) => a - b)) {
      // The link names the conversation as the mentioned user sees it.
      const link =
        conversation.kind === 'team'
          ? `/chat-privado?kind=team&id=${conversation.id}`
          : `/chat-privado?kind=user&id=${auth.userId}`;
      const [row] = (await tx.query(
        `INSERT INTO notifications (kind, message, link, "tenantIds", "userId")
         VALUES ('mention', $1, $2, ARRAY[$3::int], $4)
         RETURNING id, kind, message, link, "createdAt"`,
        [text, link, auth.tenantId, userId],
      )) as NotificationRow[];
      const payload: NotificationCreatePayload = { notification: presentNotification({ ...row, read: false }) };
      events.push({ name: SOCKET_EVENTS.notificationCreate, payload, audience: { scope: 'user', userId } });
    }
    return events;
  }
}

/** The tenant's message limit: the stored setting when valid, else the default; never above the ceiling. */
export function messageMaxOf(value: string | undefined): number {
  const n = value !== undefined && /^\d{1,6}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 1 ? Math.min(n, INTERNAL_CHAT_MESSAGE_MAX_CEILING) : INTERNAL_CHAT_MESSAGE_MAX_DEFAULT;
}

/**
 * `chat:read` for the conversation's users, each naming the conversation as they do: a
 * one-to-one gives the reader's sockets `id` = the other user and the other user's `id` = the
 * reader; a team room one event to its current members.
 */
function readEvents(readerId: number, conversation: Conversation, lastReadId: number): PendingEvent[] {
  const name = CHAT_SOCKET_EVENTS.read;
  if (conversation.kind === 'team') {
    const payload: ChatReadEventPayload = { kind: 'team', id: conversation.id, userId: readerId, lastReadId };
    return [{ name, payload, audience: { scope: 'users', userIds: userIdsOf(conversation) } }];
  }
  const other = conversation.id;
  const toReader: ChatReadEventPayload = { kind: 'user', id: other, userId: readerId, lastReadId };
  const toOther: ChatReadEventPayload = { kind: 'user', id: readerId, userId: readerId, lastReadId };
  return [
    { name, payload: toReader, audience: { scope: 'user', userId: readerId } },
    { name, payload: toOther, audience: { scope: 'user', userId: other } },
  ];
}
