import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncResponse } from '@shared/events';
import { startTestServer, type TestServer, type TestUser } from '../../../tests/helpers/test-server';
import { PRUNE_EVENTS_JOB, PRUNE_INTERVAL_MS, pruneEventsBefore } from './event-retention';
import { connectAs, issueToken, waitFor } from './realtime.test-support';

const SYNC_MAX_EVENTS = 5;
let server: TestServer;

beforeAll(async () => {
  // Its own embedded database: retention reads the head of the events by id (ids grow with time in
  // production), and a database shared with the other test files holds their newer events there.
  server = await startTestServer({ SYNC_MAX_EVENTS: String(SYNC_MAX_EVENTS), DATABASE_URL: '' });
});

afterAll(async () => {
  await server?.close();
});

async function tenantWithUsers() {
  const tenant = await server.createTenant();
  const admin = await server.createUser(tenant.id, { profile: 'admin' });
  const agent = await server.createUser(tenant.id, { profile: 'user' });
  const other = await server.createUser(tenant.id, { profile: 'user' });
  return { tenant, admin, agent, other };
}

async function sync(user: TestUser, since: string | number): Promise<SyncResponse> {
  const { token } = await issueToken(server, user);
  const res = await server.request<SyncResponse>('GET', `/sync?since=${since}`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

const emit = (tenantId: number, name: string, payload: unknown, userId?: number) =>
  server.deps.events.emit(tenantId, name, payload, userId === undefined ? { scope: 'tenant' } : { scope: 'user', userId });

describe('GET /sync', () => {
  it('replays exactly the events missed while disconnected, in order, without other users’ events', async () => {
    const { tenant, agent, other } = await tenantWithUsers();
    const { token } = await issueToken(server, agent);
    const socket = await connectAs(server.url, token);
    await emit(tenant.id, 'ticket:create', { id: 1 });
    await waitFor(() => socket.envelopes.length === 1, 'the live event');
    const lastSeen = socket.envelopes[0].seq;
    socket.close();
    await waitFor(() => !socket.socket.connected, 'the disconnect');

    await emit(tenant.id, 'ticket:update', { id: 1, status: 'open' });
    await emit(tenant.id, 'chat:privateMessage', { to: 'other' }, other.id);
    await emit(tenant.id, 'chat:privateMessage', { to: 'agent' }, agent.id);
    await emit(tenant.id, 'appMessage:create', { id: 9 });

    const body = await sync(agent, lastSeen);
    expect(body.reload).toBe(false);
    expect(body.lastSeq).toBe(lastSeen + 4);
    expect(body.events.map((e) => [e.seq, e.name, e.payload])).toEqual([
      [lastSeen + 1, 'ticket:update', { id: 1, status: 'open' }],
      [lastSeen + 3, 'chat:privateMessage', { to: 'agent' }],
      [lastSeen + 4, 'appMessage:create', { id: 9 }],
    ]);
    for (const e of body.events) expect(e.tenantId).toBe(tenant.id);

    // The other user sees their own message and not the agent's.
    const forOther = await sync(other, lastSeen);
    expect(forOther.events.map((e) => e.payload)).toEqual([{ id: 1, status: 'open' }, { to: 'other' }, { id: 9 }]);
  });

  it('answers an up-to-date client with nothing to replay', async () => {
    const { tenant, admin } = await tenantWithUsers();
    expect(await sync(admin, 0)).toEqual({ events: [], lastSeq: 0, reload: false });
    await emit(tenant.id, 'ticket:create', { id: 1 });
    expect(await sync(admin, 1)).toEqual({ events: [], lastSeq: 1, reload: false });
    const fromStart = await sync(admin, 0);
    expect(fromStart.events.map((e) => e.seq)).toEqual([1]);
  });

  it('asks for a reload when more events were missed than SYNC_MAX_EVENTS', async () => {
    const { tenant, admin } = await tenantWithUsers();
    for (let i = 0; i < SYNC_MAX_EVENTS + 1; i++) await emit(tenant.id, 'ticket:update', { i });
    expect(await sync(admin, 0)).toEqual({ events: [], lastSeq: SYNC_MAX_EVENTS + 1, reload: true });
    // Exactly the maximum is still replayed.
    const atLimit = await sync(admin, 1);
    expect(atLimit.reload).toBe(false);
    expect(atLimit.events).toHaveLength(SYNC_MAX_EVENTS);
  });

  it('asks for a reload when `since` is ahead of the tenant’s seq', async () => {
    const { tenant, admin } = await tenantWithUsers();
    await emit(tenant.id, 'ticket:update', {});
    expect(await sync(admin, 2)).toEqual({ events: [], lastSeq: 1, reload: true });
  });

  it('asks for a reload when events after `since` were pruned', async () => {
    const { tenant, admin } = await tenantWithUsers();
    for (let i = 0; i < 4; i++) await emit(tenant.id, 'ticket:update', { i });
    await server.deps.dataSource.query(
      `UPDATE domain_events SET "createdAt" = now() - interval '8 days' WHERE "tenantId" = $1 AND seq <= 2`,
      [tenant.id],
    );
    await pruneEventsBefore(server.deps.dataSource, new Date(Date.now() - 7 * 24 * 3600 * 1000));

    expect(await sync(admin, 0)).toEqual({ events: [], lastSeq: 4, reload: true });
    expect(await sync(admin, 1)).toEqual({ events: [], lastSeq: 4, reload: true });
    expect((await sync(admin, 2)).events.map((e) => e.seq)).toEqual([3, 4]);
  });

  it('never returns another tenant’s events: the tenant comes from the session only', async () => {
    const a = await tenantWithUsers();
    const b = await tenantWithUsers();
    await emit(b.tenant.id, 'ticket:create', { secret: 'b' });
    await emit(a.tenant.id, 'ticket:create', { mine: 'a' });
    await emit(b.tenant.id, 'ticket:create', { secret: 'b2' });

    const body = await sync(a.admin, 0);
    expect(body.events.map((e) => e.payload)).toEqual([{ mine: 'a' }]);
    expect(body.lastSeq).toBe(1);

    // A tenant parameter in the query is not an input of this route.
    const { token } = await issueToken(server, a.admin);
    const res = await server.request<SyncResponse>('GET', `/sync?since=0&tenantId=${b.tenant.id}`, { token });
    expect(res.body.events.map((e) => e.tenantId)).toEqual([a.tenant.id]);
  });

  it('requires a valid access token', async () => {
    const missing = await server.request('GET', '/sync?since=0');
    expect(missing.status).toBe(401);
    expect(missing.body.error).toBe('ERR_INVALID_TOKEN');
    const garbage = await server.request('GET', '/sync?since=0', { token: 'garbage' });
    expect(garbage.status).toBe(401);
  });

  it.each(['abc', '-1', '1.5', '', '1e3', '0x10', '99999999999999999999'])('rejects since=%s naming the field', async (since) => {
    const { admin } = await tenantWithUsers();
    const { token } = await issueToken(server, admin);
    const res = await server.request('GET', `/sync?since=${encodeURIComponent(since)}`, { token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.fields.map((f: { path: string }) => f.path)).toEqual(['since']);
  });

  it('rejects a missing or repeated since', async () => {
    const { admin } = await tenantWithUsers();
    const { token } = await issueToken(server, admin);
    for (const url of ['/sync', '/sync?since=1&since=2']) {
      const res = await server.request('GET', url, { token });
      expect(res.status).toBe(400);
      expect(res.body.fields[0].path).toBe('since');
    }
  });
});

describe('event retention', () => {
  it('prunes only events older than the cutoff', async () => {
    const { tenant } = await tenantWithUsers();
    for (let i = 0; i < 3; i++) await emit(tenant.id, 'ticket:update', { i });
    await server.deps.dataSource.query(
      `UPDATE domain_events SET "createdAt" = now() - interval '8 days' WHERE "tenantId" = $1 AND seq = 1`,
      [tenant.id],
    );
    await pruneEventsBefore(server.deps.dataSource, new Date(Date.now() - 7 * 24 * 3600 * 1000));
    const rows = await server.deps.dataSource.query(`SELECT seq FROM domain_events WHERE "tenantId" = $1 ORDER BY seq`, [tenant.id]);
    expect(rows.map((r: { seq: string }) => Number(r.seq))).toEqual([2, 3]);
  });

  it('is a periodic task registered at server start, with or without Redis', async () => {
    expect(server.deps.periodic.list()).toContainEqual({ name: PRUNE_EVENTS_JOB, intervalMs: PRUNE_INTERVAL_MS });
  });
});
