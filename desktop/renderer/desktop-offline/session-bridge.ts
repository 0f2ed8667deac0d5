/**
 * Which account calls a change of the session makes on the desktop's cache (issue #15), as a pure
 * function of the session before and after: main opens the cache for the account a token names,
 * takes refreshed tokens of the same account, and closes it when the session ends. The explicit
 * logout's wipe is not decided here: it runs (after the agent confirmed) through the session
 * controller's logout hook, before the session is cleared.
 */
export interface SessionView {
  token: string | null;
  userId: number | null;
  tenantId: number | null;
}

export type CacheCall = { kind: 'begin'; token: string } | { kind: 'setAccessToken'; token: string } | { kind: 'end' };

export function sessionCalls(before: SessionView, after: SessionView): CacheCall[] {
  if (!after.token) return before.token ? [{ kind: 'end' }] : [];
  const sameAccount = before.token !== null && before.userId === after.userId && before.tenantId === after.tenantId;
  if (!sameAccount) return [{ kind: 'begin', token: after.token }];
  return before.token !== after.token ? [{ kind: 'setAccessToken', token: after.token }] : [];
}

/** The sync's state since it was last idle: a 'syncing' after an offline or failed run is a catch-up. */
export function nextCatchingUp(catchingUp: boolean, state: 'idle' | 'syncing' | 'offline' | 'error'): boolean {
  if (state === 'offline' || state === 'error') return true;
  if (state === 'idle') return false;
  return catchingUp;
}
