import { z } from 'zod';
import type { ErrorBody } from '../errors';
import { RATING_MAX, RATING_MIN } from '../limits';
import { formBoolean, recordId } from './catalog-fields';
import { CHANNEL_TYPE_VALUES } from './channels';

/**
 * Tickets (atendimentos), spec sections 3-9: request schemas shared by the server (validation)
 * and the React client (forms), and the shapes the server answers and pushes on the socket.
 */

export const TICKET_STATUSES = ['open', 'pending', 'closed', 'schedule'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** The default list filter (spec section 4). */
export const DEFAULT_LIST_STATUSES: TicketStatus[] = ['open', 'pending'];

/** The per-integration bot/AI switches of a ticket (spec section 3); values are free text. */
export const INTEGRATION_STATUS_FIELDS = [
  'difyStatus',
  'lmStatus',
  'ollamaStatus',
  'n8nStatus',
  'typebotStatus',
  'dialogflowStatus',
  'chatgptStatus',
] as const;
export type IntegrationStatusField = (typeof INTEGRATION_STATUS_FIELDS)[number];
export const INTEGRATION_STATUS_MAX = 40;

export const TICKET_PAGE_SIZE_DEFAULT = 40;
export const TICKET_PAGE_SIZE_MAX = 100;
export const TICKET_NOTE_MAX = 4000;
export const TICKET_SEARCH_MAX = 100;
const MAX_IDS = 200;

/** Ids in a query string: `x=1,2`, repeated `x=1&x=2`, `x[]=1&x[]=2` (axios) or a JSON array. */
const idListParam = z.preprocess(
  (value) => {
    if (value === undefined || value === '' || value === null) return undefined;
    const parts = Array.isArray(value) ? value : [value];
    return parts.flatMap((p) => {
      if (typeof p !== 'string') return [p];
      const text = p.trim();
      if (text.startsWith('[')) {
        try {
          return JSON.parse(text) as unknown[];
        } catch {
          return [text];
        }
      }
      return text.split(',').filter((s) => s.trim() !== '');
    });
  },
  z
    .array(recordId, { error: 'deve ser uma lista de ids' })
    .max(MAX_IDS, { error: `no máximo ${MAX_IDS} itens` })
    .optional(),
);

const statusListParam = z.preprocess(
  (value) => {
    if (value === undefined || value === '' || value === null) return undefined;
    const parts = Array.isArray(value) ? value : [value];
    return parts.flatMap((p) => {
      if (typeof p !== 'string') return [p];
      const text = p.trim();
      if (text.startsWith('[')) {
        try {
          return JSON.parse(text) as unknown[];
        } catch {
          return [text];
        }
      }
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    });
  },
  z
    .array(z.enum(TICKET_STATUSES, { error: `deve ser um destes status: ${TICKET_STATUSES.join(', ')}` }))
    .min(1, { error: 'informe ao menos um status' })
    .optional(),
);

const queryBoolean = (fallback: boolean) =>
  z.preprocess(
    (v) => (v === undefined || v === '' || v === null ? fallback : Array.isArray(v) ? v[v.length - 1] : v),
    formBoolean,
  );

const positiveInt = (what: string) =>
  z.coerce
    .number({ error: `deve ser ${what}` })
    .int({ error: `deve ser ${what}` })
    .positive({ error: `deve ser ${what}` });

/**
 * axios sends arrays as `status[]=open&status[]=pending`; Koa keeps the brackets in the key.
 * Both spellings mean the same filter.
 */
const withoutBrackets = (raw: unknown): unknown => {
  if (!raw || typeof raw !== 'object') return raw;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const base = key.endsWith('[]') ? key.slice(0, -2) : key;
    const previous = out[base];
    out[base] = previous === undefined ? value : ([] as unknown[]).concat(previous, value);
  }
  return out;
};

/**
 * GET /tickets query: the attendance filter of spec section 3 plus tags and kanban filters,
 * the page size and an optional keyset cursor (`nextCursor` of the previous page).
 */
export const TicketListQuerySchema = z.preprocess(
  withoutBrackets,
  z.object({
    /** Contact name or number, or the ticket's protocol. */
    searchParam: z
      .string({ error: 'deve ser um texto' })
      .trim()
      .max(TICKET_SEARCH_MAX, { error: `no máximo ${TICKET_SEARCH_MAX} caracteres` })
      .optional(),
    // Bounded so the page offset stays a number PostgreSQL reads (1e20 was a 500).
    pageNumber: positiveInt('um número inteiro positivo').max(100_000, { error: 'pageNumber grande demais' }).default(1),
    pageSize: z.coerce
      .number({ error: `deve ser um número entre 1 e ${TICKET_PAGE_SIZE_MAX}` })
      .int({ error: `deve ser um número entre 1 e ${TICKET_PAGE_SIZE_MAX}` })
      .min(1, { error: `deve ser um número entre 1 e ${TICKET_PAGE_SIZE_MAX}` })
      .max(TICKET_PAGE_SIZE_MAX, { error: `deve ser um número entre 1 e ${TICKET_PAGE_SIZE_MAX}` })
      .default(TICKET_PAGE_SIZE_DEFAULT),
    /** Opaque keyset position from the previous answer; takes precedence over pageNumber. */
    cursor: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,200}$/, { error: 'cursor inválido' })
      .optional(),
    status: statusListParam.transform((v) => v ?? DEFAULT_LIST_STATUSES),
    /** Administrators (and supervisors, see supervisorAdmin) see every ticket of the tenant. */
    showAll: queryBoolean(false),
    /** false skips the total (e.g. when loading the next page). */
    count: queryBoolean(true),
    queuesIds: idListParam,
    whatsappIds: idListParam,
    /** Responsible user(s). */
    selectedUser: idListParam,
    withUnreadMessages: queryBoolean(false),
    isNotAssignedUser: queryBoolean(false),
    /** With queuesIds: also tickets without a queue. Alone, false hides tickets without a queue. */
    includeNotQueueDefined: queryBoolean(true),
    /** Contact has any of these tags. */
    tags: idListParam,
    /** Ticket is in any of these kanban columns. */
    kanbanIds: idListParam,
  }),
);
export type TicketListQuery = z.output<typeof TicketListQuerySchema>;

const nullableId = recordId.nullable();

const integrationStatus = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .max(INTEGRATION_STATUS_MAX, { error: `no máximo ${INTEGRATION_STATUS_MAX} caracteres` })
  .nullable();

const money = z.coerce
  .number({ error: 'deve ser um valor numérico' })
  .min(0, { error: 'não pode ser negativo' })
  .max(999_999_999_999, { error: 'valor muito alto' })
  .nullable();

/**
 * PUT /tickets/{id} body. One of four shapes, told apart by their keys:
 * 1. a transition: `status` (open | pending | closed) with optional `userId` / `queueId`;
 *    closing takes `sendFarewellMessage` and `requestRating`;
 * 2. a transfer: `isTransference: true` (or `queueId` / `userId` without `status`);
 * 3. exactly one per-integration status (`difyStatus` ... `chatgptStatus`), or `unreadMessages` alone;
 * 4. a general update of the classification fields (kanbanId, demandId, value, isGroup, chatFlowId, botActive).
 */
export const UpdateTicketSchema = z
  .object({
    status: z.enum(['open', 'pending', 'closed'], { error: 'deve ser open, pending ou closed' }).optional(),
    userId: nullableId.optional(),
    queueId: nullableId.optional(),
    isTransference: formBoolean.optional(),
    sendFarewellMessage: formBoolean.optional(),
    requestRating: formBoolean.optional(),
    unreadMessages: z.coerce
      .number({ error: 'deve ser um inteiro não negativo' })
      .int({ error: 'deve ser um inteiro não negativo' })
      .min(0, { error: 'deve ser um inteiro não negativo' })
      .optional(),
    kanbanId: nullableId.optional(),
    demandId: nullableId.optional(),
    value: money.optional(),
    isGroup: formBoolean.optional(),
    chatFlowId: nullableId.optional(),
    botActive: formBoolean.optional(),
    difyStatus: integrationStatus.optional(),
    lmStatus: integrationStatus.optional(),
    ollamaStatus: integrationStatus.optional(),
    n8nStatus: integrationStatus.optional(),
    typebotStatus: integrationStatus.optional(),
    dialogflowStatus: integrationStatus.optional(),
    chatgptStatus: integrationStatus.optional(),
  })
  .superRefine((body, ctx) => {
    const given = Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined);
    if (given.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'informe o status ou os campos a alterar' });
      return;
    }
    const integrations = given.filter((k) => (INTEGRATION_STATUS_FIELDS as readonly string[]).includes(k));
    if (integrations.length > 0 && given.length > 1) {
      ctx.addIssue({
        code: 'custom',
        path: [integrations[0]],
        message: 'o status de uma integração é alterado sozinho, um por vez',
      });
    }
    if (body.unreadMessages !== undefined && given.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['unreadMessages'], message: 'unreadMessages é alterado sozinho' });
    }
    if ((body.sendFarewellMessage !== undefined || body.requestRating !== undefined) && body.status !== 'closed') {
      ctx.addIssue({
        code: 'custom',
        path: ['status'],
        message: "sendFarewellMessage e requestRating valem só com status 'closed'",
      });
    }
    if (body.isTransference && body.queueId === undefined && body.userId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['queueId'], message: 'informe a fila ou o usuário de destino' });
    }
  });
export type UpdateTicketInput = z.output<typeof UpdateTicketSchema>;

/** PUT /ticketsForce/{id} and PUT /ticketsNull/{id}: status and user, no side effects. */
export const ForceTicketSchema = z.object({
  status: z.enum(['open', 'pending', 'closed'], { error: 'deve ser open, pending ou closed' }),
  userId: nullableId.optional(),
});
export type ForceTicketInput = z.output<typeof ForceTicketSchema>;

export const NullUserTicketSchema = z.object({
  status: z.enum(['open', 'pending', 'closed'], { error: 'deve ser open, pending ou closed' }).default('pending'),
  /** Accepted for anchor clients, which send `userId: null`; anything else is refused. */
  userId: z.null({ error: 'deve ser null' }).optional(),
});
export type NullUserTicketInput = z.output<typeof NullUserTicketSchema>;

/**
 * PUT /ticketsChatBot/{id}: `chatFlowId` hands the ticket to that chatbot flow (bot on, no user,
 * pending); `botActive: false` (or `chatFlowId: null`) takes it back from the bot.
 */
export const TicketChatBotSchema = z
  .object({
    chatFlowId: nullableId.optional(),
    botActive: formBoolean.optional(),
  })
  .refine((b) => b.chatFlowId !== undefined || b.botActive !== undefined, {
    error: 'informe chatFlowId ou botActive',
    path: ['chatFlowId'],
  })
  .refine((b) => !(b.botActive === true && !b.chatFlowId), {
    error: 'informe o fluxo (chatFlowId) para ativar o chatbot',
    path: ['chatFlowId'],
  });
export type TicketChatBotInput = z.output<typeof TicketChatBotSchema>;

/** PUT /ticketsChannelId/{id}: move the ticket to another channel of the tenant. */
export const TicketChannelIdSchema = z.object({ whatsappId: recordId });
export type TicketChannelIdInput = z.output<typeof TicketChannelIdSchema>;

/** PUT /ticketsChannel: move every open and pending ticket of one channel to another. */
export const TicketsChannelSchema = z
  .object({ fromWhatsappId: recordId, toWhatsappId: recordId })
  .refine((b) => b.fromWhatsappId !== b.toWhatsappId, { error: 'a conexão de destino deve ser outra', path: ['toWhatsappId'] });
export type TicketsChannelInput = z.output<typeof TicketsChannelSchema>;

/** GET /ticketsClear: closes the open and pending tickets of one channel. */
export const TicketsClearQuerySchema = z.object({ whatsappId: recordId });
export type TicketsClearQuery = z.output<typeof TicketsClearQuerySchema>;

/** GET /ticketsMarkAllUnread: zeroes the unread counter of the caller's visible active tickets. */
export const TicketsMarkAllReadQuerySchema = z.preprocess(
  withoutBrackets,
  z.object({ whatsappIds: idListParam, queuesIds: idListParam }),
);
export type TicketsMarkAllReadQuery = z.output<typeof TicketsMarkAllReadQuerySchema>;

/**
 * POST /tickets: a new ticket for a contact on a channel (default channel when omitted). The
 * anchor client names the chosen channel `channelId` (our `whatsappId`) and its type `channel`
 * (alone: the default channel if of that type, else the oldest of that type), and sends
 * `isActiveDemand: true` (a ticket the agent starts, which every ticket of this route is).
 */
export const CreateTicketSchema = z
  .object({
    contactId: recordId,
    whatsappId: recordId.optional(),
    channelId: recordId.optional(),
    channel: z.enum(CHANNEL_TYPE_VALUES, { error: `deve ser um destes tipos: ${CHANNEL_TYPE_VALUES.join(', ')}` }).optional(),
    isActiveDemand: formBoolean
      .refine((v) => v, { error: 'um atendimento criado pelo atendente é sempre uma demanda ativa' })
      .optional(),
    /** Responsible user; the caller when omitted. Another user: administrators and supervisors only. */
    userId: nullableId.optional(),
    queueId: nullableId.optional(),
    status: z.enum(['open', 'pending'], { error: 'deve ser open ou pending' }).default('open'),
    /** Administrators: take over the contact's ongoing ticket instead of being refused. */
    assignExisting: formBoolean.optional(),
  })
  .refine((b) => b.whatsappId === undefined || b.channelId === undefined || b.whatsappId === b.channelId, {
    error: 'whatsappId e channelId indicam conexões diferentes',
    path: ['channelId'],
  });
export type CreateTicketInput = z.output<typeof CreateTicketSchema>;

/** POST /tickets/mass-transfer (administrators). */
export const MassTransferSchema = z
  .object({
    fromUserId: recordId,
    toUserId: recordId,
    /** Only these tickets of fromUserId; all of their open and pending tickets when omitted. */
    ticketIds: z.array(recordId).max(1000, { error: 'no máximo 1000 itens' }).optional(),
  })
  .refine((b) => b.fromUserId !== b.toUserId, { error: 'o usuário de destino deve ser outro', path: ['toUserId'] });
export type MassTransferInput = z.output<typeof MassTransferSchema>;

export const CreateTicketNoteSchema = z.object({
  note: z
    .string({ error: 'é obrigatório' })
    .trim()
    .min(1, { error: 'é obrigatório' })
    .max(TICKET_NOTE_MAX, { error: `no máximo ${TICKET_NOTE_MAX} caracteres` }),
});
export type CreateTicketNoteInput = z.output<typeof CreateTicketNoteSchema>;

export const TicketRatingSchema = z.object({
  rating: z.coerce
    .number({ error: `deve ser uma nota de ${RATING_MIN} a ${RATING_MAX}` })
    .int({ error: `deve ser uma nota de ${RATING_MIN} a ${RATING_MAX}` })
    .min(RATING_MIN, { error: `deve ser uma nota de ${RATING_MIN} a ${RATING_MAX}` })
    .max(RATING_MAX, { error: `deve ser uma nota de ${RATING_MIN} a ${RATING_MAX}` }),
});
export type TicketRatingInput = z.output<typeof TicketRatingSchema>;

// ---------- Answers ----------

export interface TicketContactDto {
  id: number;
  name: string;
  number: string | null;
  profilePicUrl: string | null;
  tags: { id: number; name: string; color: string }[];
  wallets: { id: number; name: string }[];
}

export interface TicketDto {
  id: number;
  protocol: string | null;
  status: TicketStatus;
  /** The contact's name (anchor clients read `ticket.name`). */
  name: string;
  contactId: number;
  contact: TicketContactDto;
  userId: number | null;
  user: { id: number; name: string } | null;
  queueId: number | null;
  queue: { id: number; name: string; color: string } | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string; type: string } | null;
  /** Channel type (waba, baileys, telegram ...). */
  channel: string | null;
  isGroup: boolean;
  unreadMessages: number;
  answered: boolean;
  lastMessage: string | null;
  lastMessageAt: string;
  kanbanId: number | null;
  chatFlowId: number | null;
  botActive: boolean;
  demandId: number | null;
  value: number | null;
  difyStatus: string | null;
  lmStatus: string | null;
  ollamaStatus: string | null;
  n8nStatus: string | null;
  typebotStatus: string | null;
  dialogflowStatus: string | null;
  chatgptStatus: string | null;
  /** A farewell close is due at this time (closeReason 'farewell'). */
  closeAt: string | null;
  closeReason: string | null;
  ratingRequestedAt: string | null;
  startedAt: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketRatingDto {
  ticketId: number;
  rating: number;
  label: string;
  userId: number | null;
  attempts: number;
  createdAt: string;
}

/** GET /tickets/{id}: the list item plus what the chat panel shows. */
export interface TicketDetailDto extends TicketDto {
  demand: { id: number; name: string } | null;
  kanban: { id: number; name: string; color: string } | null;
  rating: TicketRatingDto | null;
  scheduledMessages: { id: number; body: string; scheduleDate: string }[];
}

export interface TicketListResponse {
  tickets: TicketDto[];
  /** Total of the filter, or null when `count=false`. */
  count: number | null;
  hasMore: boolean;
  /** Pass as `cursor` to get the next page (keyset; stable while tickets move). */
  nextCursor: string | null;
}

export interface TicketLogDto {
  id: number;
  ticketId: number;
  type: string;
  userId: number | null;
  user: { id: number; name: string } | null;
  data: Record<string, unknown>;
  createdAt: string;
}

export interface TicketNoteDto {
  id: number;
  ticketId: number;
  note: string;
  userId: number | null;
  user: { id: number; name: string } | null;
  createdAt: string;
}

/** 409 ERR_OTHER_OPEN_TICKET: the ongoing ticket, so the console can offer to open it. */
export interface OtherOpenTicketErrorBody extends ErrorBody {
  ticketId: number;
  userId: number | null;
}

export interface MassResultDto {
  /** Tickets changed. */
  count: number;
  ticketIds: number[];
  /** Tickets left as they were (e.g. the contact already has a ticket on the target channel). */
  skipped: number[];
}

// ---------- Socket payloads ----------

/** `ticket:create` / `ticket:update`: the ticket as the list shows it. */
export interface TicketEventPayload {
  action: 'create' | 'update';
  ticket: TicketDto;
}

/**
 * `ticket:delete`: drop this ticket from the list. Sent to a socket that could see the ticket
 * before a change and cannot after it (transfer to another queue, assignment to someone else
 * under NotViewAssignedTickets ...), so nothing it may no longer see stays on its screen.
 */
export interface TicketDeletePayload {
  action: 'delete';
  ticketId: number;
  reason: 'hidden';
}

export interface TicketNoteEventPayload {
  action: 'create' | 'delete';
  ticketId: number;
  note?: TicketNoteDto;
  noteId?: number;
}
