/**
 * Internal chat benchmark (issue #18, "Performance"). Not a test: prints JSON.
 *
 *   npx tsx tests/bench/internal-chat.ts [seconds] [rate] [users]    (defaults 20 s, 50 messages/s, 200 users)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database and starts the real server in a child process (the load generator and the 200 client
 * sockets do not share its event loop), as production runs it (REDIS_URL passed on when set).
 *
 * (a) Delivery: `users` users of one tenant, each connected by socket.io-client (websocket), and
 *     10 team rooms of 20 members. For `seconds` seconds, `rate` messages a second (open loop: sent on
 *     a fixed schedule whatever the answers) go through POST /chat-interno/mensagens from a random
 *     user, 80% to a random colleague and 20% to one of the sender's rooms. Latency = from the
 *     request's start to the `chat:privateMessage` envelope on each RECEIVER's socket (every other
 *     member for a room). Reports p50/p95/p99 (target p99 < 200 ms), lost deliveries, deliveries
 *     to sockets that were not recipients (must be 0), the server's CPU time per message and the
 *     machine's load average.
 * (b) Paging: one one-to-one conversation of 100,000 messages and one team room of 100,000,
 *     interleaved with 200,000 messages of other conversations (as real traffic interleaves ids).
 *     GET /chat-interno/mensagens/{id}?kind= at the newest page, the middle (50,000 back) and the
 *     oldest page, `PAGE_REQUESTS` times each after a warm-up: p50/p95/p99 (target p95 < 20 ms),
 *     the server CPU per page and the page query's plan. An authenticated cheap route (GET /queue)
 *     is measured the same way as the floor under these numbers.
 * (c) The conversation list and unread count of a user with 199 colleagues and 10 rooms.
 * BENCH_CHAT_DELIVERY_ONLY=1 runs (a) alone.
 */
import 'reflect-metadata';
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from 'pg';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { createBenchDatabase, latencyStats, startBenchServer, runBench } from './support/bench-support';

const SECONDS = Number(process.argv[2]) || 20;
const RATE = Number(process.argv[3]) || 50;
const USERS = Number(process.argv[4]) || 200;
const TEAMS = 10;
const TEAM_SIZE = 20;
const TEAM_SHARE = 0.2;
const CONVERSATION_MESSAGES = 100_000;
const OTHER_MESSAGES = 200_000;
const PAGE_REQUESTS = 300;
const WARMUP = 30;
const JWT_SECRET = 'bench-secret-0123456789abcdef';

// ---------- child: the server ----------

async function serve(): Promise<void> {
  const server = await startBenchServer();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  process.send!({ url: server.url });
  process.on('message', async (msg: { stop?: boolean; cpu?: boolean; lag?: boolean }) => {
    if (msg.cpu) process.send!({ cpu: process.cpuUsage() });
    if (msg.lag) {
      process.send!({ lag: eventLoopLag(lag) });
      lag.reset();
    }
    if (!msg.stop) return;
    await server.close();
    process.exit(0);
  });
}

/** A process's event-loop delay (ms): how late its callbacks ran, i.e. how busy or starved of CPU it was. */
function eventLoopLag(h: ReturnType<typeof monitorEventLoopDelay>) {
  return { p50_ms: round(h.percentile(50) / 1e6), p99_ms: round(h.percentile(99) / 1e6), max_ms: round(h.max / 1e6) };
}

function serverLag(child: ChildProcess): Promise<ReturnType<typeof eventLoopLag>> {
  return new Promise((resolve) => {
    child.once('message', (m: { lag: ReturnType<typeof eventLoopLag> }) => resolve(m.lag));
    child.send({ lag: true });
  });
}

// ---------- parent ----------

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
const load = () => os.loadavg().map((n) => round(n));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function serverCpu(child: ChildProcess): Promise<NodeJS.CpuUsage> {
  return new Promise((resolve) => {
    child.once('message', (m: { cpu: NodeJS.CpuUsage }) => resolve(m.cpu));
    child.send({ cpu: true });
  });
}
const cpuMs = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user + b.system - a.user - a.system) / 1000;

async function main(): Promise<void> {
  const bench = await createBenchDatabase('atende_bench_chat');
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    env: { ...process.env, BENCH_DB_URL: bench.url, BENCH_DATA_DIR: bench.dataDir, BENCH_GRAPH_URL: 'http://127.0.0.1:9' },
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const serverUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const db = new Client({ connectionString: bench.url });
  await db.connect();
  const sockets: Socket[] = [];
  try {
    const { signAccessToken } = await import('../../server/src/modules/auth/tokens');
    // ---- setup: a tenant, its users with sessions (tokens minted as a login would), rooms ----
    const [tenant] = (
      await db.query(`INSERT INTO tenants (name, "maxUsers") VALUES ('Bench chat', $1) RETURNING id`, [USERS + 10])
    ).rows;
    const users: { id: number; token: string; teams: number[] }[] = (
      await db.query(
        `INSERT INTO users ("tenantId", name, email, "passwordHash", profile)
         SELECT $1, 'Pessoa ' || g, 'chat-bench-' || g || '@example.com', 'x', CASE WHEN g = 1 THEN 'admin' ELSE 'user' END
           FROM generate_series(1, $2) g RETURNING id`,
        [tenant.id, USERS],
      )
    ).rows.map((r: { id: number }) => ({ id: r.id, token: '', teams: [] }));
    await db.query(`INSERT INTO user_tenants ("userId", "tenantId") SELECT id, $1 FROM users WHERE "tenantId" = $1`, [tenant.id]);
    for (const u of users) {
      const sid = randomUUID();
      await db.query(
        `INSERT INTO auth_sessions (id, "tenantId", "userId", "expiresAt") VALUES ($1, $2, $3, now() + interval '1 day')`,
        [sid, tenant.id, u.id],
      );
      u.token = signAccessToken(JWT_SECRET, { sub: String(u.id), tid: tenant.id, sid, profile: 'user' }, 3600);
    }
    const teams: { id: number; members: number[] }[] = [];
    for (let t = 0; t < TEAMS; t++) {
      const [team] = (
        await db.query(`INSERT INTO teams ("tenantId", name) VALUES ($1, $2) RETURNING id`, [tenant.id, `Sala ${t + 1}`])
      ).rows;
      const members = Array.from({ length: TEAM_SIZE }, (_, i) => users[(t * TEAM_SIZE + i) % users.length]);
      await db.query(`INSERT INTO team_users ("teamId", "userId", "tenantId") SELECT $1, u, $2 FROM unnest($3::int[]) u`, [
        team.id,
        tenant.id,
        members.map((m) => m.id),
      ]);
      for (const m of members) m.teams.push(team.id);
      teams.push({ id: team.id, members: members.map((m) => m.id) });
    }
    const teamMembers = new Map(teams.map((t) => [t.id, new Set(t.members)]));

    // ---- (a) delivery ----
    const sentAt = new Map<string, number>();
    let runStarted = 0;
    const expected = new Map<string, Set<number>>();
    const latencies: { user: number[]; team: number[] } = { user: [], team: [] };
    let strayDeliveries = 0;
    let duplicateDeliveries = 0;
    for (const u of users) {
      const socket = connectSocket(serverUrl, {
        auth: { token: u.token },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      socket.on(
        'event',
        (envelope: { name: string; payload: { message: { clientId: string; kind: 'user' | 'team'; fromUserId: number } } }) => {
          if (envelope.name !== 'chat:privateMessage') return;
          const now = performance.now();
          const { clientId, kind, fromUserId } = envelope.payload.message;
          if (fromUserId === u.id) return; // the author's own tabs: not a delivery
          if (clientId.startsWith('warmup-')) return;
          const waiting = expected.get(clientId);
          if (!waiting) {
            strayDeliveries++;
            return;
          }
          if (!waiting.delete(u.id)) {
            duplicateDeliveries++;
            return;
          }
          const sent = sentAt.get(clientId)!;
          latencies[kind].push(now - sent);
          const second = Math.floor((sent - runStarted) / 1000);
          worstPerSecond[second] = Math.max(worstPerSecond[second] ?? 0, round(now - sent, 0));
        },
      );
      sockets.push(socket);
    }
    await sleep(1000);

    /** One message from a random user to a random colleague or one of their rooms; answers its clientId and recipients. */
    const pick = (i: number, prefix: string) => {
      const from = users[Math.floor(Math.random() * users.length)];
      const toTeam = from.teams.length > 0 && Math.random() < TEAM_SHARE;
      const clientId = `${prefix}-${i}`;
      if (toTeam) {
        const teamId = from.teams[Math.floor(Math.random() * from.teams.length)];
        return {
          from,
          clientId,
          body: { kind: 'team', id: teamId },
          recipients: [...teamMembers.get(teamId)!].filter((id) => id !== from.id),
        };
      }
      let to = from;
      while (to === from) to = users[Math.floor(Math.random() * users.length)];
      return { from, clientId, body: { kind: 'user', id: to.id }, recipients: [to.id] };
    };
    const post = (from: { token: string }, body: Record<string, unknown>) =>
      fetch(`${serverUrl}/chat-interno/mensagens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${from.token}` },
        body: JSON.stringify(body),
      });
    // Warm-up, not measured: a running server has its pool connections open and its statements
    // planned; the first second of a cold one is spent opening them.
    const warmup: Promise<unknown>[] = [];
    for (let i = 0; i < RATE * 2; i++) {
      const w = pick(i, 'warmup');
      warmup.push(post(w.from, { ...w.body, body: 'aquecendo', clientId: w.clientId }).then((r) => r.arrayBuffer()));
      await sleep(1000 / RATE);
    }
    await Promise.all(warmup);
    // The server's periodic sweeps all run in its first seconds: start the measured phases after them.
    await sleep(Number(process.env.BENCH_CHAT_SETTLE_MS ?? 5000));

    // The floor under the numbers below on this machine now: the same open-loop rate of a trivial
    // authenticated route (GET /queue: the session check and one small read), for half the time.
    const floorSamples: number[] = [];
    const floorLoad = load();
    const floorStarted = performance.now();
    const floorRequests: Promise<void>[] = [];
    for (let i = 0; i < (SECONDS * RATE) / 2; i++) {
      const wait = floorStarted + i * (1000 / RATE) - performance.now();
      if (wait > 1) await sleep(wait);
      const u = users[Math.floor(Math.random() * users.length)];
      const t0 = performance.now();
      floorRequests.push(
        fetch(`${serverUrl}/queue`, { headers: { authorization: `Bearer ${u.token}` } })
          .then((r) => r.arrayBuffer())
          .then(() => void floorSamples.push(performance.now() - t0)),
      );
    }
    await Promise.all(floorRequests);
    const floor = {
      path: 'GET /queue',
      rate: RATE,
      ...latencyStats(floorSamples),
      loadavgBefore: floorLoad,
      loadavgAfter: load(),
    };
    await sleep(1000);

    let refused = 0;
    const sendLatencies: number[] = [];
    /** Worst delivery latency per second of the run, to tell a steady cost from stalls. */
    const worstPerSecond: number[] = [];
    const inFlight: Promise<void>[] = [];
    const total = SECONDS * RATE;
    const interval = 1000 / RATE;
    const cpuBefore = await serverCpu(child);
    const ownCpuBefore = process.cpuUsage();
    await serverLag(child);
    const ownLag = monitorEventLoopDelay({ resolution: 10 });
    ownLag.enable();
    const loadBefore = load();
    const started = performance.now();
    runStarted = started;
    for (let i = 0; i < total; i++) {
      const due = started + i * interval;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      const { from, clientId, body, recipients } = pick(i, 'bench');
      expected.set(clientId, new Set(recipients));
      const t0 = performance.now();
      sentAt.set(clientId, t0);
      inFlight.push(
        post(from, { ...body, body: `mensagem ${i} do benchmark`, clientId }).then(async (res) => {
          if (res.status !== 201) {
            refused++;
            if (refused <= 3) console.error(`send refused: ${res.status} ${await res.text()}`);
          } else await res.arrayBuffer();
          sendLatencies.push(performance.now() - t0);
        }),
      );
    }
    const sendSeconds = (performance.now() - started) / 1000;
    await Promise.all(inFlight);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && [...expected.values()].some((s) => s.size > 0)) await sleep(50);
    const cpuAfter = await serverCpu(child);
    const ownCpuMs = cpuMs(ownCpuBefore, process.cpuUsage());
    const serverLoopLag = await serverLag(child);
    ownLag.disable();
    const loadAfter = load();
    const lost = [...expected.values()].reduce((n, s) => n + s.size, 0);
    const all = [...latencies.user, ...latencies.team];
    const serverCpuMs = cpuMs(cpuBefore, cpuAfter);
    const delivery = {
      users: USERS,
      teams: `${TEAMS} of ${TEAM_SIZE}`,
      messages: total,
      targetRate: RATE,
      achievedRate: round(total / sendSeconds, 1),
      refusedSends: refused,
      deliveries: all.length,
      lostDeliveries: lost,
      strayDeliveries,
      duplicateDeliveries,
      latencyAll: latencyStats(all),
      latencyOneToOne: latencyStats(latencies.user),
      latencyTeam: latencyStats(latencies.team),
      sendRequestLatency: latencyStats(sendLatencies),
      floorSameRateTrivialRoute: floor,
      worstDeliveryMsPerSecond: worstPerSecond,
      serverCpuMsPerMessage: round(serverCpuMs / total),
      serverCpuShareOfOneCore: round(serverCpuMs / (sendSeconds * 1000)),
      serverEventLoopLag: serverLoopLag,
      loadGeneratorCpuShareOfOneCore: round(ownCpuMs / (sendSeconds * 1000)),
      loadGeneratorEventLoopLag: eventLoopLag(ownLag),
      loadavgBefore: loadBefore,
      loadavgAfter: loadAfter,
      target: 'p99 < 200 ms',
    };
    for (const s of sockets) s.disconnect();
    sockets.length = 0;
    // The server marks the users offline as their sockets leave: let it finish before going on.
    await sleep(2000);

    if (process.env.BENCH_CHAT_DELIVERY_ONLY === '1') {
      console.log(
        JSON.stringify(
          { machine: { cpus: os.cpus().length, loadavg: load() }, redis: Boolean(process.env.REDIS_URL), delivery },
          null,
          2,
        ),
      );
      return;
    }

    // ---- (b) paging at depth ----
    const [a, b] = [users[1], users[2]];
    const pairTeam = teams[0];
    const fillStarted = performance.now();
    const totalRows = CONVERSATION_MESSAGES * 2 + OTHER_MESSAGES;
    const CHUNK = 50_000;
    // Row g: every 4th is the pair's, every 4th (offset 1) the room's, the rest other pairs of the tenant.
    for (let from = 1; from <= totalRows; from += CHUNK) {
      await db.query(
        `INSERT INTO chat_messages ("tenantId", kind, "toId", "userLow", "userHigh", "fromUserId", body, "createdAt")
         SELECT $1,
                CASE WHEN g % 4 = 1 THEN 'team' ELSE 'user' END,
                CASE WHEN g % 4 = 0 THEN (CASE WHEN g % 8 = 0 THEN $3::int ELSE $2::int END)
                     WHEN g % 4 = 1 THEN $4::int
                     ELSE ($5::int[])[1 + g % array_length($5::int[], 1)] END,
                CASE WHEN g % 4 = 0 THEN LEAST($2::int, $3::int) WHEN g % 4 = 1 THEN NULL
                     ELSE LEAST($6::int, ($5::int[])[1 + g % array_length($5::int[], 1)]) END,
                CASE WHEN g % 4 = 0 THEN GREATEST($2::int, $3::int) WHEN g % 4 = 1 THEN NULL
                     ELSE GREATEST($6::int, ($5::int[])[1 + g % array_length($5::int[], 1)]) END,
                CASE WHEN g % 4 = 0 THEN (CASE WHEN g % 8 = 0 THEN $2::int ELSE $3::int END)
                     WHEN g % 4 = 1 THEN ($7::int[])[1 + g % array_length($7::int[], 1)]
                     ELSE $6::int END,
                'mensagem antiga ' || g || ' sobre o pedido ' || (g % 977),
                timestamptz '2025-01-01' + g * interval '1 second'
           FROM generate_series($8::int, LEAST($8::int + ${CHUNK - 1}, ${totalRows})) g`,
        [tenant.id, a.id, b.id, pairTeam.id, users.slice(10, 60).map((u) => u.id), users[3].id, pairTeam.members, from],
      );
    }
    await db.query(`VACUUM ANALYZE chat_messages`);
    const fillSeconds = round((performance.now() - fillStarted) / 1000, 1);
    const [low, high] = [Math.min(a.id, b.id), Math.max(a.id, b.id)];
    const [{ pair, room }] = (
      await db.query(
        `SELECT (SELECT count(*)::int FROM chat_messages WHERE kind = 'user' AND "userLow" = $1 AND "userHigh" = $2) AS pair,
                (SELECT count(*)::int FROM chat_messages WHERE kind = 'team' AND "toId" = $3) AS room`,
        [low, high, pairTeam.id],
      )
    ).rows;
    const cursorAt = async (kind: 'user' | 'team', offset: number): Promise<number> => {
      const where = kind === 'user' ? `kind = 'user' AND "userLow" = $1 AND "userHigh" = $2` : `kind = 'team' AND "toId" = $1`;
      const params = kind === 'user' ? [low, high] : [pairTeam.id];
      const { rows } = await db.query(
        `SELECT id FROM chat_messages WHERE ${where} ORDER BY id DESC OFFSET ${offset} LIMIT 1`,
        params,
      );
      return rows[0].id;
    };
    const timed = async (url: string, token: string, check: (body: any) => boolean) => {
      const t0 = performance.now();
      const res = await fetch(`${serverUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
      const body = await res.json();
      const ms = performance.now() - t0;
      if (res.status !== 200 || !check(body))
        throw new Error(`bad answer ${url}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      return ms;
    };
    const measure = async (url: string, token: string, check: (body: any) => boolean, n = PAGE_REQUESTS) => {
      for (let i = 0; i < WARMUP; i++) await timed(url, token, check);
      const cpu0 = await serverCpu(child);
      const samples: number[] = [];
      for (let i = 0; i < n; i++) samples.push(await timed(url, token, check));
      const cpu1 = await serverCpu(child);
      return { ...latencyStats(samples), serverCpuMsPerRequest: round(cpuMs(cpu0, cpu1) / n), loadavg: load() };
    };
    const page = (n: number, more: boolean) => (body: { messages: unknown[]; hasMore: boolean }) =>
      body.messages.length === n && body.hasMore === more;
    const depths = async (kind: 'user' | 'team', id: number, token: string, count: number) => {
      const middle = await cursorAt(kind, count / 2);
      const oldest = await cursorAt(kind, count - 50 - 1);
      return {
        messagesInConversation: count,
        newest: await measure(`/chat-interno/mensagens/${id}?kind=${kind}`, token, page(50, true)),
        middle: {
          before: middle,
          ...(await measure(`/chat-interno/mensagens/${id}?kind=${kind}&before=${middle}`, token, page(50, true))),
        },
        oldest: {
          before: oldest,
          ...(await measure(`/chat-interno/mensagens/${id}?kind=${kind}&before=${oldest}`, token, page(50, false))),
        },
      };
    };
    const baseline = await measure('/queue', a.token, () => true);
    const memberToken = users.find((u) => u.id === pairTeam.members[0])!.token;
    const paging = {
      messagesInTenant: Number(
        (await db.query(`SELECT count(*)::int AS n FROM chat_messages WHERE "tenantId" = $1`, [tenant.id])).rows[0].n,
      ),
      fillSeconds,
      authOnlyBaseline: { path: 'GET /queue', ...baseline },
      oneToOne: await depths('user', b.id, a.token, pair),
      teamRoom: await depths('team', pairTeam.id, memberToken, room),
      plan: (
        await db.query(
          `EXPLAIN (ANALYZE, BUFFERS) SELECT p.id FROM chat_messages p
            WHERE p.kind = 'user' AND p."userLow" = $1 AND p."userHigh" = $2 AND p.id < $3 ORDER BY p.id DESC LIMIT 51`,
          [low, high, await cursorAt('user', pair / 2)],
        )
      ).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']),
      target: 'p95 < 20 ms at every depth',
    };

    // ---- (c) conversation list and unread count ----
    const lists = {
      colleagues: USERS - 1,
      rooms: a.teams.length,
      conversations: await measure(
        '/chat-interno/conversations',
        a.token,
        (body: unknown[]) => body.length === USERS - 1 + a.teams.length,
        100,
      ),
      unreadCount: await measure(
        '/chat-interno/count/mensagens',
        a.token,
        (body: { count: number }) => typeof body.count === 'number',
        100,
      ),
    };

    console.log(
      JSON.stringify(
        {
          machine: { cpus: os.cpus().length, loadavg: load() },
          redis: Boolean(process.env.REDIS_URL),
          delivery,
          paging,
          lists,
        },
        null,
        2,
      ),
    );
  } finally {
    for (const s of sockets) s.disconnect();
    await db.end();
    child.send({ stop: true });
    await new Promise((r) => child.once('exit', r));
    await bench.drop();
  }
}

runBench(main, serve);
