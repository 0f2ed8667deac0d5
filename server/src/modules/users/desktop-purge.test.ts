import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS, type SyncResponse } from '@shared/events';
import type { DesktopPurgeResponse } from '@shared/schemas/users';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { startTestServer, type ApiResponse, type TestServer } from '../../../../tests/helpers/test-server';
import { ABSENCE_WAIT_MS, connectAs, sleep, waitFor, type RecordingSocket } from '../../realtime/realtime.test-support';

/**
 * POST /users/{id}/desktop-purge (issue #15, "wiped ... on a server-side purge event"): who may
 * ask, the `desktop:purge` event it records for that user only, its live delivery and its replay
 * by GET /sync to a console that was offline.
 */
let server: TestServer;
const open: RecordingSocket[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

/** The route as the admin screen calls it: an empty JSON body. */
const purge = (userId: number | string, token?: string): Promise<ApiResponse> =>
  server.request('POST', `/users/${userId}/desktop-purge`, { token, body: {} });

const purgesOf = (s: RecordingSocket) => s.envelopes.filter((e) => e.name === SOCKET_EVENTS.desktopPurge);

async function socketOf(token: string): Promise<RecordingSocket> {
  const s = await connectAs(server.url, token);
  open.push(s);
  return s;
}

describe('POST /users/{id}/desktop-purge', () => {
  it('records desktop:purge for that user only when an admin or a supervisor of the tenant asks, and answers its seq', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    for (const caller of [users.admin, users.super]) {
      const res = await purge(users.user.id, caller.token);
      expect(res.status, caller.profile).toBe(200);
      const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.desktopPurge);
      expect(res.body).toEqual({ purged: true, seq: Number(event?.seq) });
      expect(event?.audience).toEqual({ scope: 'user', userId: users.user.id });
      expect(event?.payload).toEqual({ userId: users.user.id, reason: 'admin' });
    }
  });

  it('lets any user purge their own desktop cache, with or without a body', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const first = await purge(users.user.id, users.user.token);
    expect(first.status).toBe(200);
    expect(first.body.purged).toBe(true);
    const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.desktopPurge);
    expect(event?.audience).toEqual({ scope: 'user', userId: users.user.id });
    expect(event?.payload).toEqual({ userId: users.user.id, reason: 'self' });

    const bodiless = await server.request<DesktopPurgeResponse>('POST', `/users/${users.user.id}/desktop-purge`, {
      token: users.user.token,
    });
    expect(bodiless.status).toBe(200);
    expect(bodiless.body).toEqual({ purged: true, seq: first.body.seq + 1 });
  });

  it('refuses a plain user purging someone else (403 ERR_NO_PERMISSION), recording nothing', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const colleague = await server.createUser(tenant.id, { profile: 'user' });
    const before = await eventCount(server, tenant.id);
    for (const target of [colleague, users.admin]) {
      const res = await purge(target.id, users.user.token);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    }
    expect(await eventCount(server, tenant.id)).toBe(before);
  });

  it("answers another tenant's user and an unknown id 404 ERR_NO_USER_FOUND, recording nothing", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const before = await eventCount(server, a.tenant.id);
    for (const caller of [b.users.admin, b.users.super]) {
      const res = await purge(a.users.user.id, caller.token);
      expect(res.status, caller.profile).toBe(404);
      expect(res.body).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
      expect(JSON.stringify(res.body)).not.toContain(a.users.user.email);
    }
    const missing = await purge(987654321, a.users.admin.token);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ error: 'ERR_NO_USER_FOUND' });
    expect(await eventCount(server, a.tenant.id)).toBe(before);
  });

  it('answers a malformed id 400 naming the param, and no token 401', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const before = await eventCount(server, tenant.id);
    for (const id of ['abc', '0', '2147483648', '1.5']) {
      const res = await purge(id, users.admin.token);
      expect(res.status, id).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields.map((f: { path: string }) => f.path)).toEqual(['id']);
    }
    const anonymous = await purge(users.user.id);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: 'ERR_INVALID_TOKEN' });
    expect(await eventCount(server, tenant.id)).toBe(before);
  });

  it("reaches the user's sockets live, and no other user's", async () => {
    const { users } = await server.createTenantWithUsers();
    const [agent, agentSecondWindow, admin, supervisor] = [
      await socketOf(users.user.token),
      await socketOf(users.user.token),
      await socketOf(users.admin.token),
      await socketOf(users.super.token),
    ];
    const res = await purge(users.user.id, users.admin.token);
    expect(res.status).toBe(200);

    await waitFor(
      () => purgesOf(agent).length === 1 && purgesOf(agentSecondWindow).length === 1,
      'the purge on both of the agent’s sockets',
    );
    expect(purgesOf(agent)[0]).toMatchObject({ seq: res.body.seq, payload: { userId: users.user.id, reason: 'admin' } });
    await sleep(ABSENCE_WAIT_MS);
    expect(purgesOf(admin)).toEqual([]);
    expect(purgesOf(supervisor)).toEqual([]);
    expect(admin.received.map(([name]) => name)).not.toContain(SOCKET_EVENTS.desktopPurge);
  });

  it('is replayed by GET /sync to the user after an earlier seq, and to nobody else', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const sync = async (token: string, since: number) => {
      const res = await server.request<SyncResponse>('GET', `/sync?since=${since}`, { token });
      expect(res.status).toBe(200);
      return res.body;
    };
    // The console went offline at this seq.
    const { lastSeq: offlineAt } = await sync(users.user.token, 0);
    const res = await purge(users.user.id, users.admin.token);
    await server.deps.events.emit(tenant.id, SOCKET_EVENTS.tagUpdate, { action: 'update', tag: { id: 1 } });

    const replay = await sync(users.user.token, offlineAt);
    expect(replay.reload).toBe(false);
    expect(replay.events.map((e) => [e.seq, e.name])).toEqual([
      [res.body.seq, SOCKET_EVENTS.desktopPurge],
      [res.body.seq + 1, SOCKET_EVENTS.tagUpdate],
    ]);
    expect(replay.events[0]).toMatchObject({ tenantId: tenant.id, payload: { userId: users.user.id, reason: 'admin' } });

    for (const other of [users.admin, users.super]) {
      const theirs = await sync(other.token, offlineAt);
      expect(theirs.events.map((e) => e.name)).toEqual([SOCKET_EVENTS.tagUpdate]);
    }
    // Replayed from after the purge, it is not seen again.
    expect((await sync(users.user.token, res.body.seq)).events.map((e) => e.name)).toEqual([SOCKET_EVENTS.tagUpdate]);
  });
});
