/**
 * Desktop local cache benchmark (issue #15). Not a test: prints JSON.
 *
 *   npx tsx tests/bench/desktop-cache.ts [runs]        (default 100 per read scenario)
 *
 * Needs no server or PostgreSQL: it builds a real encrypted cache (better-sqlite3-multiple-ciphers,
 * SQLCipher 4 format) in a temporary folder through the desktop's own modules, fills it with
 * 10,000 tickets, 10,000 contacts and 100,000 messages (one long thread of 5,000, the rest spread,
 * ids interleaved in time as real traffic is) by sync batches, then measures:
 *   - first screen: read and decrypt the key file (a fake safeStorage stands in for the OS
 *     keychain), open and key the file, check the schema, read the first page of tickets
 *     (target < 300 ms);
 *   - a thread page: first page of the long thread, a deep page of it, first page of ordinary
 *     tickets (target < 50 ms);
 *   - search: common, rare, accent-folded and prefix words, contact names (target < 100 ms);
 *   - applying 10,000 sync upserts in one batch: ticket updates, new messages, acks (target < 2 s);
 *   - the file size per 100,000 messages.
 * Wall times are p50/p95/p99 (ms); CPU time per operation (process.cpuUsage, user + system) and
 * the machine's load (os.loadavg) stand beside them, because another process's load moves them.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContactDto } from '../../shared/schemas/contacts';
import type { MessageDto } from '../../shared/schemas/messages';
import type { TicketDto, TicketStatus } from '../../shared/schemas/tickets';
import { openCacheDatabase, type CacheAccount, type CacheDatabase } from '../../desktop/main/cache/cache-database';
import { contactFixture, isoAt, messageFixture, ticketFixture } from '../../desktop/main/cache/cache-fixtures.test-support';
import { loadOrCreateCacheKey } from '../../desktop/main/cache/cache-key';
import { createCacheStore, type CacheStore } from '../../desktop/main/cache/cache-store';
import { FakeSafeStorage } from '../../desktop/main/tokens/safe-storage.test-support';
import { MESSAGE_WORDS, latencyStats } from './support/bench-support';

const RUNS = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 100;
const WARMUP = 5;
const TICKETS = 10_000;
const MESSAGES = 100_000;
const LONG_THREAD = 5_000;
const BATCH_ROWS = 10_000;
const SYNC_ROUNDS = 5;

const account: CacheAccount = { serverOrigin: 'https://atende.example.com', tenantId: 1, userId: 7 };

const WORDS = [
  ...MESSAGE_WORDS,
  'ação',
  'promoção',
  'atendimento',
  'cancelamento',
  'troca',
  'garantia',
  'você',
  'não',
  'está',
  'código de rastreio',
];
const NAMES = ['João', 'Maria', 'José', 'Ana', 'Antônio', 'Conceição', 'Sebastião', 'Lúcia', 'Fábio', 'Inês', 'Luís', 'Márcia'];
const SURNAMES = ['Silva', 'Souza', 'Conceição', 'Araújo', 'Gonçalves', 'Simões', 'Lima', 'Assunção', 'Brandão', 'Magalhães'];

/** Deterministic pseudo-random numbers (mulberry32), so every run fills the same cache. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(15);
const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];

function body(id: number): string {
  const words = Array.from({ length: 4 + Math.floor(rand() * 12) }, () => pick(WORDS));
  // A rare word in one message of 1,000: what a search for an order number looks like.
  if (id % 1000 === 7) words.push(`protocolo${id}`);
  return `${words.join(' ')} ${id}`;
}

function ticketStatus(id: number): TicketStatus {
  const r = id % 20;
  return r < 5 ? 'open' : r < 8 ? 'pending' : 'closed';
}

/** Time and CPU of each call; the first WARMUP calls are not counted. */
function measure(runs: number, fn: (i: number) => unknown) {
  const wall: number[] = [];
  let cpuMicros = 0;
  for (let i = 0; i < WARMUP + runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    fn(i);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (i >= WARMUP) {
      wall.push(ms);
      cpuMicros += used.user + used.system;
    }
  }
  return { ...latencyStats(wall), cpu_ms_per_op: Number((cpuMicros / runs / 1000).toFixed(3)) };
}

async function measureAsync(runs: number, fn: () => Promise<unknown>) {
  const wall: number[] = [];
  let cpuMicros = 0;
  let first: { wall_ms: number; cpu_ms: number } | null = null;
  for (let i = 0; i < runs; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    await fn();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    if (first === null) first = { wall_ms: Number(ms.toFixed(2)), cpu_ms: Number(((used.user + used.system) / 1000).toFixed(2)) };
    wall.push(ms);
    cpuMicros += used.user + used.system;
  }
  return { first, ...latencyStats(wall), cpu_ms_per_op: Number((cpuMicros / runs / 1000).toFixed(3)) };
}

const fileBytes = (cache: CacheDatabase) =>
  ['', '-wal'].reduce((sum, suffix) => {
    try {
      return sum + statSync(cache.filePath + suffix).size;
    } catch {
      return sum;
    }
  }, 0);

const loadavg = () => os.loadavg().map((n) => Number(n.toFixed(2)));

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atende-bench-cache-'));
  const directory = path.join(dir, 'cache');
  const keyOptions = {
    safeStorage: new FakeSafeStorage(),
    filePath: path.join(directory, 'cache-key.bin'),
    platform: 'darwin' as const,
  };
  const loadStart = loadavg();
  try {
    const { key } = await loadOrCreateCacheKey(keyOptions);
    let cache = openCacheDatabase({ directory, account, key });
    let store: CacheStore = createCacheStore(cache);

    // ---- Fill through sync batches, as the first sync would.
    const fillStarted = performance.now();
    const fillCpu = process.cpuUsage();
    const contacts: ContactDto[] = [];
    const tickets: TicketDto[] = [];
    for (let id = 1; id <= TICKETS; id++) {
      const name = `${pick(NAMES)} ${pick(SURNAMES)} ${id}`;
      contacts.push(contactFixture(id, { name }));
      tickets.push(
        ticketFixture(id, {
          name,
          status: ticketStatus(id),
          lastMessageAt: isoAt(MESSAGES + id),
          updatedAt: isoAt(MESSAGES + id),
        }),
      );
    }
    store.applySyncBatch({ contacts });
    store.applySyncBatch({ tickets });
    cache.connection.pragma('wal_checkpoint(TRUNCATE)');
    const bytesWithoutMessages = fileBytes(cache);
    // Message g belongs to the long thread (ticket 1) every MESSAGES / LONG_THREAD ids, else to
    // one of the other tickets: ids interleave across tickets as real traffic does.
    const every = MESSAGES / LONG_THREAD;
    let batch: MessageDto[] = [];
    for (let id = 1; id <= MESSAGES; id++) {
      const ticketId = id % every === 0 ? 1 : 2 + ((id * 7919) % (TICKETS - 1));
      batch.push(messageFixture(id, ticketId, { body: body(id), contactId: ticketId }));
      if (batch.length === BATCH_ROWS) {
        store.applySyncBatch({ messages: batch, lastSeq: id });
        batch = [];
      }
    }
    if (batch.length) store.applySyncBatch({ messages: batch, lastSeq: MESSAGES });
    const fillCpuUsed = process.cpuUsage(fillCpu);
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    cache.connection.pragma('wal_checkpoint(TRUNCATE)');
    const bytesWithMessages = fileBytes(cache);
    const counts = cache.connection
      .prepare(
        `SELECT (SELECT count(*) FROM tickets) AS tickets, (SELECT count(*) FROM messages) AS messages,
                (SELECT count(*) FROM contacts) AS contacts, (SELECT count(*) FROM messages WHERE ticket_id = 1) AS longThread`,
      )
      .get() as Record<string, number>;
    cache.close();

    // ---- First screen: key file, open + key + schema check, first page of the console's list.
    let firstPage: TicketDto[] = [];
    const firstScreen = await measureAsync(Math.min(RUNS, 30), async () => {
      const loaded = await loadOrCreateCacheKey(keyOptions);
      const opened = openCacheDatabase({ directory, account, key: loaded.key });
      firstPage = createCacheStore(opened).listTickets().tickets;
      opened.close();
    });
    if (firstPage.length !== 40) throw new Error(`first page has ${firstPage.length} tickets`);

    cache = openCacheDatabase({ directory, account, key });
    store = createCacheStore(cache);
    const openTickets = store.listTickets({ status: 'open', limit: 100 }).tickets.map((t) => t.id);
    const deep = cache.connection
      .prepare(`SELECT id FROM messages WHERE ticket_id = 1 ORDER BY id DESC LIMIT 1 OFFSET 3000`)
      .pluck()
      .get() as number;
    const checkPage = (n: number) => {
      if (n === 0) throw new Error('empty thread page');
    };

    const ticketList = {
      firstPage: measure(RUNS, () => store.listTickets()),
      deepPage: (() => {
        const cursor = store.listTickets({ limit: 100, before: store.listTickets({ limit: 100 }).nextBefore }).nextBefore;
        return measure(RUNS, () => store.listTickets({ before: cursor }));
      })(),
      closedFirstPage: measure(RUNS, () => store.listTickets({ status: 'closed' })),
    };

    const threadPage = {
      longThreadFirstPage: {
        messagesInTicket: counts.longThread,
        ...measure(RUNS, () => checkPage(store.threadPage(1).messages.length)),
      },
      longThreadDeepPage: {
        messagesNewer: 3000,
        ...measure(RUNS, () => checkPage(store.threadPage(1, { beforeId: deep }).messages.length)),
      },
      ordinaryTicketFirstPage: measure(RUNS, (i) => store.threadPage(openTickets[i % openTickets.length]).messages.length),
    };

    const searches: Record<string, string> = {
      commonWord: 'pedido',
      twoCommonWords: 'entrega boleto',
      accentFolded: 'acao',
      prefix: 'cancel',
      rareWord: 'protocolo50007',
      noMatch: 'xyzzy',
      contactName: 'conceicao',
      contactFullName: 'sebastiao magalhaes',
    };
    const search: Record<string, unknown> = {};
    for (const [name, text] of Object.entries(searches)) {
      const result = store.search(text);
      search[name] = {
        text,
        messagesFound: result.messages.length,
        contactsFound: result.contacts.length,
        ...measure(RUNS, () => store.search(text)),
      };
    }

    // ---- Sync: 10,000 upserts per batch on the full cache: 1,000 ticket updates, 6,000 new
    // messages, 3,000 acks of existing messages (newer updatedAt), one transaction each.
    const syncRounds: { wall_ms: number; cpu_ms: number; written: number }[] = [];
    let nextId = MESSAGES + 1;
    for (let round = 1; round <= SYNC_ROUNDS; round++) {
      const at = MESSAGES + TICKETS + round * BATCH_ROWS;
      const batchTickets = Array.from({ length: 1_000 }, (_, i) => {
        const id = 1 + ((round * 1_000 + i * 7) % TICKETS);
        return ticketFixture(id, {
          status: ticketStatus(id),
          lastMessageAt: isoAt(at + i),
          updatedAt: isoAt(at + i),
          unreadMessages: 1,
        });
      });
      const newMessages = Array.from({ length: 6_000 }, (_, i) => {
        const id = nextId++;
        const ticketId = batchTickets[i % batchTickets.length].id;
        return messageFixture(id, ticketId, {
          body: body(id),
          contactId: ticketId,
          createdAt: isoAt(at + i),
          updatedAt: isoAt(at + i),
        });
      });
      const acks = Array.from({ length: 3_000 }, (_, i) => {
        const id = MESSAGES - round * 3_000 - i;
        const ticketId = id % every === 0 ? 1 : 2 + ((id * 7919) % (TICKETS - 1));
        return messageFixture(id, ticketId, {
          body: body(id),
          contactId: ticketId,
          ack: 3,
          status: 'read',
          updatedAt: isoAt(at + i),
        });
      });
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = store.applySyncBatch({
        tickets: batchTickets,
        messages: [...newMessages, ...acks],
        lastSeq: MESSAGES + round,
      });
      const ms = performance.now() - started;
      const used = process.cpuUsage(cpu);
      syncRounds.push({
        wall_ms: Number(ms.toFixed(1)),
        cpu_ms: Number(((used.user + used.system) / 1000).toFixed(1)),
        written: result.tickets + result.messages,
      });
    }
    cache.connection.pragma('wal_checkpoint(TRUNCATE)');
    const bytesAfterSync = fileBytes(cache);
    cache.close();

    const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));
    const wall = syncRounds.map((r) => r.wall_ms).sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          machine: { cpus: os.cpus().length, loadavgAtStart: loadStart, loadavgAtEnd: loadavg(), node: process.version },
          cache: {
            cipher: 'sqlcipher (SQLCipher 4 format, raw 256-bit key)',
            ...counts,
            fillSeconds: Number(fillSeconds.toFixed(1)),
            fillCpuSeconds: Number(((fillCpuUsed.user + fillCpuUsed.system) / 1e6).toFixed(1)),
            fileMB: mb(bytesWithMessages),
            fileMBWithoutMessages: mb(bytesWithoutMessages),
            fileMBPer100kMessages: mb(((bytesWithMessages - bytesWithoutMessages) / counts.messages) * 100_000),
            fileMBAfterSyncRounds: mb(bytesAfterSync),
          },
          targets_ms: { firstScreen: 300, threadPage: 50, search: 100, sync10kUpserts: 2000 },
          firstScreen: { what: 'key file + open + key + schema check + first page (40 open/pending tickets)', ...firstScreen },
          ticketList,
          threadPage,
          search,
          sync10kUpserts: {
            what: '1,000 ticket updates + 6,000 new messages + 3,000 acks, one transaction',
            rounds: syncRounds,
            p50_ms: wall[Math.floor(wall.length / 2)],
            max_ms: wall[wall.length - 1],
          },
        },
        null,
        2,
      ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
