import { z } from 'zod';
import {
  FORWARD_MAX_CONTACTS,
  FORWARD_MAX_MESSAGES,
  INTERACTIVE_BUTTON_MAX,
  INTERACTIVE_TEXT_MAX,
  INTERACTIVE_TEXT_MIN,
  SCHEDULE_DEFAULT_REPETITIONS,
  SCHEDULE_RECURRENCE_DAYS,
} from '../limits';
import { formBoolean, recordId } from './catalog-fields';

/**
 * Messages of a ticket (spec sections 3, 5 and 7 "Messages"): request schemas shared by the
 * server and the React console, and the shapes the server answers with.
 */

/** Messages per page of GET /messages/{ticketId} (the anchor pages by 30). */
export const MESSAGE_PAGE_SIZE = 30;
export const MESSAGE_SEARCH_PAGE_SIZE = 20;
export const SCHEDULED_MESSAGES_PAGE_SIZE = 20;
/** WhatsApp's own ceiling for a text message. */
export const MESSAGE_BODY_MAX = 4096;
export const MESSAGE_SEARCH_MAX = 200;
/** Multipart field of the files of POST /messages/{ticketId} (the anchor clients' name). */
export const MESSAGE_MEDIA_FIELD = 'medias';
export const MESSAGE_MAX_FILES = 10;
/** Images, audio and video: WhatsApp's media ceiling. */
export const MESSAGE_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
/** Documents (anything that is not image, audio or video): WhatsApp's document ceiling. */
export const MESSAGE_DOCUMENT_MAX_BYTES = 100 * 1024 * 1024;
/** Reply buttons per interactive message (WhatsApp Cloud API limit). */
export const INTERACTIVE_BUTTONS_MAX_COUNT = 3;
/** Messages older than this cannot be deleted for everyone (ERR_DELETE_WAPP_MSG). */
export const MESSAGE_DELETE_WINDOW_HOURS = 48;
/** Repetitions of a recurring scheduled message. */
export const SCHEDULE_REPETITIONS_MAX = 100;
/**
 * Time zone of dates typed as dd/MM/yyyy HH:mm and of the greeting variable. The product serves
 * Brazilian businesses; an ISO date with an offset is always exact.
 */
export const BUSINESS_TIME_ZONE = 'America/Sao_Paulo';

export const MESSAGE_STATUSES = ['pending', 'sent', 'delivered', 'read', 'received', 'failed', 'scheduled', 'canceled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const FORWARD_LIMIT_MESSAGE = `Permitido no máximo ${FORWARD_MAX_MESSAGES} mensagens.`;
export const FORWARD_CONTACT_MESSAGE = `Selecione exatamente ${FORWARD_MAX_CONTACTS} contato.`;
export const UNDELIVERED_MESSAGE = 'Mensagem não entregue';
/** lastError of a send whose worker stopped during the provider call: it may or may not have arrived. */
export const UNCONFIRMED_SEND_MESSAGE =
  'Envio não confirmado: o servidor parou durante o envio e a mensagem pode ter chegado. Reenvie se o cliente não a recebeu.';
/** lastError of a send whose provider answer was lost on the way (connection reset mid-answer): it may have arrived. */
export const unconfirmedAnswerLostMessage = (reason: string): string =>
  `Envio não confirmado: ${reason.replace(/\.$/, '')}. A mensagem pode ter chegado; reenvie se o cliente não a recebeu.`;

const positiveInt = (field: string) =>
  z.coerce
    .number({ error: `${field} deve ser um número` })
    .int({ error: `${field} deve ser inteiro` })
    .min(1, { error: `${field} deve ser maior que zero` });

const body = z
  .string({ error: 'deve ser um texto' })
  .max(MESSAGE_BODY_MAX, { error: `no máximo ${MESSAGE_BODY_MAX} caracteres` });

const requiredBody = body.refine((v) => v.trim().length > 0, { error: 'Mensagem é obrigatório' });

/** A client-generated id (outbox): letters, digits and `_.:-`, so it is safe in logs and keys. */
export const clientIdSchema = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .min(1, { error: 'não pode ser vazio' })
  .max(100, { error: 'no máximo 100 caracteres' })
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: 'use apenas letras, números e _ . : -' });

const DATE_TIME_PATTERN = /^(\d{2})\/(\d{2})\/(\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ISO_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})$/;
/** ISO 8601 without an offset, as the anchor's date-time picker writes it (a wall time). */
const LOCAL_ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;

/** Offset of `timeZone` from UTC at `instant`, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return (
    Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) -
    Math.floor(instant / 1000) * 1000
  );
}

/**
 * A schedule date: ISO 8601 with an offset, or a wall time read in `timeZone`: dd/MM/yyyy
 * HH:mm[:ss], or ISO 8601 without an offset (yyyy-MM-ddTHH:mm[:ss], what the anchor client's
 * picker sends). Null for anything else, including days that do not exist (31/02).
 */
export function parseScheduleDate(text: string, timeZone = BUSINESS_TIME_ZONE): Date | null {
  const value = text.trim();
  if (ISO_PATTERN.test(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  const local = LOCAL_ISO_PATTERN.exec(value);
  const m = local ? [local[0], local[3], local[2], local[1], local[4], local[5], local[6]] : DATE_TIME_PATTERN.exec(value);
  if (!m) return null;
  const [day, month, year, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number);
  if (hour > 23 || minute > 59 || second > 59) return null;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  // The wall time minus the zone's offset; a second pass settles offsets that change that day.
  let instant = wall - zoneOffsetMs(wall, timeZone);
  instant = wall - zoneOffsetMs(instant, timeZone);
  return new Date(instant);
}

/**
 * A schedule date typed as a wall time (dd/MM/yyyy HH:mm, or ISO 8601 without an offset): the
 * server reads it again in the tenant's `timeZone` setting. An ISO date with an offset is exact.
 */
export function isWallTimeText(text: unknown): text is string {
  return typeof text === 'string' && !ISO_PATTERN.test(text.trim()) && parseScheduleDate(text) !== null;
}

/** Hour of day (0-23) of `date` in `timeZone`, for the greeting variable. */
export function hourInTimeZone(date: Date, timeZone = BUSINESS_TIME_ZONE): number {
  const hour = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', hour: '2-digit' }).format(date);
  return Number(hour) % 24;
}

/** yyyy-MM-dd of `date` in `timeZone` (birthdays are calendar days). */
export function calendarDayInTimeZone(date: Date, timeZone = BUSINESS_TIME_ZONE): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

const scheduleDate = z.string({ error: 'Data inválida' }).transform((value, ctx) => {
  const date = parseScheduleDate(value);
  if (!date) {
    ctx.addIssue({ code: 'custom', message: 'Data inválida (use dd/MM/yyyy HH:mm ou ISO 8601)' });
    return z.NEVER;
  }
  return date;
});

const recurrenceDays = z.coerce
  .number({ error: 'deve ser um número de dias' })
  .refine((v) => (SCHEDULE_RECURRENCE_DAYS as readonly number[]).includes(v), {
    error: `deve ser um de ${SCHEDULE_RECURRENCE_DAYS.join(', ')}`,
  });

const repetitions = z.coerce
  .number({ error: 'deve ser um número' })
  .int({ error: 'deve ser inteiro' })
  .min(1, { error: 'deve ser ao menos 1' })
  .max(SCHEDULE_REPETITIONS_MAX, { error: `no máximo ${SCHEDULE_REPETITIONS_MAX}` });

/** GET /messages/{ticketId} query. `before` (a message id) pages by keyset and wins over pageNumber. */
export const MessageListQuerySchema = z.object({
  pageNumber: positiveInt('pageNumber').max(100_000, { error: 'pageNumber grande demais' }).default(1),
  before: recordId.optional(),
  withCount: formBoolean.optional(),
});

/** GET /searchMessage query: within a ticket, a contact's tickets, or every visible ticket. */
export const SearchMessageQuerySchema = z.object({
  ticketId: recordId.optional(),
  contactId: recordId.optional(),
  searchParam: z
    .string({ error: 'searchParam é obrigatório' })
    .trim()
    .min(1, { error: 'searchParam é obrigatório' })
    .max(MESSAGE_SEARCH_MAX, { error: `no máximo ${MESSAGE_SEARCH_MAX} caracteres` }),
  pageNumber: positiveInt('pageNumber').max(1000, { error: 'pageNumber grande demais' }).default(1),
});

/**
 * The list filter of GET /scheduleMessages/ (the /agendamentos screen): `scheduled` (waiting,
 * the default and the anchor's list), `sent` (promoted: pending, sent, delivered or read),
 * `failed`, `canceled`, or `all` of them.
 */
export const SCHEDULE_LIST_STATUSES = ['scheduled', 'sent', 'failed', 'canceled', 'all'] as const;
export type ScheduleListStatus = (typeof SCHEDULE_LIST_STATUSES)[number];

export const ScheduledMessagesQuerySchema = z.object({
  page: positiveInt('page').max(100_000, { error: 'page grande demais' }).default(1),
  pageNumber: positiveInt('pageNumber').max(100_000, { error: 'pageNumber grande demais' }).optional(),
  status: z.enum(SCHEDULE_LIST_STATUSES, { error: `deve ser um de ${SCHEDULE_LIST_STATUSES.join(', ')}` }).default('scheduled'),
  contactId: recordId.optional(),
});
export type ScheduledMessagesQuery = z.output<typeof ScheduledMessagesQuerySchema>;

/**
 * `fromMe` and `read` as the anchor client sends them on every message (`true`, `1`, or 'true'
 * in a form): an agent's message is always its own and read. The opposite cannot be done, so it
 * is refused rather than ignored.
 */
const alwaysTrue = (message: string) =>
  z
    .preprocess((v) => (v === 1 ? true : v === 0 ? false : v), formBoolean)
    .refine((v) => v, { error: message })
    .optional()
    .nullable();

/** A multipart form repeats a field once per file (the anchor sends `body` and `scheduleDate` per file). */
const oneOrPerFile = <T extends z.ZodType>(item: T) =>
  z.union([item, z.array(item).min(1).max(MESSAGE_MAX_FILES, { error: `no máximo ${MESSAGE_MAX_FILES} valores` })]);

const sendScheduleDate = z.union([z.literal(''), z.string({ error: 'Data inválida' })]);

/**
 * Fields of POST /messages/{ticketId} (JSON or multipart/form-data with files in `medias`).
 * Ours: `body`, `quotedMsgId`, `clientId`, `isPrivate`, `scheduleDate`. The anchor client's
 * names for the same things: `quotedMsg` (the quoted message object; its `id` is read),
 * `id` (its client-generated id: our `clientId`), and `fromMe`/`read`/`mediaUrl` (which must
 * say what a send does anyway: true, true, empty).
 */
const sendMessageFields = {
  body: oneOrPerFile(body).optional(),
  quotedMsgId: recordId.optional().nullable(),
  quotedMsg: z
    .union([recordId, z.looseObject({ id: recordId })], { error: 'deve ser a mensagem citada (com o seu id)' })
    .optional()
    .nullable(),
  clientId: clientIdSchema.optional(),
  id: clientIdSchema.optional(),
  isPrivate: formBoolean.optional(),
  scheduleDate: oneOrPerFile(sendScheduleDate).optional().nullable(),
  fromMe: alwaysTrue('mensagens enviadas pelo atendente são sempre fromMe'),
  read: alwaysTrue('mensagens enviadas pelo atendente são sempre lidas'),
  mediaUrl: z
    .union([z.literal(''), z.null()], { error: 'envie os arquivos no campo medias' })
    .optional(),
};

type SendMessageFields = z.output<z.ZodObject<typeof sendMessageFields>>;

/** What the send services read: one name per meaning, the date parsed. */
export interface SendMessageInput {
  /** The text; with files, the first file's caption. */
  body?: string;
  /** Multipart with `body` repeated: one text per file, in the files' order. */
  bodies?: string[];
  quotedMsgId?: number | null;
  clientId?: string;
  isPrivate?: boolean;
  /** Set: the message is scheduled for then (in the future, checked by the server's clock). */
  scheduleDate?: Date | null;
}

function normaliseSend(v: SendMessageFields, ctx: z.RefinementCtx): SendMessageInput {
  const quotedFromObject = v.quotedMsg == null ? undefined : typeof v.quotedMsg === 'number' ? v.quotedMsg : v.quotedMsg.id;
  if (quotedFromObject !== undefined && v.quotedMsgId != null && quotedFromObject !== v.quotedMsgId) {
    ctx.addIssue({ code: 'custom', path: ['quotedMsg'], message: 'quotedMsg e quotedMsgId citam mensagens diferentes' });
  }
  if (v.id !== undefined && v.clientId !== undefined && v.id !== v.clientId) {
    ctx.addIssue({ code: 'custom', path: ['id'], message: 'id e clientId diferentes' });
  }
  const dates = [v.scheduleDate ?? []].flat().filter((d) => d !== '');
  let scheduleDate: Date | null = null;
  if (dates.some((d) => d !== dates[0])) {
    ctx.addIssue({ code: 'custom', path: ['scheduleDate'], message: 'Data inválida: uma só data por envio' });
  } else if (dates.length > 0) {
    scheduleDate = parseScheduleDate(dates[0]);
    if (!scheduleDate) {
      ctx.addIssue({ code: 'custom', path: ['scheduleDate'], message: 'Data inválida (use dd/MM/yyyy HH:mm ou ISO 8601)' });
    } else if (v.isPrivate) {
      ctx.addIssue({ code: 'custom', path: ['scheduleDate'], message: 'notas privadas não são agendadas' });
    }
  }
  return {
    body: Array.isArray(v.body) ? undefined : v.body,
    bodies: Array.isArray(v.body) ? v.body : undefined,
    quotedMsgId: quotedFromObject ?? v.quotedMsgId,
    clientId: v.clientId ?? v.id,
    isPrivate: v.isPrivate,
    scheduleDate,
  };
}

/**
 * POST /messages/{ticketId}. The text may be empty only when files are attached (checked by the
 * server, which sees the files); a future `scheduleDate` makes it a scheduled message.
 */
export const SendMessageSchema = z.object(sendMessageFields).transform(normaliseSend);

/** POST /noRedis: the same message, naming its ticket in the body; sent before answering. */
export const SendNowSchema = z
  .object({ ...sendMessageFields, ticketId: recordId })
  .transform((v, ctx) => ({ ticketId: v.ticketId, ...normaliseSend(v, ctx) }));

/**
 * POST /messagesSchedule/ (JSON, or multipart with one file in `medias`): the /agendamentos
 * dialog validates with this same schema. The text may be empty only with a file (checked by
 * the server, which sees the file).
 */
export const ScheduleMessageSchema = z
  .object({
    ticketId: recordId.optional(),
    contactId: recordId.optional(),
    body: body.default(''),
    scheduleDate,
    recurrenceDays: recurrenceDays.default(0),
    repetitions: repetitions.default(SCHEDULE_DEFAULT_REPETITIONS),
    clientId: clientIdSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.ticketId === undefined && v.contactId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['ticketId'], message: 'informe ticketId ou contactId' });
    }
  });

/**
 * PATCH /messages/{id}: a scheduled message's text, date or recurrence, or `status: 'canceled'`
 * to cancel it; `read: true` on a received message marks it and the older ones read.
 */
export const UpdateMessageSchema = z
  .object({
    body: requiredBody.optional(),
    scheduleDate: scheduleDate.optional(),
    recurrenceDays: recurrenceDays.optional(),
    repetitions: repetitions.optional(),
    status: z.literal('canceled', { error: "só aceita 'canceled'" }).optional(),
    read: z.literal(true, { error: 'só aceita true' }).optional(),
  })
  .superRefine((v, ctx) => {
    const given = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k]) => k);
    if (given.length === 0) ctx.addIssue({ code: 'custom', path: ['body'], message: 'informe ao menos um campo para alterar' });
    if (v.read !== undefined && given.length > 1)
      ctx.addIssue({ code: 'custom', path: ['read'], message: 'read é alterado sozinho' });
  });

export const EditMessageSchema = z.object({ messageId: recordId, body: requiredBody });

/**
 * DELETE /messages body: our id; `messageId` (the provider id), when sent, must match. Loose on
 * purpose: the anchor client sends the whole message it shows, which only identifies it (a
 * delete changes nothing else).
 */
export const DeleteMessageSchema = z.looseObject({
  id: recordId,
  messageId: z.string().max(200).nullable().optional(),
});

/** A row by id, or the row itself (the anchor forwards the messages and contact it holds): only `id` is read. */
const idRef = z.union([recordId, z.looseObject({ id: recordId })]).transform((v) => (typeof v === 'number' ? v : v.id));

export const ForwardMessagesSchema = z.object({
  messages: z
    .array(idRef, { error: 'informe as mensagens' })
    .min(1, { error: 'Selecione ao menos uma mensagem.' })
    .max(FORWARD_MAX_MESSAGES, { error: FORWARD_LIMIT_MESSAGE }),
  contact: z
    .union([idRef, z.array(idRef).length(FORWARD_MAX_CONTACTS, { error: FORWARD_CONTACT_MESSAGE })], {
      error: FORWARD_CONTACT_MESSAGE,
    })
    .transform((v) => (Array.isArray(v) ? v[0] : v)),
});

export const GhostMessageSchema = z.object({ ticketId: recordId, body: requiredBody, clientId: clientIdSchema.optional() });

export const MentionMessageSchema = z.object({
  ticketId: recordId,
  body: requiredBody,
  mentions: z
    .array(z.string().regex(/^\d{5,20}$/, { error: 'deve ser um número com DDI' }))
    .min(1)
    .max(256),
  clientId: clientIdSchema.optional(),
});

export const MentionAllMessageSchema = z.object({ ticketId: recordId, body: requiredBody, clientId: clientIdSchema.optional() });

export const ReactionMessageSchema = z.object({
  messageId: recordId,
  /** One emoji; an empty text removes the reaction. */
  emoji: z.string({ error: 'é obrigatório' }).max(16, { error: 'deve ser um emoji' }),
});

export const ListParticipantsSchema = z.object({ ticketId: recordId });

export const SendButtonSchema = z
  .object({
    ticketId: recordId,
    body: z
      .string({ error: 'é obrigatório' })
      .trim()
      .min(INTERACTIVE_TEXT_MIN, { error: `de ${INTERACTIVE_TEXT_MIN} a ${INTERACTIVE_TEXT_MAX} caracteres` })
      .max(INTERACTIVE_TEXT_MAX, { error: `de ${INTERACTIVE_TEXT_MIN} a ${INTERACTIVE_TEXT_MAX} caracteres` }),
    buttons: z
      .array(
        z.object({
          id: z.string().trim().min(1).max(256).optional(),
          title: z
            .string({ error: 'é obrigatório' })
            .trim()
            .min(1, { error: 'é obrigatório' })
            .max(INTERACTIVE_BUTTON_MAX, { error: `no máximo ${INTERACTIVE_BUTTON_MAX} caracteres` }),
        }),
        { error: 'informe os botões' },
      )
      .min(1, { error: 'informe ao menos um botão' })
      .max(INTERACTIVE_BUTTONS_MAX_COUNT, { error: `no máximo ${INTERACTIVE_BUTTONS_MAX_COUNT} botões` }),
    clientId: clientIdSchema.optional(),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.buttons.forEach((b, i) => {
      const key = b.title.toLocaleLowerCase('pt-BR');
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['buttons', i, 'title'], message: 'os botões devem ter textos diferentes' });
      seen.add(key);
    });
  });

/** POST /messages/syncOld and /messages/syncOldByUser (history import of a channel). */
export const SyncOldMessagesSchema = z.object({
  whatsappId: recordId.optional(),
  ticketId: recordId.optional(),
  userId: recordId.optional(),
  limit: positiveInt('limit').max(10_000).optional(),
});

/** POST /messages/sendBirthday: the contacts whose birthday is today (optionally a subset). */
export const SendBirthdaySchema = z.object({
  contactIds: z.array(recordId).max(1000).optional(),
});

export type MessageListQuery = z.output<typeof MessageListQuerySchema>;
export type SearchMessageQuery = z.output<typeof SearchMessageQuerySchema>;
export type SendNowInput = z.output<typeof SendNowSchema>;
export type ScheduleMessageInput = z.output<typeof ScheduleMessageSchema>;
export type UpdateMessageInput = z.output<typeof UpdateMessageSchema>;
export type EditMessageInput = z.output<typeof EditMessageSchema>;
export type DeleteMessageInput = z.output<typeof DeleteMessageSchema>;
export type ForwardMessagesInput = z.output<typeof ForwardMessagesSchema>;
export type GhostMessageInput = z.output<typeof GhostMessageSchema>;
export type MentionMessageInput = z.output<typeof MentionMessageSchema>;
export type MentionAllMessageInput = z.output<typeof MentionAllMessageSchema>;

/** POST /messages/listParticipants: the group's participants as the phone reports them. */
export interface ListParticipantsResponse {
  groupId: string;
  subject: string;
  participants: { id: string; number: string | null; admin: 'admin' | 'superadmin' | null }[];
}
export type ReactionMessageInput = z.output<typeof ReactionMessageSchema>;
export type SendButtonInput = z.output<typeof SendButtonSchema>;
export type SendBirthdayInput = z.output<typeof SendBirthdaySchema>;

/** One reaction on a message: by the customer (`fromMe` false) or by an agent. */
export interface MessageReaction {
  emoji: string;
  fromMe: boolean;
  userId?: number | null;
  contactId?: number | null;
  /** Unix seconds. */
  timestamp?: number | null;
}

/** What a reply shows of the message it quotes. */
export interface QuotedMessageSummary {
  id: number;
  body: string;
  fromMe: boolean;
  mediaType: string;
  mediaName: string | null;
  isDeleted: boolean;
}

export interface MessageFlags {
  edited: boolean;
  deleted: boolean;
  scheduled: boolean;
  sync: boolean;
  /** Delivery failed for good ("Mensagem não entregue"); POST /messages/{id}/retry sends again. */
  undelivered: boolean;
  /** A send failed or is waiting for its channel; the next automatic try is at `nextRetryAt`. */
  retryPending: boolean;
  /** Failed without knowing whether the provider got it (the worker stopped mid-call); the agent decides to resend. */
  unconfirmed: boolean;
  private: boolean;
}

/** The one shape a message leaves the server in (REST and socket events). */
export interface MessageDto {
  id: number;
  /** Provider id once sent or received. */
  messageId: string | null;
  clientId: string | null;
  ticketId: number;
  contactId: number | null;
  userId: number | null;
  whatsappId: number | null;
  body: string;
  fromMe: boolean;
  /** chat, image, audio, video, document, sticker, button, location, ... */
  mediaType: string;
  mediaName: string | null;
  mimeType: string | null;
  /** GET it with the bearer token (GET /messages/media/{id}); null without a file. */
  mediaUrl: string | null;
  quotedMsgId: number | null;
  quotedMsg: QuotedMessageSummary | null;
  status: MessageStatus;
  /** 0 pending, 1 sent, 2 delivered, 3 read, -1 failed (the anchor clients' ack). */
  ack: number;
  read: boolean;
  reactions: MessageReaction[];
  isEdited: boolean;
  isDeleted: boolean;
  isSync: boolean;
  isPrivate: boolean;
  scheduleDate: string | null;
  /** Recurrence of a scheduled message (days, 0 = none) and the sends left including this one. */
  schedule: { recurrenceDays: number; repetitions: number; occurrence: number } | null;
  sendAttempts: number;
  nextRetryAt: string | null;
  lastError: string | null;
  /** Interactive buttons of a button message. */
  buttons: { id: string; title: string }[] | null;
  flags: MessageFlags;
  /** Unix seconds (provider time when known). */
  timestamp: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface MessagesPage {
  messages: MessageDto[];
  /** Kept for the anchor clients; inbound messages are stored at once, so always empty. */
  messagesOffLine: MessageDto[];
  hasMore: boolean;
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
  /** Total messages of the ticket, only with `withCount=true`. */
  count?: number;
}

/** A send that was stored but cannot go out yet (no channel, channel not connected). */
export interface DeliveryWarning {
  error: string;
  message: string;
}

/** Answer of the sending routes. */
export interface SendMessageResponse {
  messages: MessageDto[];
  /** False when a retry with a known clientId returned the stored message (HTTP 200). */
  created: boolean;
  warning: DeliveryWarning | null;
}

export interface MessageSearchResponse {
  messages: MessageDto[];
  count: number;
  hasMore: boolean;
}

export interface ScheduledMessageDto extends MessageDto {
  contact: { id: number; name: string; number: string | null } | null;
}

export interface ScheduledMessagesResponse {
  messages: ScheduledMessageDto[];
  count: number;
  hasMore: boolean;
}

export interface ForwardMessagesResponse {
  ticketId: number;
  messages: MessageDto[];
}

export interface SendBirthdayResponse {
  /** Contacts that got a birthday message now. */
  sent: number;
  /** Contacts already greeted today (idempotent re-run). */
  skipped: number;
  /** Contacts with a birthday today but no channel with a birthday message. */
  withoutChannel: number;
}

/** `appMessage:create|update|ack|delete` payload (ticket audience). */
export interface MessageEventPayload {
  action: 'create' | 'update' | 'delete';
  ticketId: number;
  message: MessageDto;
}
