import { describe, expect, it } from 'vitest';
import { nextCatchingUp, sessionCalls } from './session-bridge';

const none = { token: null, userId: null, tenantId: null };
const agent = { token: 'a1', userId: 7, tenantId: 3 };

describe("the desktop cache's calls for a session change", () => {
  it('login or a stored session at start-up opens the account', () => {
    expect(sessionCalls(none, agent)).toEqual([{ kind: 'begin', token: 'a1' }]);
  });
  it('a refreshed token of the same account is handed over', () => {
    expect(sessionCalls(agent, { ...agent, token: 'a2' })).toEqual([{ kind: 'setAccessToken', token: 'a2' }]);
    expect(sessionCalls(agent, agent)).toEqual([]);
  });
  it('another user or tenant begins again (main wipes the other account)', () => {
    expect(sessionCalls(agent, { ...agent, token: 'b', userId: 8 })).toEqual([{ kind: 'begin', token: 'b' }]);
    expect(sessionCalls(agent, { ...agent, token: 'c', tenantId: 4 })).toEqual([{ kind: 'begin', token: 'c' }]);
  });
  it('the session ending (a 401) closes the cache; nothing to do when there was none', () => {
    expect(sessionCalls(agent, none)).toEqual([{ kind: 'end' }]);
    expect(sessionCalls(none, none)).toEqual([]);
  });
  it('catching up: from offline or error until the sync is idle again', () => {
    expect(nextCatchingUp(false, 'syncing')).toBe(false);
    expect(nextCatchingUp(false, 'offline')).toBe(true);
    expect(nextCatchingUp(true, 'syncing')).toBe(true);
    expect(nextCatchingUp(true, 'idle')).toBe(false);
    expect(nextCatchingUp(false, 'error')).toBe(true);
  });
});
