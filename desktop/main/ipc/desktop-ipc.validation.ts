import { z } from 'zod';
import {
  DESKTOP_EVENT_NAMES,
  DESKTOP_LIMITS,
  type DesktopEventName,
  type DesktopNotificationRequest,
  type ThreadPageOptions,
  type TicketListOptions,
} from '@shared/desktop-api';
import { clientIdSchema } from '@shared/schemas/messages';
import { OUTBOX_STATES } from '@shared/schemas/outbox';
import { TICKET_STATUSES } from '@shared/schemas/tickets';
import { hasControlCharacters } from '../security/control-characters';

/**
 * Everything arriving over IPC is untrusted input: a renderer compromised by a malicious message
 * could call the bridge with anything. These parsers accept exactly the documented shapes.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isValidTicketId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** An internal-chat conversation of a notification: only its two documented fields, checked. */
function parseChatConversation(input: unknown): NonNullable<DesktopNotificationRequest['chat']> | false {
  if (!isPlainObject(input)) return false;
  const { kind, id } = input;
  if ((kind !== 'user' && kind !== 'team') || !isValidTicketId(id)) return false;
  return { kind, id };
}

export function parseNotificationRequest(input: unknown): Parsed<DesktopNotificationRequest> {
  if (!isPlainObject(input)) return { ok: false, error: 'notification must be an object' };
  const { title, body, ticketId, chat } = input;
  if (typeof title !== 'string' || title.trim().length === 0) return { ok: false, error: 'title must be a non-empty string' };
  if (title.length > DESKTOP_LIMITS.notificationTitleMax) {
    return { ok: false, error: `title must be at most ${DESKTOP_LIMITS.notificationTitleMax} characters` };
  }
  if (typeof body !== 'string') return { ok: false, error: 'body must be a string' };
  if (body.length > DESKTOP_LIMITS.notificationBodyMax) {
    return { ok: false, error: `body must be at most ${DESKTOP_LIMITS.notificationBodyMax} characters` };
  }
  if (hasControlCharacters(title) || hasControlCharacters(body)) {
    return { ok: false, error: 'title and body must not contain control characters' };
  }
  if (ticketId !== undefined && ticketId !== null && !isValidTicketId(ticketId)) {
    return { ok: false, error: 'ticketId must be a positive integer' };
  }
  const conversation = chat === undefined || chat === null ? null : parseChatConversation(chat);
  if (conversation === false) return { ok: false, error: "chat must be {kind: 'user' | 'team', id: positive integer}" };
  const value: DesktopNotificationRequest = { title: title.trim(), body };
  if (isValidTicketId(ticketId)) value.ticketId = ticketId;
  if (conversation) value.chat = conversation;
  return { ok: true, value };
}

/**
 * Badge counts come from unread counters: anything that is not a finite number shows no badge,
 * fractions round down, and the value is capped so the dock label stays readable.
 */
export function clampBadgeCount(input: unknown): number {
  if (typeof input !== 'number' || Number.isNaN(input)) return 0;
  if (input === Number.POSITIVE_INFINITY) return DESKTOP_LIMITS.badgeCountMax;
  if (input <= 0) return 0;
  return Math.min(Math.floor(input), DESKTOP_LIMITS.badgeCountMax);
}

/** Refresh tokens are JWTs or opaque ids: printable ASCII without spaces, bounded length. */
export function parseRefreshToken(input: unknown): Parsed<string> {
  if (typeof input !== 'string' || input.length === 0) return { ok: false, error: 'token must be a non-empty string' };
  if (input.length > DESKTOP_LIMITS.refreshTokenMax) {
    return { ok: false, error: `token must be at most ${DESKTOP_LIMITS.refreshTokenMax} characters` };
  }
  if (!/^[\x21-\x7e]+$/.test(input)) return { ok: false, error: 'token must be printable ASCII without spaces' };
  return { ok: true, value: input };
}

export function parseListeningEvent(input: unknown): DesktopEventName | null {
  return typeof input === 'string' && (DESKTOP_EVENT_NAMES as readonly string[]).includes(input)
    ? (input as DesktopEventName)
    : null;
}

/** Access tokens are JWTs: three base64url parts, bounded length. */
export function parseAccessToken(input: unknown): Parsed<string> {
  if (typeof input !== 'string' || input.length === 0) return { ok: false, error: 'token must be a non-empty string' };
  if (input.length > DESKTOP_LIMITS.accessTokenMax) return { ok: false, error: `token must be at most ${DESKTOP_LIMITS.accessTokenMax} characters` };
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(input)) return { ok: false, error: 'token must be a JWT' };
  return { ok: true, value: input };
}

const positiveId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const pageLimit = z.number().int().min(1).max(500);

const ticketListSchema = z
  .strictObject({
    status: z.union([z.enum(TICKET_STATUSES), z.array(z.enum(TICKET_STATUSES)).min(1).max(TICKET_STATUSES.length)]).optional(),
    limit: pageLimit.optional(),
    before: z.strictObject({ lastMessageAtMs: z.number().int(), id: positiveId }).nullable().optional(),
  })
  .optional();

const threadSchema = z.strictObject({ limit: pageLimit.optional(), beforeId: positiveId.nullable().optional() }).optional();

function fromZod<T>(result: { success: true; data: T } | { success: false; error: z.ZodError }): Parsed<T> {
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  return { ok: false, error: `${issue.path.join('.') || 'input'}: ${issue.message}` };
}

/** Drops the keys the preload copied as undefined, so strict objects judge only what was sent. */
function defined(input: unknown): unknown {
  if (!isPlainObject(input)) return input;
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

export function parseTicketListOptions(input: unknown): Parsed<TicketListOptions | undefined> {
  return fromZod(ticketListSchema.safeParse(input === null ? undefined : defined(input)));
}

export function parseThreadRequest(ticketId: unknown, input: unknown): Parsed<{ ticketId: number; options: ThreadPageOptions | undefined }> {
  if (!positiveId.safeParse(ticketId).success) return { ok: false, error: 'ticketId must be a positive integer' };
  const options = fromZod(threadSchema.safeParse(input === null ? undefined : defined(input)));
  return options.ok ? { ok: true, value: { ticketId: ticketId as number, options: options.value } } : options;
}

export function parseSearchRequest(text: unknown, limit: unknown): Parsed<{ text: string; limit: number | undefined }> {
  if (typeof text !== 'string') return { ok: false, error: 'text must be a string' };
  if (text.length > DESKTOP_LIMITS.cacheSearchTextMax) {
    return { ok: false, error: `text must be at most ${DESKTOP_LIMITS.cacheSearchTextMax} characters` };
  }
  if (limit !== undefined && limit !== null && !pageLimit.safeParse(limit).success) return { ok: false, error: 'limit must be an integer from 1 to 500' };
  return { ok: true, value: { text, limit: (limit ?? undefined) as number | undefined } };
}

export function parseAccountEnd(input: unknown): Parsed<{ wipe: boolean }> {
  if (!isPlainObject(input) || typeof input.wipe !== 'boolean') return { ok: false, error: 'wipe must be a boolean' };
  return { ok: true, value: { wipe: input.wipe } };
}

const outboxFilterSchema = z
  .strictObject({ states: z.array(z.enum(OUTBOX_STATES)).max(OUTBOX_STATES.length).optional(), ticketId: positiveId.optional() })
  .optional();

export function parseOutboxFilter(input: unknown): Parsed<{ states?: (typeof OUTBOX_STATES)[number][]; ticketId?: number } | undefined> {
  return fromZod(outboxFilterSchema.safeParse(input === null ? undefined : defined(input)));
}

export function parseClientId(input: unknown): Parsed<string> {
  return clientIdSchema.safeParse(input).success ? { ok: true, value: input as string } : { ok: false, error: 'clientId is not a client id' };
}

const mediaMessageSchema = positiveId;
const mediaBudgetSchema = z.number().int().min(DESKTOP_LIMITS.mediaBudgetMinBytes).max(DESKTOP_LIMITS.mediaBudgetMaxBytes);

export function parseMediaMessageId(input: unknown): Parsed<number> {
  const parsed = mediaMessageSchema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: 'messageId must be a positive integer' };
}

export function parseMediaBudget(input: unknown): Parsed<number> {
  const parsed = mediaBudgetSchema.safeParse(input);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : {
        ok: false,
        error: `budget must be an integer number of bytes from ${DESKTOP_LIMITS.mediaBudgetMinBytes} to ${DESKTOP_LIMITS.mediaBudgetMaxBytes}`,
      };
}
