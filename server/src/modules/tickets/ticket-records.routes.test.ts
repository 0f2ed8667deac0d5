import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotePage, NoteRow, ProtocolPage, ProtocolRow } from '@shared/schemas/ticket-records';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { insertContact, insertTicket, setSettings, ticketWorld, type TicketWorld } from './tickets.test-support';

/**
 * GET /protocol and GET /tickets/notes (issue #14 item 9) through the real app and database: the
 * rows of a seeded world computed here from its model (order, names, dates), the period's edges
 * in the tenant's time zone (São Paulo), the search, the paging, another tenant, the visibility
 * policy, the roles and the validation messages.
 */

const unique = () => randomBytes(4).toString('hex');

interface TicketModel {
  key: string;
  id: number;
  protocol: string | null;
  status: 'open' | 'pending' | 'closed';
  queue: 'A' | 'B';
  contactId: number;
  contactName: string;
  userId: number | null;
  userName: string | null;
  createdAt: string;
}

interface NoteModel {
  id: number;
  ticket: TicketModel;
  note: string;
  userId: number;
  userName: string;
  createdAt: string;
}

interface World {
  w: TicketWorld;
  tickets: TicketModel[];
  notes: NoteModel[];
}

let server: TestServer;
let a: World;
let b: World;

/**
 * One tenant: agents renamed so their names can be searched; tickets in queues A and B created
 * around March 2025 in São Paulo (UTC-3): 01/03 00:00 local is 03:00Z, 31/03 23:59:59 local is
 * 01/04 02:59:59Z. One ticket has no protocol (never listed).
 */
async function seedWorld(): Promise<World> {
  const w = await ticketWorld(server);
  const tag = unique();
  const names: Record<number, string> = {
    [w.users.admin.id]: `Márcia Admin ${tag}`,
    [w.users.super.id]: `Sérgio Super ${tag}`,
    [w.users.user.id]: `Ana Agente ${tag}`,
    [w.other.id]: `Otávio Outro ${tag}`,
  };
  for (const [id, name] of Object.entries(names)) {
    await server.deps.dataSource.query(`UPDATE users SET name = $2 WHERE id = $1`, [Number(id), name]);
  }
  const contact = async (name: string, number: string) => ({ id: await insertContact(server, w.tenant.id, name, number), name });
  const number = (area: string) => `55${area}9${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const joao = await contact(`João Conceição ${tag}`, number('11'));
  const maria = await contact(`Maria Silva ${tag}`, number('21'));
  const pedro = await contact(`Pedro Lima ${tag}`, number('31'));

  const plan: [string, TicketModel['status'], 'A' | 'B', { id: number; name: string }, number | null, string, boolean][] = [
    ['feb-last', 'closed', 'A', joao, w.users.user.id, '2025-03-01T02:59:59.000Z', true],
    ['mar-first', 'closed', 'A', maria, w.users.admin.id, '2025-03-01T03:00:00.000Z', true],
    ['mar-mid', 'open', 'B', pedro, w.other.id, '2025-03-15T12:00:00.000Z', true],
    ['mar-mid-2', 'pending', 'A', joao, null, '2025-03-15T12:00:00.000Z', true],
    ['mar-last', 'open', 'B', maria, null, '2025-04-01T02:59:59.000Z', true],
    ['apr-first', 'closed', 'A', pedro, w.users.super.id, '2025-04-01T03:00:00.000Z', true],
    ['no-protocol', 'closed', 'A', joao, w.users.user.id, '2025-03-10T12:00:00.000Z', false],
  ];
  const tickets: TicketModel[] = [];
  const notes: NoteModel[] = [];
  for (const [key, status, queue, c, userId, createdAt, withProtocol] of plan) {
    const protocol = withProtocol ? `2025${unique()}${tickets.length}` : null;
    const id = await insertTicket(server, w.tenant.id, {
      contactId: c.id,
      status,
      queueId: queue === 'A' ? w.queueA : w.queueB,
      userId,
      whatsappId: w.channel,
      protocol,
    });
    await server.deps.dataSource.query(`UPDATE tickets SET "createdAt" = $2 WHERE id = $1`, [id, createdAt]);
    const model: TicketModel = {
      key,
      id,
      protocol,
      status,
      queue,
      contactId: c.id,
      contactName: c.name,
      userId,
      userName: userId === null ? null : names[userId],
      createdAt,
    };
    tickets.push(model);
  }
  const byKey = (key: string) => tickets.find((t) => t.key === key)!;
  const notePlan: [string, string, number, string][] = [
    ['feb-last', `Cliente pediu orçamento ${tag}`, w.users.user.id, '2025-03-01T02:59:59.000Z'],
    ['mar-first', `Ligação às 10h, sem resposta ${tag}`, w.users.admin.id, '2025-03-01T03:00:00.000Z'],
    ['mar-mid', `Troca de endereço ${tag}`, w.other.id, '2025-03-20T12:00:00.000Z'],
    ['mar-mid', `Endereço confirmado ${tag}`, w.other.id, '2025-03-20T12:00:00.000Z'],
    ['mar-mid-2', `Aguardando ATUALIZAÇÃO do sistema ${tag}`, w.users.super.id, '2025-04-01T02:59:59.000Z'],
    ['apr-first', `Nota de abril ${tag}`, w.users.super.id, '2025-04-01T03:00:00.000Z'],
    ['no-protocol', `Nota sem protocolo ${tag}`, w.users.user.id, '2025-03-10T12:00:00.000Z'],
  ];
  for (const [key, note, userId, createdAt] of notePlan) {
    const ticket = byKey(key);
    const [row] = await server.deps.dataSource.query(
      `INSERT INTO ticket_notes ("tenantId", "ticketId", "userId", note, "createdAt") VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [w.tenant.id, ticket.id, userId, note, createdAt],
    );
    notes.push({ id: row.id, ticket, note, userId, userName: names[userId], createdAt });
  }
  return { w, tickets, notes };
}

beforeAll(async () => {
  server = await startTestServer();
  a = await seedWorld();
  // Another tenant with the same kind of data: none of it may ever show in a's lists.
  b = await seedWorld();
}, 120_000);
afterAll(async () => server?.close());

const get = async <T>(url: string, token: string = a.w.users.admin.token) => server.request<T>('GET', url, { token });
const newestFirst = (x: { createdAt: string; id: number }, y: { createdAt: string; id: number }) =>
  Date.parse(y.createdAt) - Date.parse(x.createdAt) || y.id - x.id;

function expectedProtocols(world: World, pred: (t: TicketModel) => boolean = () => true): ProtocolRow[] {
  return world.tickets
    .filter((t) => t.protocol !== null && pred(t))
    .sort((x, y) => newestFirst({ ...x }, { ...y }))
    .map((t) => ({
      ticketId: t.id,
      protocol: t.protocol!,
      status: t.status,
      contactId: t.contactId,
      contactName: t.contactName,
      userId: t.userId,
      userName: t.userName,
      createdAt: t.createdAt,
    }));
}

function expectedNotes(world: World, pred: (n: NoteModel) => boolean = () => true): NoteRow[] {
  return world.notes
    .filter(pred)
    .sort(newestFirst)
    .map((n) => ({
      id: n.id,
      ticketId: n.ticket.id,
      protocol: n.ticket.protocol,
      note: n.note,
      contactId: n.ticket.contactId,
      contactName: n.ticket.contactName,
      userId: n.userId,
      userName: n.userName,
      createdAt: n.createdAt,
    }));
}

const inMarch = (at: string) => at >= '2025-03-01T03:00:00.000Z' && at < '2025-04-01T03:00:00.000Z';
const MARCH = 'startDate=01/03/2025&endDate=31/03/2025';

describe('GET /protocol', () => {
  it('lists every protocol of the tenant, newest ticket first, with its contact, agent and date', async () => {
    const res = await get<ProtocolPage>('/protocol?pageSize=50');
    expect(res.status).toBe(200);
    const expected = expectedProtocols(a);
    expect(expected).toHaveLength(6);
    expect(res.body.protocols).toEqual(expected);
    expect(res.body).toMatchObject({ count: 6, pageNumber: 1, pageSize: 50, hasMore: false });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps the days of the period in São Paulo, both ends included, and either end may stay open', async () => {
    const march = await get<ProtocolPage>(`/protocol?${MARCH}`);
    expect(march.status).toBe(200);
    const expected = expectedProtocols(a, (t) => inMarch(t.createdAt));
    expect(expected.map((t) => a.tickets.find((k) => k.id === t.ticketId)!.key)).toEqual(['mar-last', 'mar-mid-2', 'mar-mid', 'mar-first']);
    expect(march.body.protocols).toEqual(expected);
    expect(march.body.count).toBe(4);

    // yyyy-MM-dd reads the same day; an open start takes everything up to the end day.
    const iso = await get<ProtocolPage>('/protocol?startDate=2025-03-01&endDate=2025-03-31');
    expect(iso.body.protocols).toEqual(expected);
    const untilFeb = await get<ProtocolPage>('/protocol?endDate=28/02/2025');
    expect(untilFeb.body.protocols).toEqual(expectedProtocols(a, (t) => t.createdAt < '2025-03-01T03:00:00.000Z'));
    const fromApril = await get<ProtocolPage>('/protocol?startDate=01/04/2025&endDate=');
    expect(fromApril.body.protocols).toEqual(expectedProtocols(a, (t) => t.createdAt >= '2025-04-01T03:00:00.000Z'));
    expect(fromApril.body.protocols).toHaveLength(1);
  });

  it('searches the protocol, the contact (accents and case ignored, number digits) and the agent', async () => {
    const target = a.tickets.find((t) => t.key === 'mar-mid')!;
    const byProtocol = await get<ProtocolPage>(`/protocol?search=${encodeURIComponent(target.protocol!.slice(2, 12))}`);
    expect(byProtocol.body.protocols).toEqual(expectedProtocols(a, (t) => t.id === target.id));

    const joao = a.tickets.find((t) => t.key === 'feb-last')!;
    const byContact = await get<ProtocolPage>(`/protocol?search=${encodeURIComponent('joao conceicao')}`);
    expect(byContact.body.protocols).toEqual(expectedProtocols(a, (t) => t.contactId === joao.contactId));
    expect(byContact.body.count).toBe(2);

    const [{ number }] = await server.deps.dataSource.query(`SELECT number FROM contacts WHERE id = $1`, [joao.contactId]);
    const typed = `(${number.slice(2, 4)}) ${number.slice(4, 9)}-${number.slice(9)}`;
    const byNumber = await get<ProtocolPage>(`/protocol?search=${encodeURIComponent(typed)}`);
    expect(byNumber.body.protocols).toEqual(expectedProtocols(a, (t) => t.contactId === joao.contactId));

    const byAgent = await get<ProtocolPage>(`/protocol?searchParam=${encodeURIComponent('SERGIO super')}&${MARCH}`);
    expect(byAgent.body.protocols).toEqual([]);
    const byAgentAnyTime = await get<ProtocolPage>(`/protocol?search=${encodeURIComponent('sergio SUPER')}`);
    expect(byAgentAnyTime.body.protocols).toEqual(expectedProtocols(a, (t) => t.userId === a.w.users.super.id));

    // LIKE's own wildcards are plain characters in a search.
    const wildcard = await get<ProtocolPage>('/protocol?search=%25');
    expect(wildcard.body.protocols).toEqual([]);
  });

  it('pages by offset with the count of every match', async () => {
    const all = expectedProtocols(a);
    const first = await get<ProtocolPage>('/protocol?pageSize=4&pageNumber=1');
    expect(first.body.protocols).toEqual(all.slice(0, 4));
    expect(first.body).toMatchObject({ count: 6, hasMore: true, pageNumber: 1, pageSize: 4 });
    const second = await get<ProtocolPage>('/protocol?pageSize=4&pageNumber=2');
    expect(second.body.protocols).toEqual(all.slice(4));
    expect(second.body).toMatchObject({ count: 6, hasMore: false, pageNumber: 2 });
    const past = await get<ProtocolPage>('/protocol?pageSize=4&pageNumber=9');
    expect(past.body).toMatchObject({ protocols: [], count: 6, hasMore: false });
  });

  it('shows another tenant nothing of this one', async () => {
    const other = await get<ProtocolPage>('/protocol?pageSize=50', b.w.users.admin.token);
    expect(other.status).toBe(200);
    expect(other.body.protocols).toEqual(expectedProtocols(b));
    const mine = new Set(a.tickets.map((t) => t.id));
    expect(other.body.protocols.some((p) => mine.has(p.ticketId))).toBe(false);
    // Searching for this tenant's protocol from the other finds nothing.
    const probe = await get<ProtocolPage>(`/protocol?search=${a.tickets[0].protocol}`, b.w.users.admin.token);
    expect(probe.body).toMatchObject({ protocols: [], count: 0 });
  });

  it('lets a supervisor without privileges (supervisorAdmin) see only what the visibility policy allows', async () => {
    const all = await get<ProtocolPage>('/protocol?pageSize=50', a.w.users.super.token);
    expect(all.body.protocols).toEqual(expectedProtocols(a));
    await setSettings(server, a.w.tenant.id, { supervisorAdmin: 'enabled' });
    try {
      const res = await get<ProtocolPage>('/protocol?pageSize=50', a.w.users.super.token);
      // The supervisor is in queue A: queue A's tickets and their own.
      const expected = expectedProtocols(a, (t) => t.queue === 'A' || t.userId === a.w.users.super.id);
      expect(expected.length).toBeLessThan(6);
      expect(res.body.protocols).toEqual(expected);
      expect(res.body.count).toBe(expected.length);
    } finally {
      await setSettings(server, a.w.tenant.id, { supervisorAdmin: 'disabled' });
    }
  });

  it('refuses an agent and a caller without a session', async () => {
    const agent = await get<{ error: string; message: string }>('/protocol', a.w.users.user.token);
    expect(agent.status).toBe(403);
    expect(agent.body).toMatchObject({ error: 'ERR_NO_PERMISSION', message: 'Você não tem permissão para acessar este recurso.' });
    // Refused before the query is read: a malformed query does not change the answer.
    const agentBad = await get<{ error: string }>('/protocol?startDate=xx', a.w.users.user.token);
    expect(agentBad.status).toBe(403);
    const anonymous = await server.request('GET', '/protocol');
    expect(anonymous.status).toBe(401);
  });
});

describe('GET /tickets/notes', () => {
  it("lists every note of the tenant's tickets, newest first, with its ticket, contact and author", async () => {
    const res = await get<NotePage>('/tickets/notes?pageSize=50');
    expect(res.status).toBe(200);
    const expected = expectedNotes(a);
    expect(expected).toHaveLength(7);
    expect(res.body.notes).toEqual(expected);
    expect(res.body).toMatchObject({ count: 7, hasMore: false });
  });

  it('keeps the days of the period in São Paulo, both ends included', async () => {
    const res = await get<NotePage>(`/tickets/notes?${MARCH}`);
    const expected = expectedNotes(a, (n) => inMarch(n.createdAt));
    expect(expected).toHaveLength(5);
    expect(res.body.notes).toEqual(expected);
    expect(res.body.count).toBe(5);
  });

  it('searches the note text (accents and case ignored), the protocol and the contact', async () => {
    const text = await get<NotePage>(`/tickets/notes?search=${encodeURIComponent('atualizacao')}`);
    expect(text.body.notes).toEqual(expectedNotes(a, (n) => /ATUALIZAÇÃO/.test(n.note)));
    expect(text.body.notes).toHaveLength(1);

    const endereco = await get<NotePage>(`/tickets/notes?search=${encodeURIComponent('ENDERECO')}`);
    expect(endereco.body.notes).toEqual(expectedNotes(a, (n) => /ndereço/.test(n.note)));
    expect(endereco.body.notes).toHaveLength(2);

    const ticket = a.tickets.find((t) => t.key === 'mar-first')!;
    const byProtocol = await get<NotePage>(`/tickets/notes?search=${ticket.protocol}`);
    expect(byProtocol.body.notes).toEqual(expectedNotes(a, (n) => n.ticket.id === ticket.id));

    const byContact = await get<NotePage>(`/tickets/notes?search=${encodeURIComponent('pedro lima')}&${MARCH}`);
    expect(byContact.body.notes).toEqual(expectedNotes(a, (n) => n.ticket.contactName.startsWith('Pedro') && inMarch(n.createdAt)));
    expect(byContact.body.notes).toHaveLength(2);
  });

  it('pages by offset with the count of every match', async () => {
    const all = expectedNotes(a);
    const second = await get<NotePage>('/tickets/notes?pageSize=3&pageNumber=2');
    expect(second.body.notes).toEqual(all.slice(3, 6));
    expect(second.body).toMatchObject({ count: 7, hasMore: true, pageNumber: 2, pageSize: 3 });
    const third = await get<NotePage>('/tickets/notes?pageSize=3&pageNumber=3');
    expect(third.body.notes).toEqual(all.slice(6));
    expect(third.body.hasMore).toBe(false);
  });

  it('shows another tenant nothing of this one', async () => {
    const other = await get<NotePage>('/tickets/notes?pageSize=50', b.w.users.admin.token);
    expect(other.body.notes).toEqual(expectedNotes(b));
    const probe = await get<NotePage>(`/tickets/notes?search=${encodeURIComponent(a.notes[0].note)}`, b.w.users.admin.token);
    expect(probe.body).toMatchObject({ notes: [], count: 0 });
  });

  it('follows the visibility policy for a supervisor without privileges', async () => {
    await setSettings(server, a.w.tenant.id, { supervisorAdmin: 'enabled' });
    try {
      const res = await get<NotePage>('/tickets/notes?pageSize=50', a.w.users.super.token);
      const expected = expectedNotes(a, (n) => n.ticket.queue === 'A' || n.ticket.userId === a.w.users.super.id);
      expect(expected.length).toBeLessThan(7);
      expect(res.body.notes).toEqual(expected);
    } finally {
      await setSettings(server, a.w.tenant.id, { supervisorAdmin: 'disabled' });
    }
  });

  it('refuses an agent', async () => {
    const agent = await get<{ error: string; message: string }>('/tickets/notes', a.w.users.user.token);
    expect(agent.status).toBe(403);
    expect(agent.body).toMatchObject({ error: 'ERR_NO_PERMISSION', message: 'Você não tem permissão para acessar este recurso.' });
  });
});

describe('validation of both lists', () => {
  const cases: [string, string, string][] = [
    ['startDate=31/02/2025', 'startDate', 'Data inválida'],
    ['startDate=2025-13-01', 'startDate', 'Data inválida'],
    ['endDate=amanhã', 'endDate', 'Data inválida'],
    ['startDate=10/03/2025&endDate=09/03/2025', 'endDate', 'A data final deve ser igual ou posterior à data inicial'],
    ['pageNumber=0', 'pageNumber', 'deve ser um número de página'],
    ['pageNumber=abc', 'pageNumber', 'deve ser um número de página'],
    ['pageSize=201', 'pageSize', 'deve ser de 1 a 200'],
    [`search=${'x'.repeat(101)}`, 'search', 'no máximo 100 caracteres'],
    ['search=a&search=b', 'search', 'deve ser um texto'],
    ['startDate=01/03/2025&startDate=02/03/2025', 'startDate', 'Data inválida'],
  ];
  for (const path of ['/protocol', '/tickets/notes']) {
    for (const [query, field, message] of cases) {
      it(`${path}?${query.slice(0, 40)} -> 400 naming ${field}`, async () => {
        const res = await get<{ error: string; message: string; fields: { path: string; message: string }[] }>(`${path}?${query}`);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('ERR_VALIDATION');
        expect(res.body.message).toMatch(/^Ops! Verifique os erros\.\.\./);
        expect(res.body.fields).toEqual([{ path: field, message }]);
      });
    }
  }
});
