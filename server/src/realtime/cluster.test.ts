import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { ABSENCE_WAIT_MS, connectAs, issueToken, sleep, waitFor } from './realtime.test-support';

/**
 * Several server processes behind one load balancer (LESSONS 10): they share PostgreSQL and
 * Redis, and an event committed on one reaches sockets held by another through the Socket.IO
 * Redis adapter. Servers of another deployment (another key prefix) on the same Redis never
 * receive it.
 */
const missing = ['DATABASE_URL', 'REDIS_URL'].filter((v) => !process.env[v]);
const title = missing.length
  ? `realtime across servers (skipped: needs ${missing.join(' and ')} so that servers share a database and a Redis)`
  : 'realtime across servers';

describe.skipIf(missing.length > 0)(title, () => {
  const prefix = `test-cluster-${randomBytes(5).toString('hex')}`;
  let first: TestServer;
  let second: TestServer;
  let foreign: TestServer;

  beforeAll(async () => {
    first = await startTestServer({}, { redisPrefix: prefix });
    second = await startTestServer({}, { redisPrefix: prefix });
    foreign = await startTestServer({}, { redisPrefix: `${prefix}-other` });
  });

  afterAll(async () => {
    await Promise.all([first?.close(), second?.close(), foreign?.close()]);
  });

  it('delivers an event published on one server to a socket connected to another, not to another deployment', async () => {
    const tenant = await first.createTenant();
    const agent = await first.createUser(tenant.id, { profile: 'user' });
    const onSecond = await connectAs(second.url, (await issueToken(second, agent)).token);
    const onForeign = await connectAs(foreign.url, (await issueToken(foreign, agent)).token);
    try {
      await first.deps.events.emit(tenant.id, 'ticket:create', { id: 1 });
      await waitFor(() => onSecond.envelopes.length === 1, 'the event on the second server');
      expect(onSecond.envelopes[0]).toMatchObject({ tenantId: tenant.id, seq: 1, name: 'ticket:create', payload: { id: 1 } });

      await first.deps.events.emit(tenant.id, 'chat:privateMessage', { text: 'oi' }, { scope: 'user', userId: agent.id });
      await waitFor(() => onSecond.envelopes.length === 2, 'the user event on the second server');
      expect(onSecond.envelopes[1].seq).toBe(2);

      await sleep(ABSENCE_WAIT_MS);
      expect(onForeign.received).toEqual([]);
    } finally {
      onSecond.close();
      onForeign.close();
    }
  });
});
