import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  MassResultDto,
  TicketDetailDto,
  TicketDto,
  TicketListResponse,
  TicketLogDto,
  TicketNoteDto,
} from '@shared/schemas/tickets';
import { startTestServer, type ApiResponse, type TestServer } from '../../../../tests/helpers/test-server';
import {
  insertChannel,
  insertContact,
  insertTicket,
  logTypes,
  setSettings,
  ticketEvents,
  ticketRow,
  ticketWorld,
} from './tickets.test-support';

/**
 * Every ticket route through the real app: success, another tenant (404, nothing changed), a
 * profile without the right (403, or 404 where the rule is visibility), a malformed body or
 * query (400 naming the field) and no token (401).
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

function expectError(res: ApiResponse, status: number, code: string, field?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(code);
  if (field) expect(res.body.fields.map((f: { path: string }) => f.path)).toContain(field);
}

/** Two worlds: A (the caller's) and B (another tenant with its own ticket). */
async function worlds() {
  const a = await ticketWorld(server);
  const b = await ticketWorld(server);
  const bTicket = await insertTicket(server, b.tenant.id, {
    queueId: b.queueA,
    whatsappId: b.channel,
    status: 'open',
    userId: b.users.user.id,
  });
  return { a, b, bTicket };
}

const noToken = async (method: string, url: string, body?: unknown) => {
  const res = await server.request(method, url, { body });
  expectError(res, 401, 'ERR_INVALID_TOKEN');
};

describe('GET /tickets', () => {
  it('lists the visible tickets, newest activity first, with contact, user, queue and channel joined', async () => {
    const { a, b } = await worlds();
    const contact = await insertContact(server, a.tenant.id, 'Ana Lima', '5511988887777');
    const older = await insertTicket(server, a.tenant.id, {
      contactId: contact,
      queueId: a.queueA,
      whatsappId: a.channel,
      lastMessageAt: new Date(Date.now() - 60_000),
    });
    const newer = await insertTicket(server, a.tenant.id, {
      queueId: a.queueA,
      status: 'open',
      userId: a.users.user.id,
      whatsappId: a.channel,
    });
    await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'closed', whatsappId: a.channel });
    const res = await server.request<TicketListResponse>('GET', '/tickets', { token: a.users.user.token });
    expect(res.status).toBe(200);
    expect(res.body.tickets.map((t) => t.id)).toEqual([newer, older]);
    expect(res.body).toMatchObject({ count: 2, hasMore: false, nextCursor: null });
    const first = res.body.tickets[1];
    expect(first).toMatchObject({
      id: older,
      name: 'Ana Lima',
      status: 'pending',
      contact: { id: contact, name: 'Ana Lima', number: '5511988887777', tags: [], wallets: [] },
      queue: { id: a.queueA },
      whatsapp: { id: a.channel, type: 'waba' },
      user: null,
    });
    expect(res.body.tickets[0].user).toEqual({ id: a.users.user.id, name: 'User user' });
    // Tenant B's admin with showAll sees none of them.
    const other = await server.request<TicketListResponse>('GET', '/tickets?showAll=true', { token: b.users.admin.token });
    expect(other.body.tickets.map((t) => t.id)).not.toContain(older);
  });

  it('filters by status list (both spellings), queues, channels, user, unread, unassigned, search, tags and kanban', async () => {
    const { a } = await worlds();
    const token = a.users.admin.token;
    const other = await insertChannel(server, a.tenant.id);
    const [tag] = await server.deps.dataSource.query(`INSERT INTO tags ("tenantId", name) VALUES ($1, 'VIP') RETURNING id`, [
      a.tenant.id,
    ]);
    const [kanban] = await server.deps.dataSource.query(
      `INSERT INTO kanbans ("tenantId", name) VALUES ($1, 'Novos') RETURNING id`,
      [a.tenant.id],
    );
    const maria = await insertContact(server, a.tenant.id, 'Maria Souza', '5521977776666');
    await server.deps.dataSource.query(`INSERT INTO contact_tags ("contactId", "tagId", "tenantId") VALUES ($1, $2, $3)`, [
      maria,
      tag.id,
      a.tenant.id,
    ]);
    const t1 = await insertTicket(server, a.tenant.id, {
      contactId: maria,
      queueId: a.queueA,
      whatsappId: a.channel,
      unreadMessages: 3,
      protocol: '2025010100000001',
      kanbanId: kanban.id,
    });
    const t2 = await insertTicket(server, a.tenant.id, {
      queueId: a.queueB,
      whatsappId: other,
      status: 'open',
      userId: a.users.user.id,
    });
    const t3 = await insertTicket(server, a.tenant.id, { queueId: null, whatsappId: a.channel, status: 'closed' });
    const ids = async (qs: string) => {
      const res = await server.request<TicketListResponse>('GET', `/tickets?showAll=true&${qs}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.tickets.map((t) => t.id).sort((x, y) => x - y);
    };
    expect(await ids('')).toEqual([t1, t2]);
    expect(await ids('status=closed')).toEqual([t3]);
    expect(await ids('status[]=closed&status[]=open')).toEqual([t2, t3]);
    expect(await ids('status=open,pending,closed&queuesIds=' + a.queueB)).toEqual([t2, t3]);
    expect(await ids(`status=open,pending,closed&queuesIds[]=${a.queueB}&includeNotQueueDefined=false`)).toEqual([t2]);
    expect(await ids('status=open,pending,closed&includeNotQueueDefined=false')).toEqual([t1, t2]);
    expect(await ids(`whatsappIds=${other}`)).toEqual([t2]);
    expect(await ids(`selectedUser=${a.users.user.id}`)).toEqual([t2]);
    expect(await ids('withUnreadMessages=true')).toEqual([t1]);
    expect(await ids('isNotAssignedUser=true')).toEqual([t1]);
    expect(await ids('searchParam=maria')).toEqual([t1]);
    expect(await ids('searchParam=77776')).toEqual([t1]);
    expect(await ids('searchParam=2025010100000001')).toEqual([t1]);
    expect(await ids(`tags=${tag.id}`)).toEqual([t1]);
    expect(await ids(`kanbanIds=${kanban.id}`)).toEqual([t1]);
  });

  it('counts exactly what it lists for an agent, with and without the no-queue tickets', async () => {
    const { a } = await worlds();
    const me = a.users.user.id;
    await insertTicket(server, a.tenant.id, { queueId: a.queueA });
    await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.other.id });
    await insertTicket(server, a.tenant.id, { queueId: a.queueB, status: 'open', userId: me });
    await insertTicket(server, a.tenant.id, { queueId: null, status: 'open', userId: me });
    await insertTicket(server, a.tenant.id, { queueId: null });
    await insertTicket(server, a.tenant.id, { queueId: a.queueB });
    for (const nullticket of ['disabled', 'enabled']) {
      await setSettings(server, a.tenant.id, { nullticket });
      for (const qs of ['', '&includeNotQueueDefined=false', '&status=open', '&withUnreadMessages=false&showAll=true']) {
        const res = await server.request<TicketListResponse>('GET', `/tickets?pageSize=100${qs}`, { token: a.users.user.token });
        expect(res.body.count, `${nullticket} ${qs}`).toBe(res.body.tickets.length);
      }
    }
    const res = await server.request<TicketListResponse>('GET', '/tickets', { token: a.users.user.token });
    expect(res.body.count).toBe(5);
  });

  it('pages by keyset cursor and by pageNumber alike, with count and hasMore', async () => {
    const { a } = await worlds();
    const base = Date.now() - 3_600_000;
    const created: number[] = [];
    for (let i = 0; i < 7; i++) {
      // Two tickets share each timestamp: the id breaks the tie.
      created.push(
        await insertTicket(server, a.tenant.id, {
          queueId: a.queueA,
          status: i % 2 ? 'open' : 'pending',
          lastMessageAt: new Date(base + Math.floor(i / 2) * 1000),
        }),
      );
    }
    const expected = [...created].sort((x, y) => y - x);
    const token = a.users.admin.token;
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const res: ApiResponse<TicketListResponse> = await server.request(
        'GET',
        `/tickets?showAll=true&pageSize=3${cursor ? `&cursor=${cursor}` : ''}`,
        { token },
      );
      expect(res.body.count).toBe(7);
      seen.push(...res.body.tickets.map((t) => t.id));
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(expected);
    const byPage: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await server.request<TicketListResponse>(
        'GET',
        `/tickets?showAll=true&pageSize=3&pageNumber=${page}&count=false`,
        { token },
      );
      expect(res.body.count).toBeNull();
      expect(res.body.hasMore).toBe(page < 3);
      byPage.push(...res.body.tickets.map((t) => t.id));
    }
    expect(byPage).toEqual(expected);
  });

  it('rejects a malformed query naming the field', async () => {
    const { a } = await worlds();
    for (const [qs, field] of [
      ['status=lost', 'status.0'],
      ['pageSize=0', 'pageSize'],
      ['pageNumber=-1', 'pageNumber'],
      ['queuesIds=a', 'queuesIds.0'],
      ['showAll=maybe', 'showAll'],
      ['cursor=***', 'cursor'],
    ]) {
      expectError(await server.request('GET', `/tickets?${qs}`, { token: a.users.user.token }), 400, 'ERR_VALIDATION', field);
    }
    expectError(
      await server.request('GET', `/tickets?cursor=${Buffer.from('x.y').toString('base64url')}`, { token: a.users.user.token }),
      400,
      'ERR_VALIDATION',
      'cursor',
    );
  });

  it('a user with showAll still sees only their scope; no token is 401', async () => {
    const { a } = await worlds();
    const hidden = await insertTicket(server, a.tenant.id, { queueId: a.queueB });
    const res = await server.request<TicketListResponse>('GET', '/tickets?showAll=true', { token: a.users.user.token });
    expect(res.body.tickets.map((t) => t.id)).not.toContain(hidden);
    await noToken('GET', '/tickets');
  });
});

describe('GET /tickets/{id} and /tickets/{ticketId}/logs', () => {
  it('answers the ticket with its detail and its logs', async () => {
    const { a, b, bTicket } = await worlds();
    const [demand] = await server.deps.dataSource.query(
      `INSERT INTO demands ("tenantId", name) VALUES ($1, 'Suporte') RETURNING id`,
      [a.tenant.id],
    );
    const contact = await insertContact(server, a.tenant.id);
    const created = await server.request<TicketDto>('POST', '/tickets', {
      token: a.users.user.token,
      body: { contactId: contact, queueId: a.queueA },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    await server.request('PUT', `/tickets/${id}`, { token: a.users.user.token, body: { demandId: demand.id, value: 150.5 } });
    const res = await server.request<TicketDetailDto>('GET', `/tickets/${id}`, { token: a.users.user.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      status: 'open',
      userId: a.users.user.id,
      demand: { id: demand.id, name: 'Suporte' },
      value: 150.5,
      rating: null,
      scheduledMessages: [],
    });
    expect(res.body.protocol).toMatch(/^\d{16}$/);
    const logs = await server.request<TicketLogDto[]>('GET', `/tickets/${id}/logs`, { token: a.users.user.token });
    expect(logs.status).toBe(200);
    expect(logs.body.map((l) => [l.type, l.userId])).toEqual([
      ['create', a.users.user.id],
      ['update', a.users.user.id],
    ]);
    expect(logs.body[1].user).toEqual({ id: a.users.user.id, name: 'User user' });

    for (const path of [`/tickets/${bTicket}`, `/tickets/${bTicket}/logs`]) {
      expectError(await server.request('GET', path, { token: a.users.admin.token }), 404, 'ERR_NO_TICKET_FOUND');
      await noToken('GET', path);
    }
    // An agent of queue B cannot see it: 404, as for another tenant.
    expectError(await server.request('GET', `/tickets/${id}/logs`, { token: a.other.token }), 404, 'ERR_NO_TICKET_FOUND');
    expectError(await server.request('GET', '/tickets/abc', { token: a.users.user.token }), 400, 'ERR_VALIDATION', 'ticketId');
    // The 404s above are about tenancy, not a missing row: tenant B's admin reads its own ticket, not A's.
    const own = await server.request<TicketDetailDto>('GET', `/tickets/${bTicket}`, { token: b.users.admin.token });
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(bTicket);
    expectError(await server.request('GET', `/tickets/${id}`, { token: b.users.admin.token }), 404, 'ERR_NO_TICKET_FOUND');
  });
});

describe('PUT /tickets/{id}', () => {
  it('starts a pending ticket, logs it and records ticket:update to the ticket audience', async () => {
    const { a, bTicket } = await worlds();
    const id = await insertTicket(server, a.tenant.id, { queueId: a.queueA, whatsappId: a.channel });
    const res = await server.request<TicketDto>('PUT', `/tickets/${id}`, {
      token: a.users.user.token,
      body: { status: 'open', userId: a.users.user.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'open', userId: a.users.user.id });
    expect(res.body.startedAt).not.toBeNull();
    expect(await logTypes(server, id)).toEqual(['start']);
    const [event] = (await ticketEvents(server, a.tenant.id)).slice(-1);
    expect(event).toMatchObject({
      name: 'ticket:update',
      payload: { action: 'update', ticket: { id, status: 'open' } },
      audience: { scope: 'ticket', ticket: { ticketId: id, queueId: a.queueA, userId: a.users.user.id } },
    });

    const foreign = await server.request('PUT', `/tickets/${bTicket}`, {
      token: a.users.admin.token,
      body: { status: 'closed' },
    });
    expectError(foreign, 404, 'ERR_NO_TICKET_FOUND');
    expect((await ticketRow(server, bTicket)).status).toBe('open');
    await noToken('PUT', `/tickets/${id}`, { status: 'closed' });
  });

  it('refuses a user acting on a ticket assigned to someone else (403) and malformed bodies (400)', async () => {
    const { a } = await worlds();
    const id = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.super.id });
    expectError(
      await server.request('PUT', `/tickets/${id}`, { token: a.users.user.token, body: { status: 'closed' } }),
      403,
      'ERR_NO_PERMISSION',
    );
    expect((await ticketRow(server, id)).status).toBe('open');
    const cases: [unknown, string][] = [
      [{ status: 'done' }, 'status'],
      [{}, 'status'],
      [{ difyStatus: 'on', lmStatus: 'on' }, 'difyStatus'],
      [{ unreadMessages: -1 }, 'unreadMessages'],
      [{ unreadMessages: 0, status: 'open' }, 'unreadMessages'],
      [{ userId: 'x' }, 'userId'],
      [{ status: 'open', sendFarewellMessage: true }, 'status'],
      [{ isTransference: true }, 'queueId'],
      [{ value: -3 }, 'value'],
    ];
    for (const [body, field] of cases) {
      expectError(
        await server.request('PUT', `/tickets/${id}`, { token: a.users.admin.token, body }),
        400,
        'ERR_VALIDATION',
        field,
      );
    }
  });

  it('sets one per-integration status, the unread counter, or the classification fields', async () => {
    const { a } = await worlds();
    const id = await insertTicket(server, a.tenant.id, {
      queueId: a.queueA,
      status: 'open',
      userId: a.users.user.id,
      unreadMessages: 4,
    });
    const token = a.users.user.token;
    expect(
      (await server.request<TicketDto>('PUT', `/tickets/${id}`, { token, body: { chatgptStatus: 'enabled' } })).body
        .chatgptStatus,
    ).toBe('enabled');
    expect(
      (await server.request<TicketDto>('PUT', `/tickets/${id}`, { token, body: { unreadMessages: 0 } })).body.unreadMessages,
    ).toBe(0);
    const [kanban] = await server.deps.dataSource.query(`INSERT INTO kanbans ("tenantId", name) VALUES ($1, 'K') RETURNING id`, [
      a.tenant.id,
    ]);
    const res = await server.request<TicketDto>('PUT', `/tickets/${id}`, {
      token,
      body: { kanbanId: kanban.id, isGroup: false, botActive: false },
    });
    expect(res.body.kanbanId).toBe(kanban.id);
    expect(await logTypes(server, id)).toEqual(['integration', 'update']);
    const [foreignKanban] = await server.deps.dataSource.query(
      `INSERT INTO kanbans ("tenantId", name) VALUES ($1, 'K') RETURNING id`,
      [(await server.createTenant()).id],
    );
    expectError(
      await server.request('PUT', `/tickets/${id}`, { token, body: { kanbanId: foreignKanban.id } }),
      404,
      'ERR_NO_KANBAN_FOUND',
    );
  });
});

describe('PUT /ticketsForce, /ticketsNull, /ticketsChatBot, /ticketsChannelId', () => {
  it('force-closes without farewell, nulls the user, hands to the chatbot and moves channel', async () => {
    const { a, bTicket } = await worlds();
    await server.deps.dataSource.query(`UPDATE channels SET "farewellMessage" = 'Tchau!' WHERE id = $1`, [a.channel]);
    const token = a.users.user.token;
    const mk = () =>
      insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.user.id, whatsappId: a.channel });

    const forced = await mk();
    const f = await server.request<TicketDto>('PUT', `/ticketsForce/${forced}`, {
      token,
      body: { status: 'closed', userId: a.users.user.id },
    });
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ status: 'closed', closeAt: null, closeReason: 'forced' });
    expect(await server.deps.dataSource.query(`SELECT 1 FROM messages WHERE "ticketId" = $1`, [forced])).toEqual([]);
    expect(await logTypes(server, forced)).toEqual(['forceClose']);

    const nulled = await mk();
    const n = await server.request<TicketDto>('PUT', `/ticketsNull/${nulled}`, {
      token,
      body: { status: 'pending', userId: null },
    });
    expect(n.body).toMatchObject({ status: 'pending', userId: null });
    expect(await logTypes(server, nulled)).toEqual(['nullUser']);

    const bot = await mk();
    const flowRow = (active: boolean, tenantId = a.tenant.id) =>
      server.deps.dataSource
        .query(`INSERT INTO chat_flows ("tenantId", name, active, flow) VALUES ($1, 'Fluxo', $2, $3) RETURNING id`, [
          tenantId,
          active,
          JSON.stringify({ version: 1, startStepId: 's', settings: {}, steps: [{ id: 's', name: 'S', interactions: [], conditions: [] }] }),
        ])
        .then((r: { id: number }[]) => r[0].id);
    const flowId = await flowRow(true);
    // Another tenant's flow, a missing one, an inactive one: refused, nothing changes.
    expectError(
      await server.request('PUT', `/ticketsChatBot/${bot}`, { token, body: { chatFlowId: await flowRow(true, (await server.createTenant()).id) } }),
      404,
      'ERR_NO_CHATFLOW_FOUND',
    );
    expectError(await server.request('PUT', `/ticketsChatBot/${bot}`, { token, body: { chatFlowId: 999_999 } }), 404, 'ERR_NO_CHATFLOW_FOUND');
    expectError(await server.request('PUT', `/ticketsChatBot/${bot}`, { token, body: { chatFlowId: await flowRow(false) } }), 400, 'ERR_CHATFLOW_INACTIVE');
    const c = await server.request<TicketDto>('PUT', `/ticketsChatBot/${bot}`, { token, body: { chatFlowId: flowId } });
    expect(c.body).toMatchObject({ chatFlowId: flowId, botActive: true, userId: null, status: 'pending' });
    const off = await server.request<TicketDto>('PUT', `/ticketsChatBot/${bot}`, {
      token: a.users.admin.token,
      body: { botActive: false },
    });
    expect(off.body.botActive).toBe(false);
    expect(await logTypes(server, bot)).toEqual(['chatbot', 'chatbotOff']);

    const moved = await mk();
    const target = await insertChannel(server, a.tenant.id, { type: 'telegram' });
    const m = await server.request<TicketDto>('PUT', `/ticketsChannelId/${moved}`, { token, body: { whatsappId: target } });
    expect(m.body).toMatchObject({ whatsappId: target, channel: 'telegram' });
    const foreignChannel = await insertChannel(server, (await server.createTenant()).id);
    expectError(
      await server.request('PUT', `/ticketsChannelId/${moved}`, { token, body: { whatsappId: foreignChannel } }),
      404,
      'ERR_NO_WAPP_FOUND',
    );

    for (const [path, body] of [
      ['/ticketsForce', { status: 'closed' }],
      ['/ticketsNull', {}],
      ['/ticketsChatBot', { chatFlowId: 1 }],
      ['/ticketsChannelId', { whatsappId: a.channel }],
    ] as const) {
      expectError(
        await server.request('PUT', `${path}/${bTicket}`, { token: a.users.admin.token, body }),
        404,
        'ERR_NO_TICKET_FOUND',
      );
      await noToken('PUT', `${path}/${forced}`, body);
      // Someone else's ticket: a user may not change it.
      const others = await insertTicket(server, a.tenant.id, {
        queueId: a.queueA,
        status: 'open',
        userId: a.users.super.id,
        whatsappId: a.channel,
      });
      expectError(await server.request('PUT', `${path}/${others}`, { token, body }), 403, 'ERR_NO_PERMISSION');
    }
    expect((await ticketRow(server, bTicket)).status).toBe('open');

    for (const [path, body, field] of [
      ['/ticketsForce', { status: 'gone' }, 'status'],
      ['/ticketsNull', { userId: 5 }, 'userId'],
      ['/ticketsChatBot', {}, 'chatFlowId'],
      ['/ticketsChatBot', { botActive: true }, 'chatFlowId'],
      ['/ticketsChannelId', { whatsappId: 'x' }, 'whatsappId'],
    ] as const) {
      expectError(
        await server.request('PUT', `${path}/${forced}`, { token: a.users.admin.token, body }),
        400,
        'ERR_VALIDATION',
        field,
      );
    }
  });
});

describe('PUT /ticketsChannel, GET /ticketsClear, GET /ticketsMarkAllUnread, POST /pending/resolvePending', () => {
  it('moves all active tickets of a channel, skipping contacts already on the target', async () => {
    const { a, b } = await worlds();
    const target = await insertChannel(server, a.tenant.id);
    const t1 = await insertTicket(server, a.tenant.id, { whatsappId: a.channel, queueId: a.queueA });
    const busy = await insertContact(server, a.tenant.id);
    const t2 = await insertTicket(server, a.tenant.id, { whatsappId: a.channel, queueId: a.queueA, contactId: busy });
    const onTarget = await insertTicket(server, a.tenant.id, { whatsappId: target, queueId: a.queueA, contactId: busy });
    const closed = await insertTicket(server, a.tenant.id, { whatsappId: a.channel, status: 'closed' });
    const res = await server.request<MassResultDto>('PUT', '/ticketsChannel', {
      token: a.users.super.token,
      body: { fromWhatsappId: a.channel, toWhatsappId: target },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ count: 1, ticketIds: [t1], skipped: [t2] });
    expect((await ticketRow(server, t1)).whatsappId).toBe(target);
    expect((await ticketRow(server, t2)).whatsappId).toBe(a.channel);
    expect((await ticketRow(server, closed)).whatsappId).toBe(a.channel);
    expect(onTarget).toBeGreaterThan(0);

    expectError(
      await server.request('PUT', '/ticketsChannel', {
        token: a.users.user.token,
        body: { fromWhatsappId: a.channel, toWhatsappId: target },
      }),
      403,
      'ERR_NO_PERMISSION',
    );
    expectError(
      await server.request('PUT', '/ticketsChannel', {
        token: a.users.admin.token,
        body: { fromWhatsappId: b.channel, toWhatsappId: target },
      }),
      404,
      'ERR_NO_WAPP_FOUND',
    );
    expectError(
      await server.request('PUT', '/ticketsChannel', {
        token: a.users.admin.token,
        body: { fromWhatsappId: target, toWhatsappId: target },
      }),
      400,
      'ERR_VALIDATION',
      'toWhatsappId',
    );
    await noToken('PUT', '/ticketsChannel', { fromWhatsappId: a.channel, toWhatsappId: target });
  });

  it('closes every active ticket of a channel (GET /ticketsClear)', async () => {
    const { a, b } = await worlds();
    const ids = [];
    for (let i = 0; i < 12; i++)
      ids.push(await insertTicket(server, a.tenant.id, { whatsappId: a.channel, status: i % 2 ? 'open' : 'pending' }));
    const res = await server.request<MassResultDto>('GET', `/ticketsClear?whatsappId=${a.channel}`, {
      token: a.users.admin.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(12);
    const [{ n }] = await server.deps.dataSource.query(
      `SELECT count(*)::int AS n FROM tickets WHERE "tenantId" = $1 AND status = 'closed'`,
      [a.tenant.id],
    );
    expect(n).toBe(12);
    expectError(
      await server.request('GET', `/ticketsClear?whatsappId=${a.channel}`, { token: a.users.user.token }),
      403,
      'ERR_NO_PERMISSION',
    );
    expectError(
      await server.request('GET', `/ticketsClear?whatsappId=${b.channel}`, { token: a.users.admin.token }),
      404,
      'ERR_NO_WAPP_FOUND',
    );
    expectError(
      await server.request('GET', '/ticketsClear', { token: a.users.admin.token }),
      400,
      'ERR_VALIDATION',
      'whatsappId',
    );
    await noToken('GET', `/ticketsClear?whatsappId=${a.channel}`);
  });

  it('marks the caller’s visible active tickets read (GET /ticketsMarkAllUnread)', async () => {
    const { a, b } = await worlds();
    const mine = await insertTicket(server, a.tenant.id, { queueId: a.queueA, unreadMessages: 2 });
    const hidden = await insertTicket(server, a.tenant.id, { queueId: a.queueB, unreadMessages: 5 });
    const foreign = await insertTicket(server, b.tenant.id, { queueId: b.queueA, unreadMessages: 1 });
    const res = await server.request<MassResultDto>('GET', '/ticketsMarkAllUnread', { token: a.users.user.token });
    expect(res.status).toBe(200);
    expect(res.body.ticketIds).toEqual([mine]);
    expect((await ticketRow(server, hidden)).unreadMessages).toBe(5);
    expect((await ticketRow(server, foreign)).unreadMessages).toBe(1);
    expectError(
      await server.request('GET', '/ticketsMarkAllUnread?queuesIds=x', { token: a.users.user.token }),
      400,
      'ERR_VALIDATION',
      'queuesIds.0',
    );
    await noToken('GET', '/ticketsMarkAllUnread');
  });

  it('resolves every pending ticket in blocks of 10 (administrators only)', async () => {
    const { a, b } = await worlds();
    for (let i = 0; i < 23; i++) await insertTicket(server, a.tenant.id, { queueId: a.queueA });
    const open = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.user.id });
    const foreign = await insertTicket(server, b.tenant.id, {});
    expectError(
      await server.request('POST', '/pending/resolvePending', { token: a.users.super.token }),
      403,
      'ERR_NO_PERMISSION',
    );
    expectError(await server.request('POST', '/pending/resolvePending', { token: a.users.user.token }), 403, 'ERR_NO_PERMISSION');
    const res = await server.request<MassResultDto>('POST', '/pending/resolvePending', { token: a.users.admin.token });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(23);
    expect((await ticketRow(server, open)).status).toBe('open');
    expect((await ticketRow(server, foreign)).status).toBe('pending');
    const events = await ticketEvents(server, a.tenant.id);
    expect(events.filter((e) => e.payload.ticket?.status === 'closed')).toHaveLength(23);
    await noToken('POST', '/pending/resolvePending');
  });
});

describe('POST /tickets/mass-transfer', () => {
  it('moves one user’s active tickets to another with the same queues; refuses different queues', async () => {
    const { a, b } = await worlds();
    const second = await server.createUser(a.tenant.id, { profile: 'user' });
    await server.deps.dataSource.query(`UPDATE users SET queues = $2::jsonb WHERE id = $1`, [
      second.id,
      JSON.stringify([a.queueA]),
    ]);
    const t1 = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.user.id });
    const t2 = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.user.id });
    const res = await server.request<MassResultDto>('POST', '/tickets/mass-transfer', {
      token: a.users.admin.token,
      body: { fromUserId: a.users.user.id, toUserId: second.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ticketIds.sort()).toEqual([t1, t2].sort());
    expect((await ticketRow(server, t1)).userId).toBe(second.id);
    const refused = await server.request('POST', '/tickets/mass-transfer', {
      token: a.users.admin.token,
      body: { fromUserId: second.id, toUserId: a.other.id },
    });
    expectError(refused, 400, 'ERR_MASS_TRANSFER_QUEUES');
    expect(refused.body.message).toBe('A transferência em massa exige que os dois usuários tenham as mesmas filas.');
    expectError(
      await server.request('POST', '/tickets/mass-transfer', {
        token: a.users.super.token,
        body: { fromUserId: second.id, toUserId: a.users.user.id },
      }),
      403,
      'ERR_NO_PERMISSION',
    );
    expectError(
      await server.request('POST', '/tickets/mass-transfer', {
        token: a.users.admin.token,
        body: { fromUserId: second.id, toUserId: b.users.user.id },
      }),
      404,
      'ERR_NO_USER_FOUND',
    );
    expectError(
      await server.request('POST', '/tickets/mass-transfer', { token: a.users.admin.token, body: { fromUserId: second.id } }),
      400,
      'ERR_VALIDATION',
      'toUserId',
    );
    await noToken('POST', '/tickets/mass-transfer', { fromUserId: 1, toUserId: 2 });
  });
});

describe('POST /tickets', () => {
  it('creates an open ticket for the caller on the default channel (201, ticket:create)', async () => {
    const { a } = await worlds();
    const contact = await insertContact(server, a.tenant.id, 'Caio');
    const res = await server.request<TicketDto>('POST', '/tickets', {
      token: a.users.user.token,
      body: { contactId: contact, queueId: a.queueA },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      contactId: contact,
      status: 'open',
      userId: a.users.user.id,
      whatsappId: a.channel,
      queueId: a.queueA,
      name: 'Caio',
    });
    const [event] = (await ticketEvents(server, a.tenant.id)).slice(-1);
    expect(event).toMatchObject({ name: 'ticket:create', payload: { action: 'create', ticket: { id: res.body.id } } });
    const queued = await server.request<TicketDto>('POST', '/tickets', {
      token: a.users.user.token,
      body: { contactId: await insertContact(server, a.tenant.id), queueId: a.queueA, status: 'pending' },
    });
    expect(queued.body).toMatchObject({ status: 'pending', userId: null, queueId: a.queueA });
  });

  it('refuses a second ticket with 409 and the ongoing ticket; only an admin may take it over', async () => {
    const { a } = await worlds();
    const contact = await insertContact(server, a.tenant.id);
    const first = await server.request<TicketDto>('POST', '/tickets', {
      token: a.users.user.token,
      body: { contactId: contact, queueId: a.queueA },
    });
    const again = await server.request('POST', '/tickets', { token: a.users.super.token, body: { contactId: contact } });
    expectError(again, 409, 'ERR_OTHER_OPEN_TICKET');
    expect(again.body).toMatchObject({
      ticketId: first.body.id,
      userId: a.users.user.id,
      message: 'Já existe um ticket aberto/pendente para esse contato.',
    });
    const notAdmin = await server.request('POST', '/tickets', {
      token: a.users.super.token,
      body: { contactId: contact, assignExisting: true },
    });
    expectError(notAdmin, 403, 'ERR_NO_PERMISSION');
    expect(notAdmin.body.message).toBe('Só um administrador pode atribuir este atendimento.');
    const taken = await server.request<TicketDto>('POST', '/tickets', {
      token: a.users.admin.token,
      body: { contactId: contact, assignExisting: true },
    });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ id: first.body.id, userId: a.users.admin.id, status: 'open' });
    expect(await logTypes(server, first.body.id)).toEqual(['create', 'assign']);
  });

  it('answers 404 for another tenant’s contact or channel, 403 for a user creating for someone else, 400 for a bad body', async () => {
    const { a, b } = await worlds();
    const foreignContact = await insertContact(server, b.tenant.id);
    expectError(
      await server.request('POST', '/tickets', { token: a.users.admin.token, body: { contactId: foreignContact } }),
      404,
      'ERR_NO_CONTACT_FOUND',
    );
    const contact = await insertContact(server, a.tenant.id);
    expectError(
      await server.request('POST', '/tickets', {
        token: a.users.admin.token,
        body: { contactId: contact, whatsappId: b.channel },
      }),
      404,
      'ERR_NO_WAPP_FOUND',
    );
    expectError(
      await server.request('POST', '/tickets', { token: a.users.user.token, body: { contactId: contact, userId: a.other.id } }),
      403,
      'ERR_NO_PERMISSION',
    );
    expectError(
      await server.request('POST', '/tickets', { token: a.users.user.token, body: { whatsappId: a.channel } }),
      400,
      'ERR_VALIDATION',
      'contactId',
    );
    expectError(
      await server.request('POST', '/tickets', { token: a.users.user.token, body: { contactId: contact, status: 'closed' } }),
      400,
      'ERR_VALIDATION',
      'status',
    );
    const noDefault = await server.createTenantWithUsers();
    const lonely = await insertContact(server, noDefault.tenant.id);
    expectError(
      await server.request('POST', '/tickets', { token: noDefault.users.admin.token, body: { contactId: lonely } }),
      404,
      'ERR_NO_DEF_WAPP_FOUND',
    );
    await noToken('POST', '/tickets', { contactId: contact });
  });

  it('a concurrent burst for one contact creates exactly one ticket; the others get 409 with it', async () => {
    const { a } = await worlds();
    const contact = await insertContact(server, a.tenant.id);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        server.request('POST', '/tickets', {
          token: [a.users.admin, a.users.super, a.users.user][i % 3].token,
          body: { contactId: contact, queueId: a.queueA },
        }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(11);
    for (const r of refused) expect(r.body.ticketId).toBe(created[0].body.id);
    const [{ n }] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM tickets WHERE "contactId" = $1`, [
      contact,
    ]);
    expect(n).toBe(1);
  });
});

describe('notes, rating, spy', () => {
  it('adds, lists and deletes notes (author or privileged); other tenants and hidden tickets get 404', async () => {
    const { a, bTicket } = await worlds();
    const id = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.user.id });
    const added = await server.request<TicketNoteDto>('POST', `/tickets/${id}/notes`, {
      token: a.users.user.token,
      body: { note: ' Cliente pediu retorno ' },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      ticketId: id,
      note: 'Cliente pediu retorno',
      userId: a.users.user.id,
      user: { id: a.users.user.id },
    });
    const bySuper = await server.request<TicketNoteDto>('POST', `/tickets/${id}/notes`, {
      token: a.users.super.token,
      body: { note: 'ok' },
    });
    const list = await server.request<TicketNoteDto[]>('GET', `/tickets/${id}/notes`, { token: a.users.user.token });
    expect(list.body.map((n) => n.id)).toEqual([added.body.id, bySuper.body.id]);
    const [event] = (await ticketEvents(server, a.tenant.id)).filter((e) => e.name === 'ticket:note');
    expect(event).toMatchObject({ payload: { action: 'create', ticketId: id }, audience: { scope: 'ticket' } });

    expectError(
      await server.request('DELETE', `/tickets/notes/${bySuper.body.id}`, { token: a.users.user.token }),
      403,
      'ERR_NO_PERMISSION',
    );
    expect((await server.request('DELETE', `/tickets/notes/${added.body.id}`, { token: a.users.user.token })).status).toBe(204);
    expect((await server.request('DELETE', `/tickets/notes/${bySuper.body.id}`, { token: a.users.admin.token })).status).toBe(
      204,
    );

    expectError(
      await server.request('GET', `/tickets/${bTicket}/notes`, { token: a.users.admin.token }),
      404,
      'ERR_NO_TICKET_FOUND',
    );
    expectError(
      await server.request('POST', `/tickets/${bTicket}/notes`, { token: a.users.admin.token, body: { note: 'x' } }),
      404,
      'ERR_NO_TICKET_FOUND',
    );
    expectError(await server.request('GET', `/tickets/${id}/notes`, { token: a.other.token }), 404, 'ERR_NO_TICKET_FOUND');
    const foreignNote = await server.deps.dataSource.query(
      `INSERT INTO ticket_notes ("tenantId", "ticketId", note) SELECT "tenantId", id, 'x' FROM tickets WHERE id = $1 RETURNING id`,
      [bTicket],
    );
    expectError(
      await server.request('DELETE', `/tickets/notes/${foreignNote[0].id}`, { token: a.users.admin.token }),
      404,
      'ERR_NOT_FOUND',
    );
    expectError(
      await server.request('POST', `/tickets/${id}/notes`, { token: a.users.user.token, body: { note: '   ' } }),
      400,
      'ERR_VALIDATION',
      'note',
    );
    await noToken('GET', `/tickets/${id}/notes`);
    await noToken('POST', `/tickets/${id}/notes`, { note: 'x' });
    await noToken('DELETE', `/tickets/notes/1`);
  });

  it('records a rating 0..5 with its label', async () => {
    const { a, bTicket } = await worlds();
    const id = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'closed', userId: a.users.user.id });
    const res = await server.request('POST', `/tickets/${id}/rating`, { token: a.users.user.token, body: { rating: 5 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ticketId: id, rating: 5, label: 'Incrível', userId: a.users.user.id });
    const again = await server.request('POST', `/tickets/${id}/rating`, { token: a.users.user.token, body: { rating: 0 } });
    expect(again.body.label).toBe('Ruim');
    const detail = await server.request<TicketDetailDto>('GET', `/tickets/${id}`, { token: a.users.user.token });
    expect(detail.body.rating).toMatchObject({ rating: 0, label: 'Ruim' });
    expectError(
      await server.request('POST', `/tickets/${id}/rating`, { token: a.users.user.token, body: { rating: 6 } }),
      400,
      'ERR_VALIDATION',
      'rating',
    );
    expectError(
      await server.request('POST', `/tickets/${bTicket}/rating`, { token: a.users.admin.token, body: { rating: 3 } }),
      404,
      'ERR_NO_TICKET_FOUND',
    );
    expectError(
      await server.request('POST', `/tickets/${id}/rating`, { token: a.other.token, body: { rating: 3 } }),
      404,
      'ERR_NO_TICKET_FOUND',
    );
    await noToken('POST', `/tickets/${id}/rating`, { rating: 3 });
  });

  it('lets privileged viewers spy without taking the ticket (logged); users get 403', async () => {
    const { a, bTicket } = await worlds();
    const id = await insertTicket(server, a.tenant.id, { queueId: a.queueA, status: 'open', userId: a.users.user.id });
    const res = await server.request<TicketDetailDto>('POST', `/tickets/${id}/spy`, { token: a.users.super.token });
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(a.users.user.id);
    expect(await logTypes(server, id)).toEqual(['spy']);
    expectError(await server.request('POST', `/tickets/${id}/spy`, { token: a.users.user.token }), 403, 'ERR_NO_PERMISSION');
    expectError(
      await server.request('POST', `/tickets/${bTicket}/spy`, { token: a.users.admin.token }),
      404,
      'ERR_NO_TICKET_FOUND',
    );
    await noToken('POST', `/tickets/${id}/spy`);
  });
});
