import { TZDate } from '@date-fns/tz';
import type { CountBucket, DurationStats, EvolutionBucket, HourBucket, PerUserRow, TicketsTimesRow } from '@shared/schemas/statistics';
import type { TestServer } from '../../../../tests/helpers/test-server';

/**
 * Test support for the statistics suites (not a test file): a seeded data set of recorded facts
 * written straight into the tables, and an independent reference that computes every answer from
 * that data set in plain TypeScript (percentiles by linear interpolation, days and hours with
 * Intl/@date-fns/tz, never PostgreSQL), so the tests compare two derivations of each figure.
 */

export interface SeedEvent {
  kind: 'opened' | 'assigned' | 'started' | 'firstReply' | 'reply' | 'autoMessage' | 'messageIn' | 'transfer' | 'resolved' | 'reopened' | 'rating';
  at: Date;
  queueId: number | null;
  userId: number | null;
  value: number | null;
}

export interface SeedTicket {
  id?: number;
  createdAt: Date;
  status: 'open' | 'pending' | 'closed';
  queueId: number | null;
  channelId: number | null;
  userId: number | null;
  isActiveDemand: boolean;
  /** when its contact was created */
  contactCreatedAt: Date;
  events: SeedEvent[];
}

export interface SeedWorld {
  tenantId: number;
  timeZone: string;
  queues: { id: number; name: string }[];
  channels: { id: number; name: string; type: string }[];
  users: { id: number; name: string; email: string }[];
  tickets: SeedTicket[];
}

/** mulberry32: a small deterministic PRNG, so the data set is the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` tickets created between `from` and `to`, with their facts: waiting, first response,
 * replies, customer and automated messages, transfers, resolutions, reopenings and ratings, in
 * the queues, channels and agents given (and without queue, channel or agent now and then).
 */
export function generateTickets(
  random: () => number,
  count: number,
  from: Date,
  to: Date,
  refs: { queues: number[]; channels: number[]; users: number[] },
): SeedTicket[] {
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const span = to.getTime() - from.getTime();
  const tickets: SeedTicket[] = [];
  for (let i = 0; i < count; i++) {
    const createdAt = new Date(from.getTime() + Math.floor(random() * span));
    const at = (seconds: number) => new Date(createdAt.getTime() + seconds * 1000);
    const isActiveDemand = random() < 0.3;
    let queueId = random() < 0.15 ? null : pick(refs.queues);
    const channelId = random() < 0.1 ? null : pick(refs.channels);
    let userId: number | null = isActiveDemand ? pick(refs.users) : null;
    const events: SeedEvent[] = [{ kind: 'opened', at: createdAt, queueId, userId, value: null }];
    if (userId !== null) events.push({ kind: 'assigned', at: createdAt, queueId, userId, value: null });
    let t = 0;
    const inbound = 1 + Math.floor(random() * 4);
    for (let m = 0; m < inbound; m++) events.push({ kind: 'messageIn', at: at((t += 1 + Math.floor(random() * 600))), queueId, userId, value: null });
    let status: SeedTicket['status'] = 'pending';
    if (isActiveDemand) status = 'open';
    else if (random() < 0.8) {
      const waited = Math.floor(random() * 7200);
      userId = pick(refs.users);
      events.push({ kind: 'started', at: at(waited), queueId, userId, value: waited });
      events.push({ kind: 'assigned', at: at(waited), queueId, userId, value: null });
      status = 'open';
      t = Math.max(t, waited);
    }
    if (status === 'open' && random() < 0.85) {
      const replyAfter = t + Math.floor(random() * 3600);
      events.push({ kind: 'firstReply', at: at(replyAfter), queueId, userId, value: isActiveDemand ? null : replyAfter });
      const replies = 1 + Math.floor(random() * 4);
      for (let r = 0; r < replies; r++) {
        events.push({ kind: 'reply', at: at((t = replyAfter + r * 45)), queueId, userId, value: null });
      }
    }
    if (status === 'open' && random() < 0.2) {
      const nextQueue = random() < 0.2 ? null : pick(refs.queues);
      const nextUser = pick(refs.users);
      events.push({ kind: 'transfer', at: at((t += 120)), queueId: nextQueue, userId: nextUser, value: null });
      if (nextUser !== userId) events.push({ kind: 'assigned', at: at(t), queueId: nextQueue, userId: nextUser, value: null });
      queueId = nextQueue;
      userId = nextUser;
      events.push({ kind: 'reply', at: at((t += 30)), queueId, userId, value: null });
    }
    if (random() < 0.6) {
      const resolvedAfter = t + 60 + Math.floor(random() * 86_400);
      const closer = userId ?? pick(refs.users);
      if (userId === null) events.push({ kind: 'assigned', at: at(resolvedAfter), queueId, userId: closer, value: null });
      events.push({ kind: 'autoMessage', at: at(resolvedAfter), queueId, userId: closer, value: null });
      events.push({ kind: 'resolved', at: at(resolvedAfter), queueId, userId: closer, value: resolvedAfter });
      userId = closer;
      status = 'closed';
      t = resolvedAfter;
      if (random() < 0.5) events.push({ kind: 'rating', at: at((t += 300)), queueId, userId, value: Math.floor(random() * 6) });
      if (random() < 0.1) {
        events.push({ kind: 'reopened', at: at((t += 3600)), queueId, userId, value: null });
        status = 'open';
        if (random() < 0.5) {
          const again = t + 600;
          events.push({ kind: 'resolved', at: at(again), queueId, userId, value: again });
          status = 'closed';
        }
      }
    }
    const contactCreatedAt = new Date(createdAt.getTime() - Math.floor(random() * 3 * 86_400_000));
    tickets.push({ createdAt, status, queueId, channelId, userId, isActiveDemand, contactCreatedAt, events });
  }
  return tickets;
}

/** Writes the tickets (with a contact each) and their facts (and day counts); fills in the ticket ids. */
export async function insertSeed(server: TestServer, world: SeedWorld, tickets: SeedTicket[]): Promise<void> {
  const q = (sql: string, params: unknown[]) => server.deps.dataSource.query(sql, params);
  const channelType = new Map(world.channels.map((c) => [c.id, c.type]));
  const contacts: { id: number }[] = await q(
    `INSERT INTO contacts ("tenantId", name, number, "createdAt")
     SELECT $1, 'Contato ' || n, $2 || lpad(n::text, 7, '0'), c
       FROM unnest($3::timestamptz[]) WITH ORDINALITY AS x(c, n) ORDER BY n
     RETURNING id`,
    [world.tenantId, `55${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`, tickets.map((t) => t.contactCreatedAt)],
  );
  const rows: { id: number }[] = await q(
    `INSERT INTO tickets ("tenantId", "contactId", status, "queueId", "userId", "whatsappId", channel, "isActiveDemand", "createdAt", "closedAt")
     SELECT $1, x.contact, x.status, x.queue, x."user", x.channel, x.type, x.active, x.created, CASE WHEN x.status = 'closed' THEN x.created END
       FROM unnest($2::int[], $3::varchar[], $4::int[], $5::int[], $6::int[], $7::varchar[], $8::boolean[], $9::timestamptz[])
            WITH ORDINALITY AS x(contact, status, queue, "user", channel, type, active, created, n)
      ORDER BY x.n
     RETURNING id`,
    [
      world.tenantId,
      contacts.map((c) => c.id),
      tickets.map((t) => t.status),
      tickets.map((t) => t.queueId),
      tickets.map((t) => t.userId),
      tickets.map((t) => t.channelId),
      tickets.map((t) => (t.channelId === null ? null : channelType.get(t.channelId))),
      tickets.map((t) => t.isActiveDemand),
      tickets.map((t) => t.createdAt),
    ],
  );
  tickets.forEach((t, i) => (t.id = rows[i].id));
  const events = tickets.flatMap((t) => t.events.map((e) => ({ ...e, ticketId: t.id!, channelId: t.channelId })));
  await q(
    `INSERT INTO ticket_metric_events ("tenantId", "ticketId", kind, at, "queueId", "userId", "whatsappId", value)
     SELECT $1, * FROM unnest($2::int[], $3::varchar[], $4::timestamptz[], $5::int[], $6::int[], $7::int[], $8::int[])`,
    [
      world.tenantId,
      events.map((e) => e.ticketId),
      events.map((e) => e.kind),
      events.map((e) => e.at),
      events.map((e) => e.queueId),
      events.map((e) => e.userId),
      events.map((e) => e.channelId),
      events.map((e) => e.value),
    ],
  );
  // The message facts per UTC day, as the statements that record them keep them.
  await q(
    `INSERT INTO ticket_metric_daily ("tenantId", kind, day, "queueId", "userId", n)
     SELECT "tenantId", kind, (at AT TIME ZONE 'UTC')::date, "queueId", CASE WHEN kind = 'reply' THEN "userId" END, count(*)
       FROM ticket_metric_events WHERE "tenantId" = $1 AND "ticketId" = ANY($2::int[]) AND kind IN ('messageIn', 'reply', 'autoMessage')
      GROUP BY 1, 2, 3, 4, 5
     ON CONFLICT ON CONSTRAINT ticket_metric_daily_key DO UPDATE SET n = ticket_metric_daily.n + EXCLUDED.n`,
    [world.tenantId, tickets.map((t) => t.id)],
  );
  world.tickets.push(...tickets);
}

// ---------- The reference ----------

export interface Scope {
  /** null: every queue */
  queueIds: number[] | null;
  withoutQueue: boolean;
}

export interface Period {
  startDate: string;
  endDate: string;
}

const inScope = (scope: Scope, queueId: number | null) =>
  queueId === null ? scope.withoutQueue : scope.queueIds === null || scope.queueIds.includes(queueId);

/** [start of the first day, start of the day after the last) in the zone, as epoch ms. */
export function periodBounds(period: Period, zone: string): [number, number] {
  const [y1, m1, d1] = period.startDate.split('-').map(Number);
  const [y2, m2, d2] = period.endDate.split('-').map(Number);
  return [new TZDate(y1, m1 - 1, d1, zone).getTime(), new TZDate(y2, m2 - 1, d2 + 1, zone).getTime()];
}

function localParts(instant: number, zone: string): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { day: `${get('year')}-${get('month')}-${get('day')}`, hour: Number(get('hour')) };
}

/** percentile_cont: linear interpolation between the closest ranks. */
export function percentileCont(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = p * (sorted.length - 1);
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

/** Half away from zero (the numbers here are never negative). */
const roundHalfUp = (v: number | null) => (v === null ? null : Math.floor(v + 0.5));

export function durationStats(values: number[]): DurationStats {
  const mean = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  return {
    median: roundHalfUp(percentileCont(values, 0.5)),
    p90: roundHalfUp(percentileCont(values, 0.9)),
    average: roundHalfUp(mean),
    samples: values.length,
  };
}

/** A mean of integers to 2 decimals, halves up, without binary fractions. */
function mean2(values: number[]): number | null {
  if (values.length === 0) return null;
  const sum = values.reduce((a, b) => a + b, 0);
  return Math.floor((200 * sum + values.length) / (2 * values.length)) / 100;
}

const clock = (s: number | null) =>
  s === null
    ? null
    : `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

export class Reference {
  constructor(
    private readonly world: SeedWorld,
    private readonly period: Period,
    private readonly scope: Scope,
  ) {}

  private get bounds() {
    return periodBounds(this.period, this.world.timeZone);
  }

  private within(instant: Date): boolean {
    const [lo, hi] = this.bounds;
    return instant.getTime() >= lo && instant.getTime() < hi;
  }

  /** Tickets created in the period, in scope by their current queue. */
  created(): SeedTicket[] {
    return this.world.tickets.filter((t) => this.within(t.createdAt) && inScope(this.scope, t.queueId));
  }

  /** Facts in the period, in scope by the queue they were recorded with. */
  facts(...kinds: SeedEvent['kind'][]): (SeedEvent & { ticketId: number })[] {
    return this.world.tickets.flatMap((t) =>
      t.events
        .filter((e) => kinds.includes(e.kind) && this.within(e.at) && inScope(this.scope, e.queueId))
        .map((e) => ({ ...e, ticketId: t.id! })),
    );
  }

  private values(kind: SeedEvent['kind']): number[] {
    return this.facts(kind)
      .map((e) => e.value)
      .filter((v): v is number => v !== null);
  }

  ticketsTimes(): TicketsTimesRow {
    const created = this.created();
    const active = created.filter((t) => t.isActiveDemand).length;
    const ratings = this.values('rating');
    const waiting = durationStats(this.values('started'));
    const resolution = durationStats(this.values('resolved'));
    const now = this.world.tickets.filter((t) => inScope(this.scope, t.queueId));
    return {
      qtd_total_atendimentos: created.length,
      qtd_demanda_ativa: active,
      qtd_demanda_receptiva: created.length - active,
      new_contacts: this.world.tickets.filter((t) => this.within(t.contactCreatedAt)).length,
      tma: clock(resolution.average),
      tme: clock(waiting.average),
      open: now.filter((t) => t.status === 'open').length,
      pending: now.filter((t) => t.status === 'pending').length,
      resolved: this.facts('resolved').length,
      waiting,
      firstResponse: durationStats(this.values('firstReply')),
      resolution,
      ratings: { count: ratings.length, average: mean2(ratings), distribution: [0, 1, 2, 3, 4, 5].map((r) => ratings.filter((v) => v === r).length) },
      messagesIn: this.facts('messageIn').length,
      messagesOut: this.facts('reply', 'autoMessage').length,
    };
  }

  private buckets(key: (t: SeedTicket) => number | null, names: Map<number, string>, none: string): CountBucket[] {
    const counts = new Map<number | null, number>();
    for (const t of this.created()) counts.set(key(t), (counts.get(key(t)) ?? 0) + 1);
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    return [...counts.entries()]
      .map(([id, qtd]) => ({ id, label: id === null ? none : names.get(id)!, qtd, pertentual: Math.round((10_000 * qtd) / total) / 100 }))
      .sort((a, b) => b.qtd - a.qtd || byName(a.id === null ? null : a.label, b.id === null ? null : b.label) || (a.id ?? 0) - (b.id ?? 0));
  }

  channels(): CountBucket[] {
    return this.buckets((t) => t.channelId, new Map(this.world.channels.map((c) => [c.id, c.name])), 'Sem conexão');
  }

  queues(): CountBucket[] {
    return this.buckets((t) => t.queueId, new Map(this.world.queues.map((q) => [q.id, q.name])), 'Sem fila');
  }

  evolution(): EvolutionBucket[] {
    const zone = this.world.timeZone;
    const [lo, hi] = this.bounds;
    const hourly = this.period.startDate === this.period.endDate;
    const keyOf = (instant: number) => {
      const p = localParts(instant, zone);
      return hourly ? `${p.day}T${String(p.hour).padStart(2, '0')}:00` : p.day;
    };
    const keys: string[] = [];
    if (hourly) {
      // every hour of the day, by its local label (a fall-back day's repeated hour is one bucket)
      for (let at = lo; at < hi; at += 3_600_000) if (!keys.includes(keyOf(at))) keys.push(keyOf(at));
    } else {
      const [y, m, d] = this.period.startDate.split('-').map(Number);
      for (const day = new Date(Date.UTC(y, m - 1, d)); day.toISOString().slice(0, 10) <= this.period.endDate; day.setUTCDate(day.getUTCDate() + 1)) {
        keys.push(day.toISOString().slice(0, 10));
      }
    }
    const counts = new Map<string, number>();
    for (const t of this.created()) counts.set(keyOf(t.createdAt.getTime()), (counts.get(keyOf(t.createdAt.getTime())) ?? 0) + 1);
    return keys.sort().map((k) => {
      const [day, hour] = k.split('T');
      const [y, m, d] = day.split('-');
      return { dt_referencia: k, label: hour ?? `${d}/${m}/${y}`, qtd: counts.get(k) ?? 0 };
    });
  }

  evolutionChannels(): EvolutionBucket[] {
    const names = new Map(this.world.channels.map((c) => [c.id, c.name]));
    const counts = new Map<string, { day: string; id: number | null; qtd: number }>();
    for (const t of this.created()) {
      const day = localParts(t.createdAt.getTime(), this.world.timeZone).day;
      const key = `${day}|${t.channelId}`;
      const entry = counts.get(key) ?? { day, id: t.channelId, qtd: 0 };
      entry.qtd++;
      counts.set(key, entry);
    }
    return [...counts.values()]
      .sort(
        (a, b) =>
          a.day.localeCompare(b.day) ||
          byName(a.id === null ? null : names.get(a.id)!, b.id === null ? null : names.get(b.id)!) ||
          (a.id ?? 0) - (b.id ?? 0),
      )
      .map((e) => {
        const [y, m, d] = e.day.split('-');
        return { dt_referencia: e.day, label: `${d}/${m}/${y}`, qtd: e.qtd, channel: e.id === null ? 'Sem conexão' : names.get(e.id)! };
      });
  }

  hours(): HourBucket[] {
    const counts = Array.from({ length: 24 }, () => 0);
    for (const t of this.created()) counts[localParts(t.createdAt.getTime(), this.world.timeZone).hour]++;
    return counts.map((qtd, hour) => ({ hour, qtd }));
  }

  countMessages() {
    return { messagesIn: this.facts('messageIn').length, messagesOut: this.facts('reply', 'autoMessage').length };
  }

  perUsers(usersIds?: number[]): PerUserRow[] {
    const facts = this.facts('assigned', 'firstReply', 'reply', 'resolved', 'rating').filter(
      (e) => e.userId !== null && (!usersIds || usersIds.includes(e.userId)),
    );
    const rows = this.world.users
      .map((u) => {
        const mine = facts.filter((e) => e.userId === u.id);
        const values = (kind: SeedEvent['kind']) =>
          mine.filter((e) => e.kind === kind && e.value !== null).map((e) => e.value as number);
        const ratings = values('rating');
        return {
          userId: u.id,
          name: u.name,
          email: u.email,
          ticketsHandled: mine.filter((e) => e.kind === 'assigned').length,
          ticketsResolved: mine.filter((e) => e.kind === 'resolved').length,
          messagesSent: mine.filter((e) => e.kind === 'reply').length,
          firstResponse: durationStats(values('firstReply')),
          resolution: durationStats(values('resolved')),
          ratings: { count: ratings.length, average: mean2(ratings) },
          any: mine.length > 0,
        };
      })
      .filter((r) => r.any)
      .map(({ any: _any, ...row }) => row);
    return rows.sort(
      (a, b) => b.ticketsHandled - a.ticketsHandled || b.messagesSent - a.messagesSent || byName(a.name, b.name) || a.userId - b.userId,
    );
  }
}

/** PostgreSQL's ORDER BY name NULLS LAST under the C-like collations of the test databases. */
function byName(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
