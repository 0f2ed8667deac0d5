import { describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { planCacheUpdates } from './event-dispatcher';

describe('planCacheUpdates', () => {
  it('patches the user on a status change, with the presence', () => {
    expect(planCacheUpdates({ name: 'user:status', payload: { userId: 7, isOnline: true, presence: 'away' } })).toEqual([
      { kind: 'patchUser', userId: 7, patch: { isOnline: true, presence: 'away' } },
    ]);
    // Without a (valid) presence, the flag decides: online or offline.
    expect(planCacheUpdates({ name: 'user:status', payload: { userId: 7, isOnline: true } })).toEqual([
      { kind: 'patchUser', userId: 7, patch: { isOnline: true, presence: 'online' } },
    ]);
    expect(planCacheUpdates({ name: 'user:status', payload: { userId: 7, isOnline: false, presence: 'gone' } })).toEqual([
      { kind: 'patchUser', userId: 7, patch: { isOnline: false, presence: 'offline' } },
    ]);
    expect(planCacheUpdates({ name: 'user:status', payload: { userId: 7 } })).toEqual([]);
  });

  it('patches the user on an update, with or without a wrapper', () => {
    expect(planCacheUpdates({ name: 'user:update', payload: { id: 3, name: 'Ana', profile: 'super' } })).toEqual([
      { kind: 'patchUser', userId: 3, patch: { id: 3, name: 'Ana', profile: 'super' } },
    ]);
    expect(planCacheUpdates({ name: 'user:update', payload: { user: { id: 3, name: 'Ana' } } })).toEqual([
      { kind: 'patchUser', userId: 3, patch: { id: 3, name: 'Ana' } },
    ]);
  });

  it('refetches all users when an update does not say which', () => {
    expect(planCacheUpdates({ name: 'user:update', payload: {} })).toEqual([{ kind: 'invalidate', tags: [{ type: 'User' }] }]);
  });

  it('refetches settings on a settings change', () => {
    expect(planCacheUpdates({ name: 'settings:update', payload: { key: 'x' } })).toEqual([
      { kind: 'invalidate', tags: [{ type: 'Settings' }] },
    ]);
  });

  it('refetches the auto-replies on any auto-reply change', () => {
    expect(planCacheUpdates({ name: 'autoReply:update', payload: { action: 'update', autoReplyId: 3 } })).toEqual([
      { kind: 'invalidate', tags: [{ type: 'AutoReply' }] },
    ]);
  });

  it('hands contact events to the contacts cache and import progress to the import dialog', () => {
    const contact = { action: 'update', contact: { id: 1, name: 'Maria' } };
    expect(planCacheUpdates({ name: 'contact:update', payload: contact })).toEqual([
      { kind: 'contactEvent', payload: contact },
      { kind: 'invalidate', tags: [{ type: 'TagBoard' }] },
    ]);
    const progress = { id: 'abc', status: 'processing', percent: 40 };
    expect(planCacheUpdates({ name: 'contactImport:progress', payload: progress })).toEqual([
      { kind: 'contactImportProgress', payload: progress },
    ]);
  });

  it('refetches the chatbot flows on their events', () => {
    for (const name of ['chatFlow:update', 'chatFlow:delete']) {
      expect(planCacheUpdates({ name, payload: { action: 'delete', id: 3 } })).toEqual([
        { kind: 'invalidate', tags: [{ type: 'ChatFlow' }] },
      ]);
    }
  });

  it('ignores events without a screen yet', () => {
    expect(planCacheUpdates({ name: 'ticket:create', payload: { id: 1 } })).toEqual([]);
  });

  it('patches the cached list of a CRM catalog from its events', () => {
    const created = { action: 'create', queue: { id: 4, name: 'Suporte' } };
    expect(planCacheUpdates({ name: 'queue:update', payload: created })).toEqual([
      { kind: 'patchCatalog', catalog: 'queue', payload: created },
    ]);
    expect(planCacheUpdates({ name: 'kanban:update', payload: { action: 'reorder', ids: [2, 1] } })).toEqual([
      { kind: 'patchCatalog', catalog: 'kanban', payload: { action: 'reorder', ids: [2, 1] } },
    ]);
    expect(planCacheUpdates({ name: 'fastReply:delete', payload: { action: 'delete', id: 9 } })).toEqual([
      { kind: 'patchCatalog', catalog: 'fastReply', payload: { action: 'delete', id: 9 } },
    ]);
  });

  it('refreshes the tags board when a tag changes', () => {
    expect(planCacheUpdates({ name: 'tag:delete', payload: { action: 'delete', id: 3 } })).toEqual([
      { kind: 'patchCatalog', catalog: 'tag', payload: { action: 'delete', id: 3 } },
      { kind: 'invalidate', tags: [{ type: 'TagBoard' }] },
    ]);
  });

  it('refetches the users list for a new or deleted user, and business hours on a tenant change', () => {
    expect(planCacheUpdates({ name: 'user:update', payload: { action: 'create', user: { id: 8, name: 'Bia' } } })).toEqual([
      { kind: 'patchUser', userId: 8, patch: { id: 8, name: 'Bia' } },
      { kind: 'invalidate', tags: [{ type: 'TenantUser' }] },
    ]);
    expect(planCacheUpdates({ name: 'user:delete', payload: { action: 'delete', id: 8 } })).toEqual([
      { kind: 'invalidate', tags: [{ type: 'TenantUser' }, { type: 'Team' }] },
    ]);
    expect(planCacheUpdates({ name: 'tenant:update', payload: { tenantId: 2, businessHours: [] } })).toEqual([
      { kind: 'invalidate', tags: [{ type: 'SystemColors' }, { type: 'Settings' }, { type: 'BusinessHours' }] },
    ]);
  });
});

describe('white-label and notification events', () => {
  it('branding:update refetches the branding and the colours; notification events refetch the bell', () => {
    expect(planCacheUpdates({ name: SOCKET_EVENTS.brandingUpdate, payload: {} })).toEqual([
      { kind: 'invalidate', tags: [{ type: 'Branding' }, { type: 'SystemColors' }] },
    ]);
    for (const name of [SOCKET_EVENTS.notificationCreate, SOCKET_EVENTS.notificationDelete]) {
      expect(planCacheUpdates({ name, payload: {} })).toEqual([{ kind: 'invalidate', tags: [{ type: 'Notification' }] }]);
    }
  });
});
