import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_IDS, type ReportPage } from '@shared/schemas/reports';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { setSettings, setUserQueues } from '../tickets/tickets.test-support';
import {
  byName,
  createdAtOf,
  inMarchSaoPaulo,
  median,
  ratedAt,
  seedReportWorld,
  type ContactModel,
  type ReportWorld,
  type TicketModel,
} from './reports.test-support';

/**
 * Reports through the real app and database: every report's rows, count and totals against the
 * seeded world, computed here from its model; the period's edges in the tenant's time zone; the
 * filters; the visibility policy; another tenant; the roles; every validation message.
 */

let server: TestServer;
let w: ReportWorld;
let other: ReportWorld;
const MARCH = 'startDate=01/03/2025&endDate=31/03/2025';

beforeAll(async () => {
  server = await startTestServer();
  w = await seedReportWorld(server);
  // Another tenant with the same kind of data: none of it may ever show in w's reports.
  other = await seedReportWorld(server);
}, 120_000);
afterAll(async () => server?.close());

const get = async (url: string, token = w.users.admin.token) => server.request<ReportPage>('GET', url, { token });
const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.id);

const STATUS: Record<string, string> = { open: 'Aberto', pending: 'Pendente', closed: 'Resolvido' };
const iso = (at: string | undefined, plusMinutes = 0) => (at ? new Date(Date.parse(at) + plusMinutes * 60_000).toISOString() : null);

/** The tickets of March (São Paulo) in Vendas or Suporte matching `pred`, newest first. */
function expectedTickets(pred: (k: TicketModel) => boolean = () => true): TicketModel[] {
  return w.tickets
    .filter((k) => inMarchSaoPaulo(k.createdAt) && ['Vendas', 'Suporte'].includes(k.queue) && pred(k))
    .sort((a, b) => createdAtOf(b) - createdAtOf(a) || b.id - a.id);
}

const contactOf = (k: TicketModel) => w.contacts.find((c) => c.name === k.contact)!;

function ticketRow(k: TicketModel) {
  return {
    id: k.id,
    protocol: k.protocol,
    contactName: k.contact,
    contactNumber: contactOf(k).number,
    queue: k.queue,
    user: k.user,
    channel: k.channel,
    status: STATUS[k.status],
    createdAt: iso(k.createdAt),
    closedAt: k.closedAfter !== undefined ? iso(k.createdAt, k.closedAfter) : null,
    rating: k.rating ?? null,
    demand: k.demand ?? null,
  };
}

const tickets = (query = '') =>
  `/reports/atendimentos-por-parametros?${MARCH}&queuesIds=${w.queues.Vendas},${w.queues.Suporte}${query}`;

describe('atendimentos-por-parametros', () => {
  it('lists the tickets created within the days of the period in São Paulo, newest first, with the totals', async () => {
    const res = await get(tickets());
    expect(res.status).toBe(200);
    const expected = expectedTickets();
    // The seconds at both edges: 00:00:00 of 01/03 is in, 23:59:59 of 28/02 is out, 23:59:59 of 31/03 is in, 00:00 of 01/04 out.
    expect(expected.map((k) => k.key)).toEqual(['t4', 't8', 't3', 't2', 't1']);
    expect(res.body.rows).toEqual(expected.map(ticketRow));
    expect(res.body.count).toBe(expected.length);
    expect(res.body.hasMore).toBe(false);
    expect(res.body.columns.map((c) => c.label)).toEqual([
      'ID', 'Protocolo', 'Contato', 'Número', 'Fila', 'Usuário', 'Conexão', 'Status', 'Criado em', 'Resolvido em', 'Avaliação', 'Motivo',
    ]);
    const rated = expected.filter((k) => k.rating !== undefined).map((k) => k.rating!);
    const byStatus = (s: string) => expected.filter((k) => k.status === s).length;
    expect(res.body.totals).toEqual({
      protocol: 'Total',
      contactName: `${expected.length} atendimentos`,
      status: `Aberto: ${byStatus('open')} · Pendente: ${byStatus('pending')} · Resolvido: ${byStatus('closed')}`,
      rating: rated.reduce((a, b) => a + b, 0) / rated.length,
    });
  });

  it('pages by pageNumber and pageSize', async () => {
    const expected = expectedTickets().map((k) => k.id);
    const first = await get(tickets('&pageSize=2'));
    const second = await get(tickets('&pageSize=2&pageNumber=2'));
    const third = await get(tickets('&pageSize=2&pageNumber=3'));
    expect([first, second, third].map((r) => r.body.hasMore)).toEqual([true, true, false]);
    expect([...ids(first.body.rows), ...ids(second.body.rows), ...ids(third.body.rows)]).toEqual(expected);
    expect(third.body.count).toBe(expected.length);
  });

  it.each([
    ['usersIds (Ana)', () => `&usersIds=${w.people.Ana}`, (k: TicketModel) => k.user === 'Ana'],
    ['status closed', () => '&status=closed', (k: TicketModel) => k.status === 'closed'],
    ['status open,pending', () => '&status=open,pending', (k: TicketModel) => k.status !== 'closed'],
    ['channelsIds (Telegram)', () => `&channelsIds=${w.channels.Telegram}`, (k: TicketModel) => k.channel === 'Telegram'],
    ['tagsIds (contact tagged VIP)', () => `&tagsIds=${w.tags.VIP}`, (k: TicketModel) => contactOf(k).tags.includes('VIP')],
    ['demandsIds (Compra)', () => `&demandsIds=${w.demands.Compra}`, (k: TicketModel) => k.demand === 'Compra'],
    ['ratings 4 and 5', () => '&ratings=4,5', (k: TicketModel) => k.rating === 4 || k.rating === 5],
    ['ratings 0 (none in the period)', () => '&ratings[]=0', (k: TicketModel) => k.rating === 0],
    ['isActiveDemand true (started by the company)', () => '&isActiveDemand=true', (k: TicketModel) => k.openedBy !== undefined],
    ['isActiveDemand false', () => '&isActiveDemand=false', (k: TicketModel) => k.openedBy === undefined],
    ['queue Suporte only', () => '', (k: TicketModel) => k.queue === 'Suporte'],
  ])('filters by %s', async (label, query, pred) => {
    const url =
      label === 'queue Suporte only'
        ? `/reports/atendimentos-por-parametros?${MARCH}&queuesIds[]=${w.queues.Suporte}`
        : tickets(query());
    const res = await get(url);
    expect(res.status).toBe(200);
    const expected = expectedTickets(pred);
    expect(ids(res.body.rows)).toEqual(expected.map((k) => k.id));
    expect(res.body.count).toBe(expected.length);
  });

  it('accepts yyyy-MM-dd days, and a one-day period holds that day only', async () => {
    const res = await get(`/reports/atendimentos-por-parametros?startDate=2025-03-01&endDate=2025-03-01&queuesIds=${w.queues.Vendas}`);
    expect(res.status).toBe(200);
    expect(res.body.rows.map((r) => r.protocol)).toEqual([w.tickets.find((k) => k.key === 't1')!.protocol]);
  });

  it('shows a supervisor without administrator rights (supervisorAdmin) only the tickets the visibility policy lets them see', async () => {
    const all = await get(tickets(), w.users.super.token);
    expect(ids(all.body.rows)).toEqual(expectedTickets().map((k) => k.id));
    await setUserQueues(server, w.users.super.id, [w.queues.Suporte]);
    await setSettings(server, w.tenant.id, { supervisorAdmin: 'enabled' });
    try {
      const limited = await get(tickets(), w.users.super.token);
      expect(limited.status).toBe(200);
      const expected = expectedTickets((k) => k.queue === 'Suporte');
      expect(ids(limited.body.rows)).toEqual(expected.map((k) => k.id));
      expect(limited.body.count).toBe(expected.length);
      // The per-user statistics read the same tickets.
      const stats = await get(`/reports/estatisticas-atendimentos-usuarios?${MARCH}&queuesIds=${w.queues.Vendas},${w.queues.Suporte}`, w.users.super.token);
      expect(stats.body.totals?.ticketsHandled).toBe(expected.filter((k) => k.user).length);
      // The administrator still sees everything.
      expect((await get(tickets())).body.count).toBe(expectedTickets().length);
    } finally {
      await setSettings(server, w.tenant.id, { supervisorAdmin: 'disabled' });
    }
  });
});

describe('estatisticas-atendimentos-usuarios', () => {
  /**
   * Computed from the model: what happened in the period (March in São Paulo) in the chosen
   * queues, per user: assignments (a ticket created for its agent), resolutions (the closing),
   * first responses (the ticket's first agent reply, to its author), replies and ratings (at the
   * closing), each counted when it happened within the period.
   */
  function expectedStats(queues = ['Vendas', 'Suporte']) {
    const mine = w.tickets.filter((k) => queues.includes(k.queue));
    const at = (k: TicketModel, minutes: number) => new Date(createdAtOf(k) + minutes * 60_000).toISOString();
    const replies = (k: TicketModel) => k.messages.filter((m) => m.fromMe && m.user && !m.isPrivate);
    const handled = (name: string) => mine.filter((k) => k.user === name && inMarchSaoPaulo(k.createdAt));
    const resolved = (name: string) =>
      mine.filter((k) => k.user === name && k.status === 'closed' && k.closedAfter !== undefined && inMarchSaoPaulo(at(k, k.closedAfter)));
    // A ticket the company started (opened by an agent, or whose first message is ours) has nothing to respond to.
    const startedByUs = (k: TicketModel) => !!k.openedBy || [...k.messages].sort((a, b) => a.at - b.at)[0]?.fromMe === true;
    const firstReplies = (name: string) =>
      mine
        .filter((k) => !startedByUs(k) && replies(k).length > 0)
        .map((k) => ({ k, m: replies(k).reduce((a, b) => (b.at < a.at ? b : a)) }))
        .filter(({ k, m }) => m.user === name && inMarchSaoPaulo(at(k, m.at)))
        .map(({ m }) => m.at * 60);
    const sent = (name: string) => mine.flatMap((k) => replies(k).filter((m) => m.user === name && inMarchSaoPaulo(at(k, m.at)))).length;
    const rated = (name: string) => mine.filter((k) => k.user === name && k.rating !== undefined && inMarchSaoPaulo(ratedAt(k))).map((k) => k.rating!);
    const stats = (names: string[]) => {
      const ratings = names.flatMap(rated);
      return {
        ticketsHandled: names.flatMap(handled).length,
        ticketsResolved: names.flatMap(resolved).length,
        messagesSent: names.reduce((n, name) => n + sent(name), 0),
        firstResponseMedian: median(names.flatMap(firstReplies)),
        resolutionMedian: median(names.flatMap(resolved).map((k) => k.closedAfter! * 60)),
        ratingsCount: ratings.length,
        ratingsAverage: ratings.length ? ratings.reduce((a, b) => a + b, 0) / ratings.length : null,
      };
    };
    const people = [
      { id: w.users.admin.id, name: 'Zé Admin', email: w.users.admin.email },
      { id: w.users.super.id, name: 'Supervisora', email: w.users.super.email },
      { id: w.users.user.id, name: 'agente', email: w.users.user.email },
      ...['Ana', 'Bruno'].map((name) => ({ id: w.people[name], name, email: expect.any(String) })),
    ].sort(byName);
    const rows = people.map((p) => ({ userId: p.id, userName: p.name, email: p.email, ...stats([p.name]) }));
    return { rows, totals: { userName: 'Total', email: null, ...stats(people.map((p) => p.name)) } };
  }

  it('answers one row per user with tickets handled and resolved, messages sent, medians and ratings, and the totals', async () => {
    const res = await get(`/reports/estatisticas-atendimentos-usuarios?${MARCH}&queuesIds=${w.queues.Vendas},${w.queues.Suporte}`);
    expect(res.status).toBe(200);
    const expected = expectedStats();
    expect(res.body.rows).toEqual(expected.rows);
    expect(res.body.totals).toEqual(expected.totals);
    expect(res.body.count).toBe(expected.rows.length);
    // The figures the model gives, written out. Ana: assigned t1 and t2; resolved t1, t2 and t5 (created on 28/02,
    // closed on 01/03: 2 h, 1 h, 10 min); 4 replies; first response only on t2 (5 min: she started t1, and t5
    // began with our message); rated 5, 3 and 1. Bruno: assigned t3 and t8; resolved t8 (3 h); first responses
    // 20 and 40 min.
    const ana = res.body.rows.find((r) => r.userName === 'Ana')!;
    expect(ana).toMatchObject({ ticketsHandled: 2, ticketsResolved: 3, messagesSent: 4, firstResponseMedian: 300, resolutionMedian: 3600, ratingsAverage: 3 });
    const bruno = res.body.rows.find((r) => r.userName === 'Bruno')!;
    expect(bruno).toMatchObject({ ticketsHandled: 2, ticketsResolved: 1, messagesSent: 4, firstResponseMedian: 1800, resolutionMedian: 10800 });
    expect(res.body.totals).toMatchObject({ ticketsHandled: 4, ticketsResolved: 4, firstResponseMedian: 1200, resolutionMedian: 5400, ratingsCount: 4 });
  });

  it('restricts the rows to usersIds and the tickets to the chosen queues', async () => {
    const res = await get(`/reports/estatisticas-atendimentos-usuarios?${MARCH}&queuesIds=${w.queues.Vendas}&usersIds=${w.people.Ana}`);
    expect(res.status).toBe(200);
    const expected = expectedStats(['Vendas']);
    expect(res.body.rows).toEqual(expected.rows.filter((r) => r.userName === 'Ana'));
    expect(res.body.totals?.ticketsHandled).toBe(expected.rows.find((r) => r.userName === 'Ana')!.ticketsHandled);
    expect(res.body.totals?.messagesSent).toBe(expected.rows.find((r) => r.userName === 'Ana')!.messagesSent);
  });

  it('pages the users', async () => {
    const all = (await get(`/reports/estatisticas-atendimentos-usuarios?${MARCH}&queuesIds=${w.queues.Vendas}`)).body.rows;
    const page2 = await get(`/reports/estatisticas-atendimentos-usuarios?${MARCH}&queuesIds=${w.queues.Vendas}&pageSize=2&pageNumber=2`);
    expect(page2.body.rows).toEqual(all.slice(2, 4));
    expect(page2.body.hasMore).toBe(true);
  });
});

describe('contact reports', () => {
  const inMarch = (c: ContactModel) => inMarchSaoPaulo(c.createdAt) && !c.isGroup;
  const expectedContacts = (pred: (c: ContactModel) => boolean) => w.contacts.filter((c) => inMarch(c) && pred(c)).sort(byName);
  const sortedJoin = (names: string[]) => (names.length ? [...names].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)).join(', ') : null);
  const contactRow = (c: ContactModel) => ({
    id: c.id,
    name: c.name,
    number: c.number,
    email: c.email,
    state: c.state,
    tags: sortedJoin(c.tags),
    wallets: sortedJoin(c.wallets),
    kanban: c.kanban,
    createdAt: new Date(c.createdAt).toISOString(),
  });
  /** 'Group: n · Group: n', most contacts first, then by name. */
  const groupTotals = (groups: string[], of: (c: ContactModel) => string[], rows: ContactModel[]) =>
    groups
      .map((g) => ({ g, n: rows.filter((c) => of(c).includes(g)).length }))
      .filter((x) => x.n > 0)
      .sort((a, b) => b.n - a.n || (a.g < b.g ? -1 : 1))
      .map((x) => `${x.g}: ${x.n}`)
      .join(' · ');

  it('lista-contatos: the contacts created within the period (no groups), in name order, with state, tags, wallet and kanban', async () => {
    const res = await get(`/reports/lista-contatos?${MARCH}`);
    expect(res.status).toBe(200);
    const expected = expectedContacts(() => true);
    expect(expected.map((c) => c.name)).toEqual(['Alice', 'Bruno Contato', 'Carla', 'Eva', 'fabio']);
    expect(res.body.rows).toEqual(expected.map(contactRow));
    expect(res.body.count).toBe(expected.length);
    expect(res.body.totals).toBeUndefined();
  });

  it.each([
    ['tagsIds', () => `&tagsIds=${w.tags.VIP}`, (c: ContactModel) => c.tags.includes('VIP')],
    ['walletsIds', () => `&walletsIds=${w.people.Bruno}`, (c: ContactModel) => c.wallets.includes('Bruno')],
    ['search', () => '&search=CAR', (c: ContactModel) => c.name.toLowerCase().includes('car')],
    ['search by number digits', () => '&search=9876-50002', (c: ContactModel) => (c.number ?? '').includes('987650002')],
    ['queuesIds (a ticket in the queue)', () => `&queuesIds=${w.queues.Suporte}`, (c: ContactModel) =>
      w.tickets.some((k) => k.contact === c.name && k.queue === 'Suporte')],
  ])('lista-contatos filters by %s', async (_label, query, pred) => {
    const res = await get(`/reports/lista-contatos?${MARCH}${query()}`);
    expect(res.status).toBe(200);
    expect(ids(res.body.rows)).toEqual(expectedContacts(pred).map((c) => c.id));
  });

  it('contatos-por-etiquetas: contacts with any chosen tag, and how many per tag', async () => {
    const res = await get(`/reports/contatos-por-etiquetas?${MARCH}&tagsIds=${w.tags.VIP},${w.tags.Ouro}`);
    expect(res.status).toBe(200);
    const expected = expectedContacts((c) => c.tags.some((t) => ['VIP', 'Ouro'].includes(t)));
    expect(res.body.rows).toEqual(expected.map(contactRow));
    expect(res.body.columns.map((c) => c.key)).toEqual(['name', 'number', 'email', 'tags', 'createdAt']);
    expect(res.body.count).toBe(expected.length);
    expect(res.body.totals).toEqual({ name: 'Total', tags: groupTotals(['VIP', 'Ouro'], (c) => c.tags, expected) });
  });

  it('contatos-por-estado: contacts whose number has an area code of a chosen state (numbers stored with 55)', async () => {
    const res = await get(`/reports/contatos-por-estado?${MARCH}&states=SP,DF`);
    expect(res.status).toBe(200);
    const expected = expectedContacts((c) => c.state === 'SP' || c.state === 'DF');
    expect(expected.map((c) => c.name)).toEqual(['Alice', 'Carla', 'fabio']);
    expect(res.body.rows.map((r) => [r.id, r.state])).toEqual(expected.map((c) => [c.id, c.state]));
    expect(res.body.totals).toEqual({ name: 'Total', state: groupTotals(['SP', 'DF', 'RJ'], (c) => (c.state ? [c.state] : []), expected) });
    const rj = await get(`/reports/contatos-por-estado?${MARCH}&states[]=RJ`);
    expect(rj.body.rows.map((r) => r.name)).toEqual(['Bruno Contato']);
    const none = await get(`/reports/contatos-por-estado?${MARCH}&states=AC`);
    expect(none.body).toMatchObject({ rows: [], count: 0, hasMore: false });
  });

  it('contatos-por-kanban and contatos-por-carteira: contacts in the chosen columns / of the chosen owners, counted per group', async () => {
    const kanban = await get(`/reports/contatos-por-kanban?${MARCH}&kanbanIds=${w.kanbans.Novo}`);
    const expectedK = expectedContacts((c) => c.kanban === 'Novo');
    expect(ids(kanban.body.rows)).toEqual(expectedK.map((c) => c.id));
    expect(kanban.body.totals).toEqual({ name: 'Total', kanban: `Novo: ${expectedK.length}` });

    const wallet = await get(`/reports/contatos-por-carteira?${MARCH}&walletsIds=${w.people.Ana},${w.people.Bruno}`);
    const expectedW = expectedContacts((c) => c.wallets.some((o) => o === 'Ana' || o === 'Bruno'));
    expect(ids(wallet.body.rows)).toEqual(expectedW.map((c) => c.id));
    expect(wallet.body.count).toBe(expectedW.length);
    expect(wallet.body.totals).toEqual({ name: 'Total', wallets: groupTotals(['Ana', 'Bruno'], (c) => c.wallets, expectedW) });
  });

  it('GET /contacts-report answers lista-contatos under the anchor\'s `contacts`, with its filter names (tags, ddds)', async () => {
    const res = await server.request('GET', `/contacts-report?${MARCH}&tags[]=${w.tags.VIP}&ddds[]=SP`, { token: w.users.super.token });
    expect(res.status).toBe(200);
    const expected = expectedContacts((c) => c.tags.includes('VIP') && c.state === 'SP');
    expect(res.body).toEqual({ contacts: expected.map(contactRow), count: expected.length, hasMore: false, pageNumber: 1, pageSize: 50 });
  });
});

describe('time zone of the tenant', () => {
  it('counts days in the tenant\'s timeZone setting: a daylight-saving day of New York is 23 hours', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    await setSettings(server, tenant.id, { timeZone: 'America/New_York' });
    // 9 March 2025: clocks go from 02:00 EST to 03:00 EDT; the day runs from 05:00Z to 04:00Z next day.
    const times = ['2025-03-09T04:59:59Z', '2025-03-09T05:00:00Z', '2025-03-10T03:59:59Z', '2025-03-10T04:00:00Z'];
    for (const [i, at] of times.entries()) {
      await server.deps.dataSource.query(`INSERT INTO contacts ("tenantId", name, number, "createdAt") VALUES ($1, $2, $3, $4)`, [
        tenant.id,
        `C${i}`,
        `551198765000${i}`,
        at,
      ]);
    }
    const res = await get('/reports/lista-contatos?startDate=09/03/2025&endDate=09/03/2025', users.admin.token);
    expect(res.body.rows.map((r) => r.name)).toEqual(['C1', 'C2']);
    // An unknown zone is ignored: São Paulo (UTC-3) days.
    await setSettings(server, tenant.id, { timeZone: 'Mars/Olympus' });
    const sp = await get('/reports/lista-contatos?startDate=09/03/2025&endDate=09/03/2025', users.admin.token);
    expect(sp.body.rows.map((r) => r.name)).toEqual(['C0', 'C1']);
  });
});

describe('tenants, roles and bad input', () => {
  it("never shows another tenant's rows, even with that tenant's ids", async () => {
    const mine = await get(tickets());
    const theirs = new Set(other.tickets.map((k) => k.id));
    expect(mine.body.rows.some((r) => theirs.has(r.id as number))).toBe(false);
    const foreign = await get(`/reports/atendimentos-por-parametros?${MARCH}&queuesIds=${other.queues.Vendas},${other.queues.Suporte}`);
    expect(foreign.status).toBe(200);
    expect(foreign.body).toMatchObject({ rows: [], count: 0 });
    const foreignTag = await get(`/reports/contatos-por-etiquetas?${MARCH}&tagsIds=${other.tags.VIP}`);
    expect(foreignTag.body).toMatchObject({ rows: [], count: 0, totals: { name: 'Total', tags: '' } });
    const stats = await get(`/reports/estatisticas-atendimentos-usuarios?${MARCH}&queuesIds=${w.queues.Vendas}`);
    expect(stats.body.rows.map((r) => r.userId)).not.toContain(other.people.Ana);
    const list = await get(`/reports/lista-contatos?${MARCH}&pageSize=200`);
    const otherContacts = new Set(other.contacts.map((c) => c.id));
    expect(list.body.rows.some((r) => otherContacts.has(r.id as number))).toBe(false);
    // The other tenant sees its own, the same shape.
    const otherOwn = await get(`/reports/atendimentos-por-parametros?${MARCH}&queuesIds=${other.queues.Vendas},${other.queues.Suporte}`, other.users.admin.token);
    expect(otherOwn.body.count).toBe(mine.body.count);
    expect(otherOwn.body.rows.every((r) => theirs.has(r.id as number))).toBe(true);
  });

  it('refuses an agent on every report call, whatever the query (403 ERR_NO_PERMISSION)', async () => {
    const urls = [
      ...REPORT_IDS.flatMap((id) => [`/reports/${id}?${MARCH}&queuesIds=${w.queues.Vendas}`, `/reports/${id}/export?${MARCH}&format=csv`, `/reports/${id}?pageSize=abc`]),
      `/contacts-report?${MARCH}`,
      '/contacts-report',
    ];
    for (const url of urls) {
      const res = await get(url, w.users.user.token);
      expect({ url, status: res.status, error: (res.body as any)?.error }).toEqual({ url, status: 403, error: 'ERR_NO_PERMISSION' });
    }
    const anonymous = await server.request('GET', `/reports/lista-contatos?${MARCH}`);
    expect(anonymous.status).toBe(401);
  });

  it('answers an unknown report 404', async () => {
    const res = await get(`/reports/relatorio-inexistente?${MARCH}`);
    expect(res.status).toBe(404);
    expect((res.body as any).error).toBe('ERR_NOT_FOUND');
  });

  const fieldsOf = (res: { body: any }) => Object.fromEntries((res.body.fields as { path: string; message: string }[]).map((f) => [f.path, f.message]));

  it('requires both days with their messages, and says "Data inválida" for anything that is not a day', async () => {
    const none = await get(`/reports/lista-contatos`);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(fieldsOf(none)).toEqual({ startDate: 'Data inicial é obrigatório', endDate: 'Data final é obrigatório' });
    const empty = await get(`/reports/lista-contatos?startDate=&endDate=`);
    expect(fieldsOf(empty)).toEqual({ startDate: 'Data inicial é obrigatório', endDate: 'Data final é obrigatório' });
    for (const bad of ['31/02/2025', '2025-13-01', '1/3/2025', 'ontem', '01-03-2025', '2025-03-01T00:00:00Z']) {
      const res = await get(`/reports/lista-contatos?startDate=${encodeURIComponent(bad)}&endDate=31/03/2025`);
      expect({ bad, status: res.status, fields: fieldsOf(res) }).toEqual({ bad, status: 400, fields: { startDate: 'Data inválida' } });
    }
    const reversed = await get(`/reports/lista-contatos?startDate=31/03/2025&endDate=01/03/2025`);
    expect(fieldsOf(reversed)).toEqual({ endDate: 'A data final deve ser igual ou posterior à data inicial' });
    const long = await get(`/reports/lista-contatos?startDate=01/01/2024&endDate=02/01/2025`);
    expect(fieldsOf(long)).toEqual({ endDate: 'O período deve ter no máximo 366 dias' });
  });

  it('requires queues in the two ticket reports, and one selection in the wallet, state, tag and kanban reports', async () => {
    for (const id of ['atendimentos-por-parametros', 'estatisticas-atendimentos-usuarios']) {
      for (const q of ['', '&queuesIds=', '&queuesIds[]=']) {
        const res = await get(`/reports/${id}?${MARCH}${q}`);
        expect(res.status).toBe(400);
        expect(fieldsOf(res)).toEqual({ queuesIds: 'Selecione ao menos uma fila' });
      }
      const exp = await get(`/reports/${id}/export?${MARCH}&format=pdf`);
      expect(fieldsOf(exp)).toEqual({ queuesIds: 'Selecione ao menos uma fila' });
    }
    const selections: [string, string, string][] = [
      ['contatos-por-etiquetas', 'tagsIds', 'Selecione ao menos uma etiqueta'],
      ['contatos-por-estado', 'states', 'Selecione ao menos um estado'],
      ['contatos-por-kanban', 'kanbanIds', 'Selecione ao menos um kanban'],
      ['contatos-por-carteira', 'walletsIds', 'Selecione ao menos uma carteira'],
    ];
    for (const [id, field, message] of selections) {
      const res = await get(`/reports/${id}?${MARCH}`);
      expect({ id, status: res.status, fields: fieldsOf(res) }).toEqual({ id, status: 400, fields: { [field]: message } });
      const exp = await get(`/reports/${id}/export?${MARCH}&format=xlsx&${field}=`);
      expect(fieldsOf(exp)).toEqual({ [field]: message });
    }
  });

  it('answers malformed queries 400 naming the field', async () => {
    const cases: [string, string][] = [
      [`/reports/atendimentos-por-parametros?${MARCH}&queuesIds=abc`, 'queuesIds'],
      [`/reports/atendimentos-por-parametros?${MARCH}&queuesIds=2147483648`, 'queuesIds'],
      [`/reports/atendimentos-por-parametros?${MARCH}&queuesIds=1&status=archived`, 'status'],
      [`/reports/atendimentos-por-parametros?${MARCH}&queuesIds=1&ratings=6`, 'ratings'],
      [`/reports/atendimentos-por-parametros?${MARCH}&queuesIds=1&isActiveDemand=maybe`, 'isActiveDemand'],
      [`/reports/contatos-por-estado?${MARCH}&states=XX`, 'states'],
      [`/reports/lista-contatos?${MARCH}&pageSize=500`, 'pageSize'],
      [`/reports/lista-contatos?${MARCH}&pageNumber=0`, 'pageNumber'],
      [`/reports/lista-contatos?${MARCH}&pageNumber=1.5`, 'pageNumber'],
      [`/reports/lista-contatos?${MARCH}&search=${'x'.repeat(101)}`, 'search'],
      [`/reports/lista-contatos?${MARCH}&search=a%00b`, 'search'],
      [`/reports/lista-contatos/export?${MARCH}&format=docx`, 'format'],
      [`/reports/lista-contatos/export?${MARCH}`, 'format'],
      [`/contacts-report?${MARCH}&ddds=ZZ`, 'states'],
    ];
    for (const [url, field] of cases) {
      const res = await get(url);
      expect({ url, status: res.status, error: (res.body as any).error }).toEqual({ url, status: 400, error: 'ERR_VALIDATION' });
      expect(Object.keys(fieldsOf(res)).some((p) => p === field || p.startsWith(`${field}.`)), `${url} names ${field}: ${JSON.stringify(res.body)}`).toBe(true);
    }
    const format = await get(`/reports/lista-contatos/export?${MARCH}&format=docx`);
    expect(fieldsOf(format).format).toBe('formato deve ser csv, xlsx ou pdf');
    const ratings = await get(`/reports/atendimentos-por-parametros?${MARCH}&queuesIds=1&ratings=6`);
    expect(Object.values(fieldsOf(ratings))).toContain('avaliação de 0 a 5');
  });
});
