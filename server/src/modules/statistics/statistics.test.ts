import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATISTICS_PATHS } from '@shared/schemas/statistics';
import { startTestServer, type TestServer, type TestUser } from '../../../../tests/helpers/test-server';
import { insertChannel, insertQueue, setSettings, setUserQueues } from '../tickets/tickets.test-support';
import { perUserStatistics } from './statistics.service';
import {
  Reference,
  generateTickets,
  insertSeed,
  prng,
  type Period,
  type Scope,
  type SeedTicket,
  type SeedWorld,
} from './statistics.test-support';

/**
 * The dashboard's statistics (issue #13) against a seeded data set of recorded facts whose
 * answers the test computes on its own (statistics.test-support.ts): every figure, every scope,
 * time-zone boundaries at midnight and daylight-saving changes, validation, roles and tenants.
 */

type Logged = TestUser & { token: string };

let server: TestServer;
let main: SeedWorld;
let users: Record<'admin' | 'super' | 'user', Logged>;
let alfa: number;
let beta: number;

const ALL: Scope = { queueIds: null, withoutQueue: true };
const MONTH: Period = { startDate: '2024-03-05', endDate: '2024-04-03' };

const get = (path: string, token: string, query: string) => server.request('GET', `${path}?${query}`, { token });
const periodQuery = (p: Period, extra = '') => `startDate=${p.startDate}&endDate=${p.endDate}${extra}`;

async function answers(token: string, query: string) {
  const out: Record<string, unknown> = {};
  for (const [name, path] of Object.entries(STATISTICS_PATHS)) {
    if (name === 'perUsersDetail' || name === 'dashTicketsQueues') continue;
    const res = await get(path, token, query);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    out[name] = res.body;
  }
  return out;
}

function expected(world: SeedWorld, period: Period, scope: Scope) {
  const ref = new Reference(world, period, scope);
  return {
    ticketsTimes: [ref.ticketsTimes()],
    ticketsChannels: ref.channels(),
    ticketsEvolutionByPeriod: ref.evolution(),
    ticketsEvolutionChannels: ref.evolutionChannels(),
    ticketsQueue: ref.queues(),
    ticketsHours: ref.hours(),
    perUsers: ref.perUsers(),
    countMessages: ref.countMessages(),
  };
}

/** A tenant with queues, channels and agents (names that sort alike in every collation). */
async function seedWorld(timeZone?: string): Promise<{ world: SeedWorld; users: Record<'admin' | 'super' | 'user', Logged> }> {
  const t = await server.createTenantWithUsers();
  if (timeZone) {
    const res = await server.request('PUT', '/settings/timeZone', { token: t.users.admin.token, body: { value: timeZone } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const queues = [
    { id: await insertQueue(server, t.tenant.id, 'Fila Alfa'), name: 'Fila Alfa' },
    { id: await insertQueue(server, t.tenant.id, 'Fila Beta'), name: 'Fila Beta' },
  ];
  const channels = [
    { id: await insertChannel(server, t.tenant.id, { name: 'Canal Um', type: 'waba' }), name: 'Canal Um', type: 'waba' },
    { id: await insertChannel(server, t.tenant.id, { name: 'Canal Dois', type: 'telegram' }), name: 'Canal Dois', type: 'telegram' },
  ];
  const agents = [];
  for (const n of [1, 2, 3]) {
    const u = await server.createUser(t.tenant.id, { name: `Agente ${n}` });
    agents.push({ id: u.id, name: `Agente ${n}`, email: u.email });
  }
  await setUserQueues(server, t.users.super.id, [queues[0].id]);
  return {
    world: { tenantId: t.tenant.id, timeZone: timeZone ?? 'America/Sao_Paulo', queues, channels, users: agents, tickets: [] },
    users: t.users,
  };
}

const refsOf = (w: SeedWorld) => ({ queues: w.queues.map((q) => q.id), channels: w.channels.map((c) => c.id), users: w.users.map((u) => u.id) });

beforeAll(async () => {
  server = await startTestServer();
  ({ world: main, users } = await seedWorld());
  [alfa, beta] = main.queues.map((q) => q.id);
  await insertSeed(server, main, generateTickets(prng(13), 400, new Date('2024-02-25T00:00:00Z'), new Date('2024-04-15T00:00:00Z'), refsOf(main)));
});
afterAll(async () => server?.close());

describe('every figure against the seeded data set', () => {
  it('answers an administrator with the whole tenant for a 30-day period', async () => {
    const got = await answers(users.admin.token, periodQuery(MONTH));
    const want = expected(main, MONTH, ALL);
    // The data set has something in every figure, so none of them holds by accident.
    const times = want.ticketsTimes[0];
    for (const n of [times.qtd_total_atendimentos, times.qtd_demanda_ativa, times.new_contacts, times.open, times.pending, times.resolved, times.messagesIn, times.messagesOut, times.ratings.count, times.firstResponse.samples, times.waiting.samples]) {
      expect(n).toBeGreaterThan(0);
    }
    expect(want.perUsers.length).toBe(3);
    expect(got).toEqual(want);
  });

  it('reads dd/MM/yyyy as yyyy-MM-dd', async () => {
    const iso = await answers(users.admin.token, periodQuery(MONTH));
    const br = await answers(users.admin.token, 'startDate=05/03/2024&endDate=03/04/2024');
    expect(br).toEqual(iso);
  });

  it('narrows to the queues asked for, in each spelling of the list', async () => {
    const want = expected(main, MONTH, { queueIds: [alfa], withoutQueue: false });
    expect(await answers(users.admin.token, periodQuery(MONTH, `&queuesIds=${alfa}`))).toEqual(want);
    expect(await answers(users.admin.token, periodQuery(MONTH, `&queuesIds[]=${alfa}`))).toEqual(want);
    const both = expected(main, MONTH, { queueIds: [alfa, beta], withoutQueue: false });
    expect(await answers(users.admin.token, periodQuery(MONTH, `&queuesIds=${alfa},${beta}`))).toEqual(both);
    expect(await answers(users.admin.token, periodQuery(MONTH, `&queuesIds=${alfa}&queuesIds=${beta}`))).toEqual(both);
  });

  it('answers a one-day period hour by hour', async () => {
    const day: Period = { startDate: '2024-03-20', endDate: '2024-03-20' };
    const got = await answers(users.admin.token, periodQuery(day));
    const want = expected(main, day, ALL);
    expect((want.ticketsEvolutionByPeriod as unknown[]).length).toBe(24);
    expect(got).toEqual(want);
  });

  it('per agent through the service function, with paging and an agent filter (the report reuses it)', async () => {
    const auth = { tenantId: main.tenantId, userId: users.admin.id, profile: 'admin' as const, email: users.admin.email, sessionId: 'test' };
    const all = new Reference(main, MONTH, ALL).perUsers();
    const first = await perUserStatistics(server.deps, auth, MONTH, { pageNumber: 1, pageSize: 2 });
    expect(first).toEqual({ rows: all.slice(0, 2), count: 3 });
    expect(await perUserStatistics(server.deps, auth, MONTH, { pageNumber: 2, pageSize: 2 })).toEqual({ rows: all.slice(2), count: 3 });
    expect(await perUserStatistics(server.deps, auth, MONTH, { pageNumber: 5, pageSize: 2 })).toEqual({ rows: [], count: 3 });
    const one = main.users[1].id;
    expect(await perUserStatistics(server.deps, auth, { ...MONTH, usersIds: [one] }, { pageNumber: 1, pageSize: 10 })).toEqual({
      rows: new Reference(main, MONTH, ALL).perUsers([one]),
      count: 1,
    });
  });
});

describe('supervisors follow the ticket visibility policy', () => {
  it('counts their queues and tickets without a queue; another queue asked for counts nothing', async () => {
    expect(await answers(users.super.token, periodQuery(MONTH))).toEqual(expected(main, MONTH, { queueIds: [alfa], withoutQueue: true }));
    const none = expected(main, MONTH, { queueIds: [], withoutQueue: false });
    expect((none.ticketsTimes[0] as { qtd_total_atendimentos: number }).qtd_total_atendimentos).toBe(0);
    expect(await answers(users.super.token, periodQuery(MONTH, `&queuesIds=${beta}`))).toEqual(none);
  });

  it('without administrator rights (supervisorAdmin on) only their queues, unless nullticket opens the rest', async () => {
    const t = await seedWorld();
    await insertSeed(server, t.world, generateTickets(prng(7), 120, new Date('2024-03-01T00:00:00Z'), new Date('2024-03-31T00:00:00Z'), refsOf(t.world)));
    const [a] = t.world.queues.map((q) => q.id);
    const period: Period = { startDate: '2024-03-01', endDate: '2024-03-31' };
    await setSettings(server, t.world.tenantId, { supervisorAdmin: 'enabled' });
    expect(await answers(t.users.super.token, periodQuery(period))).toEqual(expected(t.world, period, { queueIds: [a], withoutQueue: false }));
    await setSettings(server, t.world.tenantId, { nullticket: 'enabled' });
    expect(await answers(t.users.super.token, periodQuery(period))).toEqual(expected(t.world, period, { queueIds: [a], withoutQueue: true }));
  });
});

describe('days and hours in the tenant time zone', () => {
  const ticketAt = (iso: string, extra: Partial<SeedTicket> = {}): SeedTicket => {
    const createdAt = new Date(iso);
    return {
      createdAt,
      status: 'pending',
      queueId: null,
      channelId: null,
      userId: null,
      isActiveDemand: false,
      contactCreatedAt: createdAt,
      events: [{ kind: 'opened', at: createdAt, queueId: null, userId: null, value: null }],
      ...extra,
    };
  };

  it('America/New_York: midnight boundaries and both daylight-saving changes of 2024', async () => {
    const { world, users: ny } = await seedWorld('America/New_York');
    await insertSeed(server, world, [
      ticketAt('2024-03-10T04:59:59.999Z'), // 2024-03-09 23:59:59.999 EST
      ticketAt('2024-03-10T05:00:00.000Z'), // 2024-03-10 00:00 EST
      ticketAt('2024-03-10T06:59:00.000Z'), // 01:59 EST
      ticketAt('2024-03-10T07:00:00.000Z'), // 03:00 EDT: 02:00 never happened
      ticketAt('2024-03-11T03:59:59.000Z'), // 2024-03-10 23:59:59 EDT
      ticketAt('2024-03-11T04:00:00.000Z'), // 2024-03-11 00:00 EDT
      ticketAt('2024-11-03T05:30:00.000Z'), // 01:30 EDT
      ticketAt('2024-11-03T06:30:00.000Z'), // 01:30 EST, the repeated hour
      ticketAt('2024-11-04T04:59:00.000Z'), // 2024-11-03 23:59 EST
      ticketAt('2024-11-04T05:00:00.000Z'), // 2024-11-04 00:00 EST
    ]);
    await insertSeed(server, world, generateTickets(prng(99), 80, new Date('2024-03-08T00:00:00Z'), new Date('2024-03-13T00:00:00Z'), refsOf(world)));
    const days: Period = { startDate: '2024-03-09', endDate: '2024-03-11' };
    const spring: Period = { startDate: '2024-03-10', endDate: '2024-03-10' };
    const fall: Period = { startDate: '2024-11-03', endDate: '2024-11-03' };
    for (const p of [days, spring, fall, { startDate: '2024-11-03', endDate: '2024-11-04' }]) {
      expect(await answers(ny.admin.token, periodQuery(p))).toEqual(expected(world, p, ALL));
    }
    // The same facts, written down by hand: the spring day has 23 hours and no 02:00.
    const springHours = (await get(STATISTICS_PATHS.ticketsEvolutionByPeriod, ny.admin.token, periodQuery(spring))).body as { dt_referencia: string }[];
    expect(springHours).toHaveLength(23);
    expect(springHours.map((b) => b.dt_referencia)).not.toContain('2024-03-10T02:00');
    const fallHours = (await get(STATISTICS_PATHS.ticketsEvolutionByPeriod, ny.admin.token, periodQuery(fall))).body as { dt_referencia: string; qtd: number }[];
    expect(fallHours).toHaveLength(24);
    expect(fallHours.find((b) => b.dt_referencia === '2024-11-03T01:00')!.qtd).toBe(2);
    expect(fallHours.find((b) => b.dt_referencia === '2024-11-03T23:00')!.qtd).toBe(1);
    const hours = (await get(STATISTICS_PATHS.ticketsHours, ny.admin.token, periodQuery(fall))).body as { hour: number; qtd: number }[];
    expect(hours.filter((h) => h.qtd > 0)).toEqual([
      { hour: 1, qtd: 2 },
      { hour: 23, qtd: 1 },
    ]);
  });

  it('America/Sao_Paulo in 2018, when it still had daylight saving (the day that began at 01:00)', async () => {
    const { world, users: sp } = await seedWorld();
    await insertSeed(server, world, [
      ticketAt('2018-11-04T02:59:59.000Z'), // 2018-11-03 23:59:59 -03
      ticketAt('2018-11-04T03:00:00.000Z'), // 2018-11-04 01:00 -02 (00:00 never happened)
      ticketAt('2018-11-05T01:59:59.000Z'), // 2018-11-04 23:59:59 -02
      ticketAt('2018-11-05T02:00:00.000Z'), // 2018-11-05 00:00 -02
    ]);
    const day: Period = { startDate: '2018-11-04', endDate: '2018-11-04' };
    const got = await answers(sp.admin.token, periodQuery(day));
    expect(got).toEqual(expected(world, day, ALL));
    const buckets = got.ticketsEvolutionByPeriod as { dt_referencia: string; qtd: number }[];
    expect(buckets).toHaveLength(23);
    expect(buckets[0]).toMatchObject({ dt_referencia: '2018-11-04T01:00', qtd: 1 });
    expect(buckets[22]).toMatchObject({ dt_referencia: '2018-11-04T23:00', qtd: 1 });
    const three: Period = { startDate: '2018-11-03', endDate: '2018-11-05' };
    const perDay = (await get(STATISTICS_PATHS.ticketsEvolutionByPeriod, sp.admin.token, periodQuery(three))).body;
    expect(perDay.map((b: { qtd: number }) => b.qtd)).toEqual([1, 2, 1]);
    expect(perDay).toEqual(new Reference(world, three, ALL).evolution());
  });

  it('the setting accepts IANA names only', async () => {
    const token = users.admin.token;
    for (const bad of ['Foo/Bar', 'UTC-3', 'EST5EDT', '-03', 'America/Sao Paulo', '']) {
      const res = await server.request('PUT', '/settings/timeZone', { token, body: { value: bad } });
      expect(res.status, bad).toBe(400);
      expect(res.body.fields[0].path).toBe('value');
    }
    expect((await server.request('PUT', '/settings/timeZone', { token: users.super.token, body: { value: 'UTC' } })).status).toBe(403);
    const list = await server.request('GET', '/settings', { token });
    expect(list.body.find((s: { key: string }) => s.key === 'timeZone')).toEqual({ key: 'timeZone', value: 'America/Sao_Paulo' });
  });
});

describe('tenants, roles and bad queries', () => {
  const paths = Object.entries(STATISTICS_PATHS)
    .filter(([name]) => name !== 'perUsersDetail' && name !== 'dashTicketsQueues')
    .map(([, path]) => path);

  it("never counts another tenant's facts, nor answers about its queues", async () => {
    const other = await seedWorld();
    await insertSeed(server, other.world, generateTickets(prng(5), 60, new Date('2024-03-05T00:00:00Z'), new Date('2024-04-03T00:00:00Z'), refsOf(other.world)));
    // Each tenant's answers are its own data set's, the other tenant's rows notwithstanding.
    expect(await answers(other.users.admin.token, periodQuery(MONTH))).toEqual(expected(other.world, MONTH, ALL));
    expect(await answers(users.admin.token, periodQuery(MONTH))).toEqual(expected(main, MONTH, ALL));
    // The first tenant's queue, asked for by the second tenant, counts nothing.
    expect(await answers(other.users.admin.token, periodQuery(MONTH, `&queuesIds=${alfa}`))).toEqual(
      expected(other.world, MONTH, { queueIds: [], withoutQueue: false }),
    );
  });

  it('refuses agents on every call (403 ERR_NO_PERMISSION), even with a bad query, and callers without a token (401)', async () => {
    for (const path of paths) {
      for (const query of [periodQuery(MONTH), 'startDate=x']) {
        const res = await get(path, users.user.token, query);
        expect(res.status, path).toBe(403);
        expect(res.body).toMatchObject({ error: 'ERR_NO_PERMISSION', message: 'Você não tem permissão para acessar este recurso.' });
      }
      const anonymous = await server.request('GET', `${path}?${periodQuery(MONTH)}`);
      expect(anonymous.status, path).toBe(401);
    }
  });

  it('answers 400 ERR_VALIDATION naming the field, with the period messages', async () => {
    const cases: [string, string, string][] = [
      ['endDate=2024-03-01', 'startDate', 'Data inicial é obrigatório'],
      ['startDate=2024-03-01', 'endDate', 'Data final é obrigatório'],
      ['startDate=31/02/2024&endDate=2024-03-01', 'startDate', 'Data inválida'],
      ['startDate=2024-03-01&endDate=2024-13-01', 'endDate', 'Data inválida'],
      ['startDate=2024-3-1&endDate=2024-03-01', 'startDate', 'Data inválida'],
      ['startDate=2024-03-10&endDate=2024-03-01', 'endDate', 'A data final deve ser igual ou posterior à data inicial'],
      ['startDate=2024-01-01&endDate=2025-01-01', 'endDate', 'O período deve ter no máximo 366 dias'],
      ['startDate=2024-03-01&endDate=2024-03-02&queuesIds=abc', 'queuesIds.0', 'deve ser um id numérico entre 1 e 2147483647'],
      ['startDate=2024-03-01&endDate=2024-03-02&queuesIds=2147483648', 'queuesIds.0', 'deve ser um id numérico entre 1 e 2147483647'],
    ];
    for (const path of paths) {
      for (const [query, field, message] of cases) {
        const res = await get(path, users.admin.token, query);
        expect(res.status, `${path}?${query}`).toBe(400);
        expect(res.body.error).toBe('ERR_VALIDATION');
        expect(res.body.fields, `${path}?${query}`).toContainEqual({ path: field, message });
      }
    }
    // A leap year's 366 days are allowed.
    expect((await get(STATISTICS_PATHS.ticketsTimes, users.admin.token, 'startDate=2024-01-01&endDate=2024-12-31')).status).toBe(200);
  });
});
