import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UNCONFIRMED_SEND_MESSAGE, type MessageDto } from '@shared/schemas/messages';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { freePort } from '../../../../tests/helpers/free-port';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { createMessagingTenant, isolatedDatabase, messageRow, sentTo, waitFor, type IsolatedDatabase } from './messages.test-support';
import { OUTBOUND_SWEEP_JOB } from './outbound-delivery';

/**
 * Fault suite, short profile (issue #12): a server process is killed (SIGKILL) while its
 * provider call is in flight. The message may or may not have reached the customer, so it is not
 * resent blindly once the lease is over: another process fails it as unconfirmed, and the
 * agent's retry sends it again. Needs a PostgreSQL server both processes share.
 */
const sharedDatabase = Boolean(inject('testDatabaseUrl'));

describe.skipIf(!sharedDatabase)(
  sharedDatabase ? 'a worker killed in the middle of a send' : 'a worker killed in the middle of a send (skipped: needs DATABASE_URL, a PostgreSQL two processes share)',
  () => {
    let graph: FakeGraphApi;
    let db: IsolatedDatabase;
    let server: TestServer;
    let child: ChildProcess | undefined;
    let childUrl: string;

    beforeAll(async () => {
      graph = await new FakeGraphApi().start();
      db = await isolatedDatabase();
      // The surviving process; its own sweeps stay off until the test runs one.
      server = await startTestServer({ WABA_GRAPH_BASE_URL: graph.url, DATABASE_URL: db.url! });
      await server.deps.periodic.stop();
      const port = await freePort();
      childUrl = `http://127.0.0.1:${port}`;
      child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: 'test',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atende-crash-')),
          DATABASE_URL: db.url,
          REDIS_URL: '',
          LOG_LEVEL: 'silent',
          JWT_SECRET: 'test-secret-0123456789abcdef',
          JWT_REFRESH_SECRET: 'test-refresh-secret-0123456789',
          SEED_PASSWORD: 'Crash-seed-pass1!',
          WEB_DIST: path.join(tmpdir(), 'atende-no-web'),
          WABA_GRAPH_BASE_URL: graph.url,
        },
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4000);
      });
      // Loading the server's modules takes a while on a busy 2-core machine.
      await waitFor(
        async () => {
          if (child!.exitCode !== null) throw new Error(`the worker process exited (${child!.exitCode}): ${stderr}`);
          return (await fetch(`${childUrl}/health`).catch(() => undefined))?.ok === true;
        },
        'the worker process to start',
        150_000,
      ).catch((err) => {
        throw new Error(`${(err as Error).message}\n${stderr}`);
      });
    }, 240_000);
    afterAll(async () => {
      child?.kill('SIGKILL');
      await server?.close();
      await db?.drop();
      await graph?.stop();
    });

    it('fails the send as unconfirmed instead of resending it, and the agent’s retry sends it once more', async () => {
      const t = await createMessagingTenant(server, graph);
      let callStarted = false;
      // The provider takes the message and never answers: the worker dies during the call.
      graph.beforeSendAnswer = async () => {
        callStarted = true;
        await new Promise(() => undefined);
      };
      const res = await fetch(`${childUrl}/messages/${t.ticketId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t.users.user.token}` },
        body: JSON.stringify({ body: 'enviada durante a queda' }),
      });
      expect(res.status).toBe(201);
      const id = ((await res.json()) as { messages: MessageDto[] }).messages[0].id;
      await waitFor(() => callStarted, 'the provider call');
      await new Promise<void>((resolve) => {
        child!.once('exit', () => resolve());
        child!.kill('SIGKILL');
      });
      graph.beforeSendAnswer = undefined;
      const left = await messageRow(server, id);
      expect(left.status).toBe('pending');
      expect(left.sendClaimedAt).not.toBeNull();

      // Not resent while the dead worker's lease runs, even by a sweep.
      await server.deps.periodic.runNow(OUTBOUND_SWEEP_JOB);
      expect((await messageRow(server, id)).status).toBe('pending');
      // The lease is over (2 minutes; moved here instead of waited for).
      await server.deps.dataSource.query(`UPDATE messages SET "nextRetryAt" = now() - interval '1 second' WHERE id = $1`, [id]);
      await server.deps.periodic.runNow(OUTBOUND_SWEEP_JOB);
      const failed = await messageRow(server, id);
      expect(failed).toMatchObject({ status: 'failed', unconfirmed: true, lastError: UNCONFIRMED_SEND_MESSAGE, sendClaimedAt: null });
      expect(sentTo(graph, t.contact.number)).toHaveLength(1);
      const page = await server.request<{ messages: MessageDto[] }>('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
      expect(page.body.messages.find((m) => m.id === id)?.flags).toMatchObject({ undelivered: true, unconfirmed: true });

      // The agent decides: resend.
      const retried = await server.request('POST', `/messages/${id}/retry`, { token: t.users.user.token });
      expect(retried.status).toBe(200);
      await waitFor(async () => (await messageRow(server, id)).status === 'sent', 'the resend');
      expect(sentTo(graph, t.contact.number)).toHaveLength(2);
      expect((await messageRow(server, id)).unconfirmed).toBe(false);
    }, 90_000);
  },
);
