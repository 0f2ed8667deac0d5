import type { TicketDto, TicketLogDto, TicketNoteDto, TicketStatus } from '@shared/schemas/tickets';
import type { TicketAudienceFacts } from '../../db/entities';

/**
 * A ticket as the list and the chat read it, in one statement: the ticket row joined with its
 * contact (name, number, picture, tags and wallet owners by correlated subqueries), responsible
 * user, queue and channel. Used for the list page (over the page's ids), single loads and the
 * payload of every ticket event.
 */
export const TICKET_COLUMNS = `
         t.id, t."tenantId", t.protocol, t.status, t."contactId", t."userId", t."queueId", t."whatsappId", t.channel,
         t."isGroup", t."unreadMessages", t.answered, t."lastMessage", t."lastMessageAt", t."kanbanId", t."chatFlowId",
         t."botActive", t."demandId", t.value, t."difyStatus", t."lmStatus", t."ollamaStatus", t."n8nStatus",
         t."typebotStatus", t."dialogflowStatus", t."chatgptStatus", t."closeAt", t."closeReason", t."ratingRequestedAt",
         t."startedAt", t."closedAt", t."createdAt", t."updatedAt",
         c.name AS "contactName", c.number AS "contactNumber", c."profilePicUrl" AS "contactPicUrl",
         COALESCE((SELECT json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color) ORDER BY lower(tg.name), tg.id)
                     FROM contact_tags ct JOIN tags tg ON tg.id = ct."tagId"
                    WHERE ct."contactId" = t."contactId"), '[]'::json) AS "contactTags",
         COALESCE((SELECT json_agg(json_build_object('id', wu.id, 'name', wu.name) ORDER BY wu.id)
                     FROM contact_wallets cw JOIN users wu ON wu.id = cw."userId"
                    WHERE cw."contactId" = t."contactId"), '[]'::json) AS "contactWallets",
         u.name AS "userName", q.name AS "queueName", q.color AS "queueColor", ch.name AS "channelName", ch.type AS "channelType"`;

export const TICKET_FROM = `
    FROM tickets t
    JOIN contacts c ON c.id = t."contactId"
    LEFT JOIN users u ON u.id = t."userId"
    LEFT JOIN queues q ON q.id = t."queueId"
    LEFT JOIN channels ch ON ch.id = t."whatsappId"`;

export const TICKET_SELECT = `SELECT ${TICKET_COLUMNS} ${TICKET_FROM}`;

export interface TicketRow {
  id: number;
  tenantId: number;
  protocol: string | null;
  status: TicketStatus;
  contactId: number;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  channel: string | null;
  isGroup: boolean;
  unreadMessages: number;
  answered: boolean;
  lastMessage: string | null;
  lastMessageAt: Date;
  kanbanId: number | null;
  chatFlowId: number | null;
  botActive: boolean;
  demandId: number | null;
  value: string | null;
  difyStatus: string | null;
  lmStatus: string | null;
  ollamaStatus: string | null;
  n8nStatus: string | null;
  typebotStatus: string | null;
  dialogflowStatus: string | null;
  chatgptStatus: string | null;
  closeAt: Date | null;
  closeReason: string | null;
  ratingRequestedAt: Date | null;
  startedAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  contactName: string;
  contactNumber: string | null;
  contactPicUrl: string | null;
  contactTags: { id: number; name: string; color: string }[];
  contactWallets: { id: number; name: string }[];
  userName: string | null;
  queueName: string | null;
  queueColor: string | null;
  channelName: string | null;
  channelType: string | null;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

export function presentTicket(row: TicketRow): TicketDto {
  return {
    id: row.id,
    protocol: row.protocol,
    status: row.status,
    name: row.contactName,
    contactId: row.contactId,
    contact: {
      id: row.contactId,
      name: row.contactName,
      number: row.contactNumber,
      profilePicUrl: row.contactPicUrl,
      tags: row.contactTags,
      wallets: row.contactWallets,
    },
    userId: row.userId,
    user: row.userId !== null && row.userName !== null ? { id: row.userId, name: row.userName } : null,
    queueId: row.queueId,
    queue:
      row.queueId !== null && row.queueName !== null
        ? { id: row.queueId, name: row.queueName, color: row.queueColor ?? '' }
        : null,
    whatsappId: row.whatsappId,
    whatsapp:
      row.whatsappId !== null && row.channelName !== null
        ? { id: row.whatsappId, name: row.channelName, type: row.channelType ?? '' }
        : null,
    channel: row.channel ?? row.channelType,
    isGroup: row.isGroup,
    unreadMessages: row.unreadMessages,
    answered: row.answered,
    lastMessage: row.lastMessage,
    lastMessageAt: iso(row.lastMessageAt) as string,
    kanbanId: row.kanbanId,
    chatFlowId: row.chatFlowId,
    botActive: row.botActive,
    demandId: row.demandId,
    value: row.value === null ? null : Number(row.value),
    difyStatus: row.difyStatus,
    lmStatus: row.lmStatus,
    ollamaStatus: row.ollamaStatus,
    n8nStatus: row.n8nStatus,
    typebotStatus: row.typebotStatus,
    dialogflowStatus: row.dialogflowStatus,
    chatgptStatus: row.chatgptStatus,
    closeAt: iso(row.closeAt),
    closeReason: row.closeReason,
    ratingRequestedAt: iso(row.ratingRequestedAt),
    startedAt: iso(row.startedAt),
    closedAt: iso(row.closedAt),
    createdAt: iso(row.createdAt) as string,
    updatedAt: iso(row.updatedAt) as string,
  };
}

/** What the visibility rule needs of a ticket (event audiences, single loads). */
export function audienceFactsOf(
  row: Pick<TicketRow, 'id' | 'contactId' | 'queueId' | 'userId' | 'status' | 'isGroup' | 'botActive'> & {
    contactWallets: { id: number }[];
  },
): TicketAudienceFacts {
  return {
    ticketId: row.id,
    contactId: row.contactId,
    queueId: row.queueId,
    userId: row.userId,
    status: row.status,
    isGroup: row.isGroup,
    botActive: row.botActive,
    walletUserIds: row.contactWallets.map((w) => w.id),
  };
}

export interface TicketLogRow {
  id: string;
  ticketId: number;
  type: string;
  userId: number | null;
  userName: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

export function presentLog(row: TicketLogRow): TicketLogDto {
  return {
    id: Number(row.id),
    ticketId: row.ticketId,
    type: row.type,
    userId: row.userId,
    user: row.userId !== null && row.userName !== null ? { id: row.userId, name: row.userName } : null,
    data: row.data ?? {},
    createdAt: iso(row.createdAt) as string,
  };
}

export interface TicketNoteRow {
  id: number;
  ticketId: number;
  note: string;
  userId: number | null;
  userName: string | null;
  createdAt: Date;
}

export function presentNote(row: TicketNoteRow): TicketNoteDto {
  return {
    id: row.id,
    ticketId: row.ticketId,
    note: row.note,
    userId: row.userId,
    user: row.userId !== null && row.userName !== null ? { id: row.userId, name: row.userName } : null,
    createdAt: iso(row.createdAt) as string,
  };
}
