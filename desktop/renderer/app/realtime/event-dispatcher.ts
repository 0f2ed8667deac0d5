import { SOCKET_EVENTS, type DomainEventEnvelope } from '@shared/events';
import type { TAG_TYPES } from '../../api/base.api';

/**
 * What a domain event changes in the client's caches, decided without touching the store so the
 * mapping is tested on its own. Only the user and settings events exist on the server so far;
 * other names are ignored until their screens exist.
 */
export type CacheUpdate =
  | { kind: 'patchUser'; userId: number; patch: Record<string, unknown> }
  | { kind: 'invalidate'; tags: { type: (typeof TAG_TYPES)[number]; id?: number | string }[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function userIdOf(payload: Record<string, unknown>): number | null {
  const id = payload.userId ?? payload.id;
  return typeof id === 'number' && Number.isFinite(id) ? id : null;
}

export function planCacheUpdates(event: Pick<DomainEventEnvelope, 'name' | 'payload'>): CacheUpdate[] {
  const payload = isRecord(event.payload) ? event.payload : {};
  switch (event.name) {
    case SOCKET_EVENTS.userStatus: {
      const userId = userIdOf(payload);
      return userId !== null && typeof payload.isOnline === 'boolean'
        ? [{ kind: 'patchUser', userId, patch: { isOnline: payload.isOnline } }]
        : [];
    }
    case SOCKET_EVENTS.userUpdate: {
      const source = isRecord(payload.user) ? payload.user : payload;
      const userId = userIdOf(source);
      if (userId === null) return [{ kind: 'invalidate', tags: [{ type: 'User' }] }];
      const { userId: _ignored, ...patch } = source;
      return [{ kind: 'patchUser', userId, patch: { ...patch, id: userId } }];
    }
    case SOCKET_EVENTS.settingsUpdate:
      return [{ kind: 'invalidate', tags: [{ type: 'Settings' }] }];
    case SOCKET_EVENTS.tenantUpdate:
      return [{ kind: 'invalidate', tags: [{ type: 'SystemColors' }, { type: 'Settings' }] }];
    default:
      return [];
  }
}
