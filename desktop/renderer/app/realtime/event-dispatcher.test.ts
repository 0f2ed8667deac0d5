import { describe, expect, it } from 'vitest';
import { planCacheUpdates } from './event-dispatcher';

describe('planCacheUpdates', () => {
  it('patches the user on a status change', () => {
    expect(planCacheUpdates({ name: 'user:status', payload: { userId: 7, isOnline: true } })).toEqual([
      { kind: 'patchUser', userId: 7, patch: { isOnline: true } },
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

  it('ignores events without a screen yet', () => {
    expect(planCacheUpdates({ name: 'ticket:create', payload: { id: 1 } })).toEqual([]);
  });
});
