import { SOCKET_EVENTS, type DomainEventEnvelope } from '@shared/events';
import { PRESENCE_STATES, type Presence } from '@shared/schemas/internal-chat';
import type { TAG_TYPES } from '../../api/base.api';

/**
 * What a domain event changes in the client's caches, decided without touching the store so the
 * mapping is tested on its own. Names without a screen yet are ignored.
 */
export type CacheUpdate =
  | { kind: 'patchUser'; userId: number; patch: Record<string, unknown> }
  | { kind: 'invalidate'; tags: { type: (typeof TAG_TYPES)[number]; id?: number | string }[] }
  /** A CRM catalog event applied to its cached list (api/catalog-realtime.ts). */
  | { kind: 'patchCatalog'; catalog: CatalogName; payload: unknown }
  /** `contact:update`: patch or refetch the cached contact pages (api/contacts-realtime.ts). */
  | { kind: 'contactEvent'; payload: unknown }
  /** `contactImport:progress`: to the import dialog watching it (api/contacts-realtime.ts). */
  | { kind: 'contactImportProgress'; payload: unknown };

/** The CRM catalogs whose `<x>:update` / `<x>:delete` events patch a cached list. */
export const CATALOG_EVENTS = {
  [SOCKET_EVENTS.queueUpdate]: 'queue',
  [SOCKET_EVENTS.queueDelete]: 'queue',
  [SOCKET_EVENTS.tagUpdate]: 'tag',
  [SOCKET_EVENTS.tagDelete]: 'tag',
  [SOCKET_EVENTS.teamUpdate]: 'team',
  [SOCKET_EVENTS.teamDelete]: 'team',
  [SOCKET_EVENTS.kanbanUpdate]: 'kanban',
  [SOCKET_EVENTS.kanbanDelete]: 'kanban',
  [SOCKET_EVENTS.laneUpdate]: 'lane',
  [SOCKET_EVENTS.laneDelete]: 'lane',
  [SOCKET_EVENTS.demandUpdate]: 'demand',
  [SOCKET_EVENTS.demandDelete]: 'demand',
  [SOCKET_EVENTS.fastReplyUpdate]: 'fastReply',
  [SOCKET_EVENTS.fastReplyDelete]: 'fastReply',
} as const;

export type CatalogName = (typeof CATALOG_EVENTS)[keyof typeof CATALOG_EVENTS];

const catalogOf = (name: string): CatalogName | null =>
  Object.prototype.hasOwnProperty.call(CATALOG_EVENTS, name) ? CATALOG_EVENTS[name as keyof typeof CATALOG_EVENTS] : null;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isPresence = (value: unknown): value is Presence => (PRESENCE_STATES as readonly unknown[]).includes(value);

function userIdOf(payload: Record<string, unknown>): number | null {
  const id = payload.userId ?? payload.id;
  return typeof id === 'number' && Number.isFinite(id) ? id : null;
}

export function planCacheUpdates(event: Pick<DomainEventEnvelope, 'name' | 'payload'>): CacheUpdate[] {
  const payload = isRecord(event.payload) ? event.payload : {};
  const catalog = catalogOf(event.name);
  if (catalog) {
    const updates: CacheUpdate[] = [{ kind: 'patchCatalog', catalog, payload: event.payload }];
    // A renamed or removed tag changes the chips of the tags board.
    if (catalog === 'tag') updates.push({ kind: 'invalidate', tags: [{ type: 'TagBoard' }] });
    return updates;
  }
  switch (event.name) {
    case SOCKET_EVENTS.userStatus: {
      const userId = userIdOf(payload);
      if (userId === null || typeof payload.isOnline !== 'boolean') return [];
      // Presence (issue #18); a status without it (an older server) is online or offline.
      const presence = isPresence(payload.presence) ? payload.presence : payload.isOnline ? 'online' : 'offline';
      return [{ kind: 'patchUser', userId, patch: { isOnline: payload.isOnline, presence } }];
    }
    case SOCKET_EVENTS.userUpdate: {
      const source = isRecord(payload.user) ? payload.user : payload;
      const userId = userIdOf(source);
      if (userId === null) return [{ kind: 'invalidate', tags: [{ type: 'User' }] }];
      const { userId: _ignored, ...patch } = source;
      const updates: CacheUpdate[] = [{ kind: 'patchUser', userId, patch: { ...patch, id: userId } }];
      // A new user belongs on some page of the users list (and among the team pickers).
      if (payload.action === 'create') updates.push({ kind: 'invalidate', tags: [{ type: 'TenantUser' }] });
      return updates;
    }
    case SOCKET_EVENTS.userDelete:
      return [{ kind: 'invalidate', tags: [{ type: 'TenantUser' }, { type: 'Team' }] }];
    case SOCKET_EVENTS.settingsUpdate:
      return [{ kind: 'invalidate', tags: [{ type: 'Settings' }] }];
    case SOCKET_EVENTS.tenantUpdate:
      return [{ kind: 'invalidate', tags: [{ type: 'SystemColors' }, { type: 'Settings' }, { type: 'BusinessHours' }] }];
    case SOCKET_EVENTS.contactUpdate:
      return [
        { kind: 'contactEvent', payload: event.payload },
        { kind: 'invalidate', tags: [{ type: 'TagBoard' }] },
      ];
    // Chatbot flows: the list and the transfer dialog's active flows refetch (an open builder keeps its own copy).
    case SOCKET_EVENTS.chatFlowUpdate:
    case SOCKET_EVENTS.chatFlowDelete:
      return [{ kind: 'invalidate', tags: [{ type: 'ChatFlow' }] }];
    case SOCKET_EVENTS.autoReplyUpdate:
      return [{ kind: 'invalidate', tags: [{ type: 'AutoReply' }] }];
    // White-label: the name, logo, favicon and colours are refetched (features/white-label).
    case SOCKET_EVENTS.brandingUpdate:
      return [{ kind: 'invalidate', tags: [{ type: 'Branding' }, { type: 'SystemColors' }] }];
    // The bell refetches its list and unread count.
    case SOCKET_EVENTS.notificationCreate:
    case SOCKET_EVENTS.notificationDelete:
      return [{ kind: 'invalidate', tags: [{ type: 'Notification' }] }];
    case SOCKET_EVENTS.contactImportProgress:
      return [{ kind: 'contactImportProgress', payload: event.payload }];
    default:
      return [];
  }
}
