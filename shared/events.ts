import type { ErrorCode } from './errors';

/**
 * Realtime event names (spec section 7). Every event goes as `event` (with its `seq`, for
 * replay) and as `<tenantId>:<name>`; the anchor client's own names and shapes (`ticketList`,
 * `contactList`, `whatsapp`) are added by server/src/realtime/anchor-events.ts.
 */
export const SOCKET_EVENTS = {
  // client -> server
  setUserActive: 'setUserActive',
  // server -> client
  invalidToken: 'tokenInvalid',
  userStatus: 'user:status',
  userUpdate: 'user:update',
  /** A user was deleted: `{action: 'delete', id}` to the tenant. */
  userDelete: 'user:delete',
  /**
   * The user's desktop consoles wipe their local cache and start over (issue #15):
   * DesktopPurgePayload (shared/schemas/users.ts), to that user only, live and in GET /sync.
   */
  desktopPurge: 'desktop:purge',
  settingsUpdate: 'settings:update',
  tenantUpdate: 'tenant:update',
  whatsappSession: 'whatsappSession',
  whatsappUpdate: 'whatsapp:update',
  whatsappDelete: 'whatsapp:delete',
  importSync: 'importMessages',
  batteryLow: 'change_battery',
  ticketCreate: 'ticket:create',
  ticketUpdate: 'ticket:update',
  /** The ticket leaves the recipient's list: `{action: 'delete', ticketId, reason: 'hidden'}`. */
  ticketDelete: 'ticket:delete',
  /** Internal notes of a ticket: `{action: 'create', ticketId, note}` / `{action: 'delete', ticketId, noteId}`. */
  ticketNote: 'ticket:note',
  chatCreate: 'chat:create',
  messageCreate: 'appMessage:create',
  messageAck: 'appMessage:ack',
  messageUpdate: 'appMessage:update',
  messageDelete: 'appMessage:delete',
  contactUpdate: 'contact:update',
  /** Progress of a contacts import, to the importing user only. */
  contactImportProgress: 'contactImport:progress',
  /** Progress of a WhatsApp groups mass operation (GroupOperationDto), to the user who started it. */
  groupOperation: 'group:operation',
  /** A channel's stored groups changed (sync, joins, leaves): `{ action: 'update', whatsappId }`, to supervisors and admins. */
  groupUpdate: 'group:update',
  privateMessage: 'chat:privateMessage',
  // CRM catalogs: `<x>:update` carries { action: 'create' | 'update', <x> } or { action: 'reorder', ids },
  // `<x>:delete` carries { action: 'delete', id }.
  queueUpdate: 'queue:update',
  queueDelete: 'queue:delete',
  tagUpdate: 'tag:update',
  tagDelete: 'tag:delete',
  teamUpdate: 'team:update',
  teamDelete: 'team:delete',
  kanbanUpdate: 'kanban:update',
  kanbanDelete: 'kanban:delete',
  laneUpdate: 'lane:update',
  laneDelete: 'lane:delete',
  demandUpdate: 'demand:update',
  demandDelete: 'demand:delete',
  fastReplyUpdate: 'fastReply:update',
  fastReplyDelete: 'fastReply:delete',
  /** Chatbot flows: `{ action: 'create' | 'update', chatFlow: ChatFlowSummary }` (never the definition) / `{ action: 'delete', id }`. */
  chatFlowUpdate: 'chatFlow:update',
  chatFlowDelete: 'chatFlow:delete',
  /** Auto-replies (/auto-resposta): { action, autoReplyId } after any write of a bot, step or action; refetch the list. */
  autoReplyUpdate: 'autoReply:update',
  /**
   * Campaigns (/campanhas), to supervisors and administrators: `{ action: 'create' | 'update' | 'progress', campaign: CampaignDto }`
   * after every write, state change and, while sending, at most once a second per campaign (counts and status).
   */
  campaignUpdate: 'campaign:update',
  /** `{ action: 'delete', id }`. */
  campaignDelete: 'campaign:delete',
  /**
   * Bulk sends (/massa/*), to supervisors and administrators: `{ action: 'create' | 'update' | 'progress', bulkSend: BulkSendDto }`
   * when one starts, changes state and, while sending, at most once a second per send (counts and status).
   */
  bulkSendUpdate: 'bulkSend:update',
  /**
   * A notification for the bell (issue #17): NotificationCreatePayload (shared/schemas/notifications.ts),
   * recorded in each targeted tenant, to its users of the targeted profiles (or to one user).
   */
  notificationCreate: 'notification:create',
  /** The super administrator deleted a notification: `{ action: 'delete', id }`, to the tenants it went to. */
  notificationDelete: 'notification:delete',
  /** Tasks (/tarefas): `{ action: 'create' | 'update', taskId }` after a write, to the tenant (ids only: refetch the visible list). */
  taskUpdate: 'task:update',
  /** `{ action: 'delete', taskId }`. */
  taskDelete: 'task:delete',
  /** The platform's white-label name, logo or favicon changed: BrandingDto, to every tenant. Colours are refetched too. */
  brandingUpdate: 'branding:update',
} as const;

export type SocketEventName = (typeof SOCKET_EVENTS)[keyof typeof SOCKET_EVENTS];

/** One recorded domain event, as delivered on the socket (`event` message) and by GET /sync. */
export interface DomainEventEnvelope<T = unknown> {
  seq: number;
  tenantId: number;
  name: SocketEventName | string;
  payload: T;
  createdAt: string;
}

/** GET /sync answer. `reload: true` means the gap is too large: refetch everything. */
export interface SyncResponse {
  events: DomainEventEnvelope[];
  lastSeq: number;
  reload: boolean;
}

/** Payload of the invalid-token event; the socket is disconnected right after it. */
export interface InvalidTokenPayload {
  /** ERR_INVALID_TOKEN (log in again), ERR_SESSION_EXPIRED (refresh once) or ERR_TENANT_INACTIVE. */
  error: ErrorCode;
  message: string;
}
