import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../tests/helpers/test-server';
import { createLogger } from '../core/logger';
import { waitFor } from '../realtime/realtime.test-support';
import { LATE_FACTOR, LATE_GRACE_MS, PeriodicScheduler } from './periodic';

let server: TestServer;
const logger = createLogger('silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const scope = () => `periodic-test-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Two "processes": schedulers of the same scope on the same database. */
function pair(name = scope()) {
  const a = new PeriodicScheduler({ dataSource: server.deps.dataSource, logger }, name);
  const b = new PeriodicScheduler({ dataSource: server.deps.dataSource, logger }, name);
  return [a, b] as const;
}

describe('periodic tasks', () => {
  it('run about once per interval across processes, never two at a time', async () => {
    const [a, b] = pair();
    let runs = 0;
    let inFlight = 0;
    let overlap = 0;
    const task = (who: string) => ({
      name: 'sweep',
      intervalMs: 400,
      run: async () => {
        inFlight++;
        if (inFlight > 1) overlap++;
        runs++;
        await sleep(50);
        inFlight--;
        void who;
      },
    });
    a.register(task('a'));
    b.register(task('b'));
    a.start();
    b.start();
    await sleep(2600);
    await Promise.all([a.stop(), b.stop()]);
    // About one run per 400-450 ms between them (5-6 in 2.6 s, fewer on a loaded machine); two
    // processes each running its own timer would give about 12.
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(runs).toBeLessThanOrEqual(8);
    expect(overlap).toBe(0);
  });

  it('records the last run and its error, and status says when a task is late', async () => {
    const [a] = pair();
    let fail = true;
    a.register({
      name: 'flaky',
      intervalMs: 60_000,
      runAtStart: false,
      run: async () => {
        if (fail) throw new Error('provider down');
      },
    });
    await a.runNow('flaky');
    let [s] = await a.status();
    expect(s).toMatchObject({ name: 'flaky', intervalMs: 60_000, lastError: 'provider down', late: false });
    expect(s.lastFinishedAt).not.toBeNull();
    fail = false;
    await a.runNow('flaky');
    [s] = await a.status();
    expect(s.lastError).toBeNull();
    const later = new Date(Date.parse(s.lastFinishedAt!) + 60_000 * LATE_FACTOR + LATE_GRACE_MS + 1000);
    expect((await a.status(later))[0].late).toBe(true);
    await a.stop();
  });

  it('a live lease held by a dead process blocks others until it expires', async () => {
    const leasedScope = scope();
    const [a, b] = pair(leasedScope);
    let runsA = 0;
    let runsB = 0;
    a.register({ name: 'leased', intervalMs: 60_000, runAtStart: false, run: async () => void runsA++ });
    b.register({ name: 'leased', intervalMs: 60_000, runAtStart: false, run: async () => void runsB++ });
    await a.runNow('leased');
    expect(runsA).toBe(1);
    // Process "a" claims again and dies before finishing: its lease stays in the row.
    const row = { scope: leasedScope };
    await server.deps.dataSource.query(
      `UPDATE periodic_runs SET "leaseUntil" = now() + interval '1 minute', "leaseOwner" = 'dead' WHERE scope = $1 AND name = 'leased'`,
      [row.scope],
    );
    await b.runNow('leased');
    expect(runsB).toBe(0);
    await server.deps.dataSource.query(`UPDATE periodic_runs SET "leaseUntil" = now() - interval '1 second' WHERE scope = $1 AND name = 'leased'`, [
      row.scope,
    ]);
    await b.runNow('leased');
    expect(runsB).toBe(1);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('the server registers its sweeps as periodic tasks and runs them from start (no Redis involved)', async () => {
    const names = server.deps.periodic.list().map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'messages.outbound-sweep',
        'messages.birthdays',
        'tickets.close-due',
        'tickets.auto-close',
        'contacts.import.sweep',
        'domain-events.prune',
      ]),
    );
    await waitFor(async () => {
      const status = await server.deps.periodic.status();
      return status.find((s) => s.name === 'messages.outbound-sweep')?.lastFinishedAt != null;
    }, 'the first outbound sweep');
  });
});
