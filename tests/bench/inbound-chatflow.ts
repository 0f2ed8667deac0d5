/**
 * Chatflow overhead on the inbound path (issue #14, performance). Not a test: prints JSON.
 *
 *   npx tsx tests/bench/inbound-chatflow.ts [messages] [contacts] [concurrency]
 *   (defaults 20000 messages over 200 contacts, 50 webhooks in flight)
 *
 * Runs tests/bench/inbound-throughput.ts on a fresh database and server each time: without a
 * flow, then with a three-step flow active on every new ticket (BENCH_CHATFLOW=1: the flow's last
 * answer hands the ticket to a queue), and prints both side by side: throughput,
 * webhook-to-socket p50/p99, server CPU per message, the machine's load, and the engine's own
 * time per handled message (under the load, and one message at a time after it). Targets (issue
 * #14): throughput with the flow >= 80% of without, p99 <= 1.5x, step overhead p95 < 5 ms.
 * BENCH_STRESS=1 adds a third run, reported beside them but not against the targets: every
 * message through the bot (the flow closes the ticket and the next message starts it again).
 *
 * BENCH_REPEAT=n (n > 1) runs n pairs, alternating without and with the flow so that a change of
 * the machine's load falls on both sides alike, prints every pair's ratios and step overheads and
 * judges the targets on the medians of the pairs (each pair's ratio is taken within the pair).
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const args = process.argv.slice(2);
const script = path.join(import.meta.dirname, 'inbound-throughput.ts');

interface Run {
  messages_per_s: number;
  seconds: number;
  socket_received: number;
  webhook_errors: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number };
  server_cpu_ms_per_message: number;
  load_average: number[];
  stored: Record<string, number>;
  step_overhead_ms: { handled: number; p50: number; p95: number; p99: number };
  step_overhead_quiet_ms: { handled: number; p50: number; p95: number; p99: number };
}

function run(withFlow: boolean, cycle = false): Run {
  const loadBefore = os.loadavg();
  const res = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, BENCH_CHATFLOW: withFlow ? '1' : '0', BENCH_CHATFLOW_CYCLE: cycle ? '1' : '0' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const line = res.stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (res.status !== 0 || !line) throw new Error(`inbound-throughput (${withFlow ? 'flow' : 'no flow'}) failed: exit ${res.status}\n${res.stdout}`);
  return { ...(JSON.parse(line) as Run), load_before: loadBefore.map((n) => Math.round(n * 10) / 10) } as Run;
}

const pick = (r: Run) => ({
  messages_per_s: r.messages_per_s,
  seconds: r.seconds,
  socket_received: r.socket_received,
  webhook_errors: r.webhook_errors,
  latency_ms: r.latency_ms,
  server_cpu_ms_per_message: r.server_cpu_ms_per_message,
  load_average_before: (r as Run & { load_before: number[] }).load_before,
  load_average_after: r.load_average,
  stored: r.stored,
  step_overhead_ms: r.step_overhead_ms,
  step_overhead_quiet_ms: r.step_overhead_quiet_ms,
});

const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1) || 1);
if (repeat > 1) {
  const median = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  const pairs = [];
  for (let i = 0; i < repeat; i++) {
    const w = run(false);
    const f = run(true);
    const pair = {
      messages_per_s: { without: w.messages_per_s, with: f.messages_per_s },
      p99_ms: { without: w.latency_ms.p99, with: f.latency_ms.p99 },
      server_cpu_ms_per_message: { without: w.server_cpu_ms_per_message, with: f.server_cpu_ms_per_message },
      load_average_before: { without: (w as Run & { load_before: number[] }).load_before, with: (f as Run & { load_before: number[] }).load_before },
      throughput_ratio: Number((f.messages_per_s / w.messages_per_s).toFixed(3)),
      p99_ratio: Number((f.latency_ms.p99 / w.latency_ms.p99).toFixed(3)),
      step_p95_under_load_ms: f.step_overhead_ms.p95,
      step_p95_one_at_a_time_ms: f.step_overhead_quiet_ms.p95,
      step_handled: { under_load: f.step_overhead_ms.handled, one_at_a_time: f.step_overhead_quiet_ms.handled },
    };
    pairs.push(pair);
    console.error(JSON.stringify({ pair: i + 1, ...pair }));
  }
  const med = {
    throughput_ratio: median(pairs.map((p) => p.throughput_ratio)),
    p99_ratio: median(pairs.map((p) => p.p99_ratio)),
    step_p95_under_load_ms: median(pairs.map((p) => p.step_p95_under_load_ms)),
    step_p95_one_at_a_time_ms: median(pairs.map((p) => p.step_p95_one_at_a_time_ms)),
    messages_per_s_without: median(pairs.map((p) => p.messages_per_s.without)),
    messages_per_s_with: median(pairs.map((p) => p.messages_per_s.with)),
    server_cpu_ms_per_message_without: median(pairs.map((p) => p.server_cpu_ms_per_message.without)),
    server_cpu_ms_per_message_with: median(pairs.map((p) => p.server_cpu_ms_per_message.with)),
  };
  console.log(
    JSON.stringify(
      {
        bench: 'inbound-chatflow',
        args,
        cpus: os.cpus().length,
        repeat,
        pairs,
        median: med,
        targets_on_medians: {
          throughput_at_least_80_percent: med.throughput_ratio >= 0.8,
          p99_at_most_1_5x: med.p99_ratio <= 1.5,
          step_overhead_p95_under_5_ms_under_load: med.step_p95_under_load_ms < 5,
          step_overhead_p95_under_5_ms_one_at_a_time: med.step_p95_one_at_a_time_ms < 5,
        },
        pairs_meeting_each_target: {
          throughput_at_least_80_percent: pairs.filter((p) => p.throughput_ratio >= 0.8).length,
          p99_at_most_1_5x: pairs.filter((p) => p.p99_ratio <= 1.5).length,
          step_overhead_p95_under_5_ms_under_load: pairs.filter((p) => p.step_p95_under_load_ms < 5).length,
          step_overhead_p95_under_5_ms_one_at_a_time: pairs.filter((p) => p.step_p95_one_at_a_time_ms < 5).length,
        },
      },
      null,
      2,
    ),
  );
  process.exit(0);
}

const without = run(false);
const withFlow = run(true);
const stress = process.env.BENCH_STRESS === '1' ? run(true, true) : null;
const throughputRatio = withFlow.messages_per_s / without.messages_per_s;
const p99Ratio = withFlow.latency_ms.p99 / without.latency_ms.p99;
console.log(
  JSON.stringify(
    {
      bench: 'inbound-chatflow',
      args,
      cpus: os.cpus().length,
      without_flow: pick(without),
      with_flow: pick(withFlow),
      ...(stress
        ? {
            stress_every_message_through_the_bot: {
              ...pick(stress),
              throughput_ratio: Number((stress.messages_per_s / without.messages_per_s).toFixed(3)),
              p99_ratio: Number((stress.latency_ms.p99 / without.latency_ms.p99).toFixed(3)),
            },
          }
        : {}),
      throughput_ratio: Number(throughputRatio.toFixed(3)),
      p99_ratio: Number(p99Ratio.toFixed(3)),
      targets: {
        throughput_at_least_80_percent: throughputRatio >= 0.8,
        p99_at_most_1_5x: p99Ratio <= 1.5,
        step_overhead_p95_under_5_ms_under_load: withFlow.step_overhead_ms.p95 < 5,
        step_overhead_p95_under_5_ms_one_at_a_time: withFlow.step_overhead_quiet_ms.p95 < 5,
      },
    },
    null,
    2,
  ),
);
