/**
 * Campaign sender benchmark (issue #16 and the bulk sends). Not a test: prints JSON.
 *
 *   npx tsx tests/bench/campaign-send.ts [contacts]        (default 10000 contacts)
 *
 * Against DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) it creates a fresh
 * database and starts the real server in a child process, with a tenant, an admin and a
 * CONNECTED waba channel pointed at a local fake Cloud API. It inserts the contacts, creates a
 * campaign with zero delay through the API, links every contact, starts it now and waits until
 * it is finished. Reports the sender's throughput (messages/s from the start to the last
 * outcome), the server's RSS sampled every 200 ms during the run (peak, and at each quarter of
 * the progress: flat memory means the quarters stay level), server CPU ms per message, and the
 * machine's load average. REDIS_URL, when set, is passed on (Bull), as in production.
 *
 * BENCH_WITH_INBOUND=1: the same server also takes an inbound load, so what is measured is whether
 * it puts its live conversations before its campaign (campaign.sender.ts: the sender yields while
 * the process's inbound pipeline is busy, at most 1 s in a row). The tenant gets a second CONNECTED
 * waba channel; signed Cloud API webhooks post BENCH_INBOUND_MESSAGES text messages (default
 * 10000, from 200 senders, BENCH_INBOUND_CONCURRENCY webhooks in flight, default 50) to it, each
 * counted when the admin's socket receives its appMessage:create (the driver of
 * inbound-throughput.ts, tests/bench/support/inbound-load.ts). After a short warm-up the load runs
 * once with no campaign sending (`alone`), then again once the campaign has sent 5% of its
 * contacts (`with_campaign`). Reports both throughputs and latencies, their ratio (target >= 0.8:
 * the inbound throughput stays within 20% while a campaign sends), the campaign's messages/s
 * during the inbound run and outside it, `inbound_overlap` (share of the inbound run the campaign
 * was still sending), server CPU ms per message alone and during, peak RSS and load averages.
 * Every run on this machine shares its cores with whatever else runs: read the load averages.
 * The default run (without inbound) takes well under 3 minutes for 10,000 contacts.
 */
import 'reflect-metadata';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Client } from 'pg';
import { createBenchDatabase, seedBenchTenant, startBenchServer, runBench } from './support/bench-support';
import { benchNumbers, connectBenchSocket, runInboundLoad, type InboundLoadResult } from './support/inbound-load';
import { loginBody } from '../helpers/captcha';

const CONTACTS = Number(process.argv[2]) || 10_000;
const WITH_INBOUND = process.env.BENCH_WITH_INBOUND === '1';
const INBOUND_MESSAGES = Number(process.env.BENCH_INBOUND_MESSAGES) || 10_000;
/** Inbound senders (each run its own, so both runs open the same number of tickets) and webhooks in flight, as inbound-throughput.ts. */
const INBOUND_CONTACTS = 200;
const INBOUND_CONCURRENCY = Number(process.env.BENCH_INBOUND_CONCURRENCY) || 50;
const PHONE_NUMBER_ID = '119876543210987';
/** The tenant's second WABA number, where the inbound load arrives (the campaign sends on the first). */
const INBOUND_PHONE_NUMBER_ID = '119876543210988';
const INBOUND_APP_SECRET = `bench-in-${randomBytes(6).toString('hex')}`;
const SAMPLE_MS = 200;
/** A campaign that has not finished after this long is reported as it stands. */
const DEADLINE_MS = 10 * 60_000;

// ---------- child: the server ----------

async function serve(): Promise<void> {
  const server = await startBenchServer();
  process.send!({ url: server.url });
  process.on('message', async (msg: { stop?: boolean; cpu?: boolean }) => {
    if (msg.cpu) process.send!({ cpu: process.cpuUsage() });
    if (!msg.stop) return;
    await server.close();
    process.exit(0);
  });
}

// ---------- parent ----------

const round = (n: number) => Math.round(n * 10) / 10;

/** Resident set size of a process, in MB (Linux /proc; NaN elsewhere). */
function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

async function main(): Promise<void> {
  const bench = await createBenchDatabase('atende_bench_campaign');
  const { FakeGraphApi } = await import('../fakes/graph-api.fake');
  const graph = await new FakeGraphApi({ token: 'EAAG-bench', phoneNumberId: PHONE_NUMBER_ID }).start();
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    env: { ...process.env, BENCH_DB_URL: bench.url, BENCH_DATA_DIR: bench.dataDir, BENCH_GRAPH_URL: graph.url },
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const serverUrl = await new Promise<string>((resolve, reject) => {
    child.once('message', (m: { url: string }) => resolve(m.url));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });

  const db = new Client({ connectionString: bench.url });
  await db.connect();
  try {
    const seeded = await seedBenchTenant(db, { tenantName: 'Bench campanha', phoneNumberId: PHONE_NUMBER_ID, businessAccountId: '219876543210987', appSecret: `bench-${randomBytes(6).toString('hex')}` });
    const tenant = { id: seeded.tenantId };
    const channel = { id: seeded.channelId };
    const { email, password } = seeded;
    const [inboundChannel] = WITH_INBOUND
      ? (
          await db.query(
            `INSERT INTO channels ("tenantId", name, type, status, "providerConfig", secrets)
             VALUES ($1, 'WABA atendimento', 'waba', 'CONNECTED', $2, $3) RETURNING id`,
            [
              tenant.id,
              JSON.stringify({
                wabaPhoneNumberId: INBOUND_PHONE_NUMBER_ID,
                wabaBusinessAccountId: '219876543210988',
                wabaApiVersion: 'v21.0',
              }),
              JSON.stringify({
                wabaManagerToken: 'EAAG-bench',
                wabaAppSecret: INBOUND_APP_SECRET,
                wabaVerifyToken: 'bench-verify',
              }),
            ],
          )
        ).rows
      : [null];
    await db.query(
      `INSERT INTO contacts ("tenantId", name, number)
       SELECT $1, 'Cliente ' || g, '55119' || lpad((30000000 + g)::text, 8, '0') FROM generate_series(1, $2) g`,
      [tenant.id, CONTACTS],
    );

    const login = await fetch(`${serverUrl}/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(await loginBody(serverUrl, { email, password })),
    });
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const { token } = (await login.json()) as { token: string };
    const call = async (method: string, url: string, body?: unknown) => {
      const res = await fetch(serverUrl + url, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    };
    const campaign = await call('POST', '/campaigns', {
      name: 'Bench',
      start: new Date(Date.now() + 3600_000).toISOString(),
      message1: 'Olá {{firstName}}, temos uma oferta para você.',
      message2: 'Oi {{name}}, confira as novidades.',
      delay: 0,
      channelId: channel.id,
    });
    await call('POST', `/campaigns/contacts/${campaign.id}`, { filter: { all: true } });

    const serverCpu = () =>
      new Promise<NodeJS.CpuUsage>((resolve) => {
        child.once('message', (m: { cpu: NodeJS.CpuUsage }) => resolve(m.cpu));
        child.send({ cpu: true });
      });
    const cpuMs = (b: NodeJS.CpuUsage, a: NodeJS.CpuUsage) => (a.user + a.system - b.user - b.system) / 1000;
    const countDone = async () =>
      (
        await db.query(
          `SELECT count(*)::int AS n FROM campaign_contacts WHERE "campaignId" = $1 AND status IN ('delivered', 'failed')`,
          [campaign.id],
        )
      ).rows[0].n as number;

    // The inbound load goes into THIS server (the tenant's second WABA number), so what is measured
    // is whether the server puts its live conversations before its campaign work.
    const socket = WITH_INBOUND ? await connectBenchSocket(serverUrl, token) : null;
    const inboundOptions = (label: string, prefix: string) => ({
      socket: socket!,
      tenantId: tenant.id,
      url: `${serverUrl}/webhooks/waba/${inboundChannel!.id}`,
      appSecret: INBOUND_APP_SECRET,
      phoneNumberId: INBOUND_PHONE_NUMBER_ID,
      messages: INBOUND_MESSAGES,
      contacts: benchNumbers(INBOUND_CONTACTS, prefix),
      concurrency: INBOUND_CONCURRENCY,
      perWebhook: 1,
      label,
    });
    const inboundLoad = (label: string, prefix: string) => runInboundLoad(inboundOptions(label, prefix));
    let inboundAlone:
      (InboundLoadResult & { server_cpu_ms_per_message: number; rss_peak_mb: number; load_average: number[] }) | null = null;
    if (WITH_INBOUND) {
      // A warm-up (JIT, pools, socket rooms), so the first measured run is not the cold one.
      await runInboundLoad({ ...inboundOptions('WARM', '55419'), messages: Math.min(500, Math.ceil(INBOUND_MESSAGES / 10)) });
      // Inbound alone on the same server, no campaign sending.
      const cpu0 = await serverCpu();
      let peak = 0;
      const peakSampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid!))), SAMPLE_MS);
      const alone = await inboundLoad('ALONE', '55219');
      clearInterval(peakSampler);
      inboundAlone = {
        ...alone,
        server_cpu_ms_per_message: Number((cpuMs(cpu0, await serverCpu()) / INBOUND_MESSAGES).toFixed(2)),
        rss_peak_mb: round(peak),
        load_average: os.loadavg().map(round),
      };
      // Its tickets' work after the commit (hooks) and the socket fan-out settle before the campaign.
      await new Promise((r) => setTimeout(r, 2_000));
    }

    const loadBefore = os.loadavg().map(round);
    const rssBefore = rssMb(child.pid!);
    const cpuBefore = await serverCpu();
    const rss: { at: number; done: number; mb: number }[] = [];
    let done = 0;
    const sampler = setInterval(() => rss.push({ at: performance.now(), done, mb: rssMb(child.pid!) }), SAMPLE_MS);
    const startedAt = performance.now();
    await call('POST', `/campaigns/start/${campaign.id}`, { startNow: true });

    let inboundDuring: Promise<InboundLoadResult> | null = null;
    let inboundStartedAt = 0;
    let inboundEndedAt = 0;
    let doneAtInboundStart = 0;
    let doneAtInboundEnd = 0;
    let loadDuringInbound: number[] = [];
    let cpuAtInboundStart: NodeJS.CpuUsage | null = null;
    let cpuAtInboundEnd: NodeJS.CpuUsage | null = null;
    let finishedAt = 0;
    let status = 'processing';
    while (performance.now() - startedAt < DEADLINE_MS) {
      const [row] = (
        await db.query(
          `SELECT ca.status, count(*) FILTER (WHERE cc.status IN ('delivered', 'failed'))::int AS done
             FROM campaigns ca JOIN campaign_contacts cc ON cc."campaignId" = ca.id WHERE ca.id = $1 GROUP BY ca.status`,
          [campaign.id],
        )
      ).rows as { status: string; done: number }[];
      done = row.done;
      status = row.status;
      // The inbound run starts once the campaign is sending (and has had a moment at full speed).
      if (WITH_INBOUND && !inboundDuring && done >= Math.min(CONTACTS, Math.max(1, Math.round(CONTACTS * 0.05)))) {
        doneAtInboundStart = done;
        cpuAtInboundStart = await serverCpu();
        inboundStartedAt = performance.now();
        inboundDuring = inboundLoad('DURING', '55319').then(async (r) => {
          inboundEndedAt = r.endedAt;
          doneAtInboundEnd = await countDone();
          cpuAtInboundEnd = await serverCpu();
          loadDuringInbound = os.loadavg().map(round);
          return r;
        });
      }
      if (status === 'finished') {
        finishedAt = performance.now();
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const cpuAfter = await serverCpu();
    clearInterval(sampler);
    // The last sample, at the campaign's end.
    rss.push({ at: performance.now(), done, mb: rssMb(child.pid!) });
    const loadAfter = os.loadavg().map(round);
    const inbound = inboundDuring ? await inboundDuring : null;
    socket?.disconnect();
    const endedAt = finishedAt || performance.now();
    const seconds = (endedAt - startedAt) / 1000;
    const [counts] = (
      await db.query(
        `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(*) FILTER (WHERE status = 'failed')::int AS failed,
                min(error) AS first_error
           FROM campaign_contacts WHERE "campaignId" = $1`,
        [campaign.id],
      )
    ).rows;
    const sent = counts.delivered + counts.failed;
    const mbs = rss.map((s) => s.mb).filter(Number.isFinite);
    /** RSS when the campaign had sent `share` of its contacts (the first sample at or past it). */
    const rssAt = (share: number) => round(rss.find((s) => s.done >= share * CONTACTS)?.mb ?? NaN);
    // The campaign during the inbound run (until the campaign or the run ended) and outside it.
    const overlapEnd = inbound ? Math.min(endedAt, inboundEndedAt) : 0;
    const overlapS = inbound ? Math.max(0, overlapEnd - inboundStartedAt) / 1000 : 0;
    const sentDuring = inbound ? (inboundEndedAt <= endedAt ? doneAtInboundEnd : sent) - doneAtInboundStart : 0;
    const overlap =
      inbound && inboundEndedAt > inboundStartedAt ? Math.min(1, overlapS / ((inboundEndedAt - inboundStartedAt) / 1000)) : null;
    console.log(
      JSON.stringify({
        contacts: CONTACTS,
        status,
        seconds: round(seconds),
        messages_per_s: round(sent / seconds),
        delivered: counts.delivered,
        failed: counts.failed,
        ...(counts.first_error ? { first_error: counts.first_error } : {}),
        fake_received: graph.sentMessages().length,
        rss_mb: {
          before: round(rssBefore),
          peak: round(Math.max(...mbs)),
          at_10: rssAt(0.1),
          at_25: rssAt(0.25),
          at_50: rssAt(0.5),
          at_75: rssAt(0.75),
          at_100: rssAt(1),
          // Flat memory: what the server grew between 10% and the end of the campaign.
          growth_10_to_end: round(rssAt(1) - rssAt(0.1)),
          samples: mbs.length,
        },
        // Server CPU over the campaign's run per campaign message (with inbound: the inbound work of the run included).
        server_cpu_ms_per_message: Number((cpuMs(cpuBefore, cpuAfter) / Math.max(1, sent)).toFixed(2)),
        load_average: { before: loadBefore, after: loadAfter },
        cpus: os.cpus().length,
        redis: Boolean(process.env.REDIS_URL),
        ...(WITH_INBOUND
          ? {
              inbound: {
                messages: INBOUND_MESSAGES,
                concurrency: INBOUND_CONCURRENCY,
                alone_messages_per_s: inboundAlone?.messages_per_s ?? null,
                with_campaign_messages_per_s: inbound?.messages_per_s ?? null,
                ratio: inbound && inboundAlone ? Number((inbound.messages_per_s / inboundAlone.messages_per_s).toFixed(2)) : null,
                within_20_percent: inbound && inboundAlone ? inbound.messages_per_s >= 0.8 * inboundAlone.messages_per_s : null,
                alone_latency_ms: inboundAlone?.latency_ms ?? null,
                with_campaign_latency_ms: inbound?.latency_ms ?? null,
                webhook_errors: { alone: inboundAlone?.webhook_errors ?? null, with_campaign: inbound?.webhook_errors ?? null },
                socket_received: {
                  alone: inboundAlone?.socket_received ?? null,
                  with_campaign: inbound?.socket_received ?? null,
                },
                // Server CPU per inbound message alone; during the run, per message of either kind.
                alone_server_cpu_ms_per_message: inboundAlone?.server_cpu_ms_per_message ?? null,
                during_server_cpu_ms_per_message:
                  cpuAtInboundStart && cpuAtInboundEnd
                    ? Number((cpuMs(cpuAtInboundStart, cpuAtInboundEnd) / Math.max(1, INBOUND_MESSAGES + sentDuring)).toFixed(2))
                    : null,
                alone_rss_peak_mb: inboundAlone?.rss_peak_mb ?? null,
                load_average: { after_alone: inboundAlone?.load_average ?? null, after_with_campaign: loadDuringInbound },
                // Share of the inbound run during which the campaign was still sending (1 = all of it).
                inbound_overlap: overlap === null ? null : Number(overlap.toFixed(2)),
                campaign_messages_per_s: {
                  during_inbound: overlapS > 0 ? round(sentDuring / overlapS) : null,
                  outside_inbound: seconds - overlapS > 0 ? round((sent - sentDuring) / (seconds - overlapS)) : null,
                  sent_during_inbound: sentDuring,
                },
                note: 'the inbound load goes into the server that sends the campaign (another WABA channel of the same tenant)',
              },
            }
          : {}),
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
