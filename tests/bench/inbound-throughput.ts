/**
 * Inbound throughput benchmark (issue "Tickets and messages", item 7). Not a test: prints JSON.
 *
 *   npx tsx tests/bench/inbound-throughput.ts [messages] [contacts] [concurrency] [per-webhook]
 *   (defaults 20000 messages over 200 contacts, 50 webhooks in flight, 1 message per webhook)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database and starts the real server in a child process (so the load generator does not share
 * its event loop), with a tenant, an admin and a CONNECTED waba channel. Then it posts signed
 * Cloud API webhooks (one text message each, as Meta sends them) as fast as the server takes
 * them, with a bounded number in flight, and counts each message when the admin's socket
 * receives its appMessage:create. Reports sustained messages/s (first post to last socket
 * event) and webhook-to-socket latency percentiles. REDIS_URL, when set, is passed on (Socket.IO
 * Redis adapter, Bull), as in production. Target: >= 1,000 msg/s, p99 < 250 ms.
 *
 * BENCH_CHATFLOW=1: a three-step chatbot flow is active on the channel, so every new ticket
 * runs it (menu -> question -> protocol, one bot message each; the next answer hands the ticket
 * to a queue, where it waits for an agent, as a real flow ends). With 200 contacts that is 200
 * new tickets, each with 4 messages handled by the bot and 3 bot messages sent.
 * BENCH_CHATFLOW_CYCLE=1 (with BENCH_CHATFLOW=1) is the stress variant: the last answer closes the
 * ticket instead, so the contact's next message opens a new ticket that runs the flow again and
 * every message goes through the bot (3 bot sends per 4 inbound messages).
 * The bot's messages go to a local fake Graph API. Adds the bot's sends and the engine's own
 * time per handled message (step_overhead_ms). tests/bench/inbound-chatflow.ts runs the variants
 * and prints them side by side.
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client } from 'pg';
import { createBenchDatabase, seedBenchTenant, startBenchServer, runBench } from './support/bench-support';
import {
  benchNumbers,
  connectBenchSocket,
  inboundWebhookBody,
  percentileOrNaN as percentile,
  postSignedWebhook,
  runInboundLoad,
} from './support/inbound-load';
import { loginBody } from '../helpers/captcha';

const [MESSAGES, CONTACTS, CONCURRENCY, PER_WEBHOOK] = [
  Number(process.argv[2]) || 20_000,
  Number(process.argv[3]) || 200,
  Number(process.argv[4]) || 50,
  // Messages per webhook: Meta sends one per call in normal traffic and batches under load.
  Number(process.argv[5]) || 1,
];
const PHONE_NUMBER_ID = '109876543210987';
const APP_SECRET = `bench-app-secret-${randomBytes(6).toString('hex')}`;

// ---------- child: the server ----------

async function serve(): Promise<void> {
  const server = await startBenchServer();
  const { chatflowEngineOf } = await import('../../server/src/modules/chatflow/chatflow-wiring');
  const engine = chatflowEngineOf(server.deps);
  engine.recordStats(true);
  process.send!({ url: server.url });
  let profiler: import('node:inspector/promises').Session | null = null;
  const startProfile = async () => {
    const { Session } = await import('node:inspector/promises');
    profiler = new Session();
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.post('Profiler.start');
  };
  // BENCH_LOAD_PROFILE=<file>: a CPU profile of the server over the load (until its stats).
  if (process.env.BENCH_LOAD_PROFILE) await startProfile();
  process.on('message', async (msg: { stop?: boolean; cpu?: boolean; stats?: boolean; resetStats?: boolean }) => {
    if (msg.cpu) process.send!({ cpu: process.cpuUsage() });
    if (msg.stats) {
      // BENCH_QUIET_PROFILE=<file>: a CPU profile of the server over the quiet phase.
      if (profiler) {
        const { profile } = await profiler.post('Profiler.stop');
        const file = process.env.BENCH_LOAD_PROFILE ?? process.env.BENCH_QUIET_PROFILE!;
        await import('node:fs/promises').then((fs) => fs.writeFile(file, JSON.stringify(profile)));
        profiler = null;
      }
      process.send!({ stats: [...engine.stats.samples], phases: engine.stats.phases });
    }
    if (msg.resetStats) {
      engine.recordStats(true);
      if (process.env.BENCH_QUIET_PROFILE && !process.env.BENCH_LOAD_PROFILE) await startProfile();
    }
    if (!msg.stop) return;
    await server.close();
    process.exit(0);
  });
}

// ---------- parent: setup, load, measurement ----------

const round = (n: number) => Math.round(n * 10) / 10;

async function main(): Promise<void> {
  const bench = await createBenchDatabase();
  const dataDir = bench.dataDir;
  const withFlow = process.env.BENCH_CHATFLOW === '1';
  const { FakeGraphApi } = await import('../fakes/graph-api.fake');
  const graph = await new FakeGraphApi({ token: 'EAAG-bench', phoneNumberId: PHONE_NUMBER_ID }).start();

  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    env: { ...process.env, BENCH_DB_URL: bench.url, BENCH_DATA_DIR: dataDir, BENCH_GRAPH_URL: graph.url },
    // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server there.
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: 'inherit',
  });
  const serverUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });

  const db = new Client({ connectionString: bench.url });
  await db.connect();
  try {
    const seeded = await seedBenchTenant(db, { tenantName: 'Bench', phoneNumberId: PHONE_NUMBER_ID, businessAccountId: '209876543210987', appSecret: APP_SECRET });
    const tenant = { id: seeded.tenantId };
    const channel = { id: seeded.channelId };
    const { email, password } = seeded;

    if (withFlow) {
      const step = (id: string, interactions: unknown[], target: unknown) => ({
        id,
        name: id,
        interactions: interactions.map((i, n) => ({ id: `${id}${n}`, ...(i as object) })),
        conditions: [{ id: `${id}c`, type: 'any', target }],
      });
      const cycle = process.env.BENCH_CHATFLOW_CYCLE === '1';
      const [queue] = (await db.query(`INSERT INTO queues ("tenantId", name, color) VALUES ($1, 'Atendimento', '#2965CC') RETURNING id`, [tenant.id]))
        .rows;
      const flow = {
        version: 1,
        startStepId: 'menu',
        // Three steps, one bot message each; the last answer hands the ticket to the queue (or,
        // in the stress variant, closes it).
        settings: { closeService: true },
        steps: [
          step('menu', [{ type: 'flowBuilder', text: 'Como podemos ajudar?', options: ['Pedidos', 'Financeiro'] }], { type: 'step', stepId: 'pedido' }),
          step('pedido', [{ type: 'message', text: 'Informe o número do pedido, {{firstName}}.' }], { type: 'step', stepId: 'fim' }),
          step(
            'fim',
            [{ type: 'message', text: 'Recebido, protocolo {{protocol}}. Algo mais?' }],
            cycle ? { type: 'close' } : { type: 'queue', queueId: queue.id },
          ),
        ],
      };
      const [row] = (
        await db.query(`INSERT INTO chat_flows ("tenantId", name, active, flow) VALUES ($1, 'Bench', true, $2) RETURNING id`, [
          tenant.id,
          JSON.stringify(flow),
        ])
      ).rows;
      await db.query(`UPDATE channels SET "chatFlowId" = $2 WHERE id = $1`, [channel.id, row.id]);
    }

    const login = await fetch(`${serverUrl}/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await loginBody(serverUrl, { email, password })),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { token } = (await login.json()) as { token: string };

    const socket = await connectBenchSocket(serverUrl, token);

    const serverCpu = () =>
      new Promise<NodeJS.CpuUsage>((resolve) => {
        child.once('message', (m: { cpu: NodeJS.CpuUsage }) => resolve(m.cpu));
        child.send({ cpu: true });
      });
    const cpuBefore = await serverCpu();
    const ownCpuBefore = process.cpuUsage();
    const url = `${serverUrl}/webhooks/waba/${channel.id}`;
    const load = await runInboundLoad({
      socket,
      tenantId: tenant.id,
      url,
      appSecret: APP_SECRET,
      phoneNumberId: PHONE_NUMBER_ID,
      messages: MESSAGES,
      contacts: benchNumbers(CONTACTS),
      concurrency: CONCURRENCY,
      perWebhook: PER_WEBHOOK,
    });
    const cpuAfter = await serverCpu();
    let phases: [number, number, number][] = [];
    let inOrder: number[] = [];
    const stats = () =>
      new Promise<number[]>((resolve) => {
        child.once('message', (m: { stats: number[]; phases: [number, number, number][] }) => {
          phases = m.phases;
          inOrder = [...m.stats];
          resolve(m.stats.sort((a, b) => a - b));
        });
        child.send({ stats: true });
      });
    const stepSamples = await stats();

    // The step's own overhead without queueing behind the load: after the run, messages one at a
    // time (each flow step once per contact), each after the previous one's bot work is done.
    let quietSamples: number[] = [];
    if (withFlow) {
      // The load's bot messages are still being delivered for a few seconds after it (measured:
      // ~100 sends/s for 3-5 s): start once none is pending, so these steps do not share the
      // machine with that backlog.
      const drainDeadline = Date.now() + 60_000;
      while (Date.now() < drainDeadline) {
        const { rows } = await db.query(`SELECT count(*)::int AS n FROM messages WHERE "tenantId" = $1 AND status = 'pending'`, [tenant.id]);
        if (rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      await new Promise((r) => setTimeout(r, 1000));
      child.send({ resetStats: true });
      if (process.env.BENCH_PHASE_TIMES) console.error(`quiet phase from ${new Date().toISOString()}`);
      const quietContacts = Array.from({ length: 30 }, (_, i) => `55219${String(20_000_000 + i * 41).padStart(8, '0')}`);
      for (let round = 0; round < 3; round++) {
        for (const from of quietContacts) {
          const wamid = `wamid.QUIET${round}.${from}.${randomBytes(3).toString('hex')}`;
          const body = inboundWebhookBody(PHONE_NUMBER_ID, [{ from, wamid, body: round === 0 ? 'oi' : '1' }]);
          const seen = new Promise<void>((resolve) => {
            const on = (payload: { message: { messageId: string } }) => {
              if (payload.message.messageId !== wamid) return;
              socket.off(`${tenant.id}:appMessage:create`, on);
              resolve();
            };
            socket.on(`${tenant.id}:appMessage:create`, on);
          });
          await postSignedWebhook(url, body, APP_SECRET);
          await Promise.race([seen, new Promise((r) => setTimeout(r, 5000))]);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      quietSamples = await stats();
      if (process.env.BENCH_PHASE_TIMES) console.error(`quiet phase to ${new Date().toISOString()}`);
    }
    socket.disconnect();
    const ownCpu = process.cpuUsage(ownCpuBefore);
    const cpuMs = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user + b.system - a.user - a.system) / 1000;

    const [counts] = (
      await db.query(
        `SELECT (SELECT count(*)::int FROM messages WHERE "tenantId" = $1) AS messages,
                (SELECT count(*)::int FROM contacts WHERE "tenantId" = $1) AS contacts,
                (SELECT count(*)::int FROM tickets WHERE "tenantId" = $1) AS tickets,
                (SELECT count(*)::int FROM messages WHERE "tenantId" = $1 AND "dataJson"->>'origin' = 'chatbot') AS bot_messages,
                (SELECT json_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM messages
                  WHERE "tenantId" = $1 AND "dataJson"->>'origin' = 'chatbot' GROUP BY status) s) AS bot_by_status,
                (SELECT min("lastError") FROM messages WHERE "tenantId" = $1 AND "dataJson"->>'origin' = 'chatbot' AND "lastError" IS NOT NULL) AS bot_error`,
        [tenant.id],
      )
    ).rows;
    console.log(
      JSON.stringify({
        messages: MESSAGES,
        contacts: CONTACTS,
        concurrency: CONCURRENCY,
        per_webhook: PER_WEBHOOK,
        seconds: load.seconds,
        messages_per_s: load.messages_per_s,
        socket_received: load.socket_received,
        webhook_errors: load.webhook_errors,
        ...(load.first_error ? { first_error: load.first_error } : {}),
        latency_ms: load.latency_ms,
        webhook_ms: load.webhook_ms,
        stored: counts,
        // CPU time per message, whatever else runs on the machine: the server process, and this load generator.
        server_cpu_ms_per_message: Number((cpuMs(cpuBefore, cpuAfter) / MESSAGES).toFixed(2)),
        client_cpu_ms_per_message: Number((cpuMs({ user: 0, system: 0 }, ownCpu) / MESSAGES).toFixed(2)),
        load_average: os.loadavg().map(round),
        redis: Boolean(process.env.REDIS_URL),
        chatflow: withFlow,
        chatflow_variant: withFlow ? (process.env.BENCH_CHATFLOW_CYCLE === '1' ? 'every message through the bot (closes, reopens)' : 'every new ticket (then a queue)') : null,
        // The engine's time per message it handled (read, decide, write; not the sends): under the
        // load (queueing for connections and locks included), and one message at a time after it.
        step_overhead_ms: {
          handled: stepSamples.length,
          p50: Number(percentile(stepSamples, 50).toFixed(2)),
          p95: Number(percentile(stepSamples, 95).toFixed(2)),
          p99: Number(percentile(stepSamples, 99).toFixed(2)),
        },
        step_overhead_quiet_ms: {
          // p50 of each phase of the last measured set: read (facts, flow), decide, write (one transaction).
          phases_p50: [0, 1, 2].map((k) => Number(percentile(phases.map((p) => p[k]).sort((a, b) => a - b), 50).toFixed(2))),
          handled: quietSamples.length,
          p50: Number(percentile(quietSamples, 50).toFixed(2)),
          p95: Number(percentile(quietSamples, 95).toFixed(2)),
          p99: Number(percentile(quietSamples, 99).toFixed(2)),
          // The five slowest steps: total and read / decide / write, to see what the tail is made of.
          slowest: inOrder
            .map((ms, i) => ({ ms: Number(ms.toFixed(2)), phases: (phases[i] ?? []).map((p) => Number(p.toFixed(2))) }))
            .sort((a, b) => b.ms - a.ms)
            .slice(0, 5),
          // Per round of the quiet phase (each contact once per round): the flow's start, its
          // first answer, its last answer (the routing to a queue).
          by_round: [0, 1, 2].map((round) => {
            const part = inOrder.slice(round * 30, round * 30 + 30).sort((a, b) => a - b);
            return { p50: Number(percentile(part, 50).toFixed(2)), p95: Number(percentile(part, 95).toFixed(2)) };
          }),
        },
      }),
    );
  } finally {
    await db.end();
    child.send({ stop: true });
    await new Promise((r) => child.once('exit', r));
    await graph.stop();
    await bench.drop();
  }
}

runBench(main, serve);
