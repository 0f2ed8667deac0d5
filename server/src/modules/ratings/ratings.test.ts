import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATING_LABELS } from '@shared/limits';
import { deliverWebhook, inboundPayload, type FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import {
  createContact,
  createTicket,
  createWabaChannel,
  sentTo,
  startMessagingServer,
  waitFor,
} from '../messages/messages.test-support';

/**
 * Issue #14 item 8: the rating settings offered by /avaliacoes/configurar change the rating flow
 * (request text, labels, attempts, the closing message after the answer, on/off), and the ratings
 * list of /avaliacoes/listar with its filters, averages and distribution. Expected figures are
 * computed in the test from the ratings it wrote.
 */

let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const APP_SECRET = 'app-secret-0123456789';

async function ticketRow(id: number) {
  const [row] = await server.deps.dataSource.query(
    `SELECT status, "closeReason", "ratingRequestedAt" FROM tickets WHERE id = $1`,
    [id],
  );
  return row as { status: string; closeReason: string | null; ratingRequestedAt: Date | null };
}

describe('rating settings drive the rating flow', () => {
  it('request text, attempts, labels and the closing message take effect; disabled sends nothing', async () => {
    const w = await server.createTenantWithUsers();
    const channel = await createWabaChannel(server, graph, w.users.admin.token);
    const labels = ['Péssimo', 'Fraco', 'Ok', 'Bom', 'Ótimo', 'Perfeito'];
    const configure = (body: Record<string, unknown>) =>
      server.request('PUT', '/tenants/rating/', { token: w.users.super.token, body });
    const saved = await configure({
      enabled: true,
      message: 'Olá {{firstName}}, dê uma nota de 0 a 5',
      labels,
      maxAttempts: 2,
      thanksMessage: 'Obrigado, {{firstName}}! Atendimento encerrado.',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await server.request('GET', '/tenants/rating/', { token: w.users.admin.token })).body).toEqual({
      enabled: true,
      message: 'Olá {{firstName}}, dê uma nota de 0 a 5',
      labels,
      maxAttempts: 2,
      thanksMessage: 'Obrigado, {{firstName}}! Atendimento encerrado.',
    });

    const reply = async (number: string, text: string) => {
      const hook = await deliverWebhook(
        `${server.url}/webhooks/waba/${channel}`,
        inboundPayload(graph.phoneNumberId, [{ from: number, message: { type: 'text', text: { body: text } } }]),
        APP_SECRET,
      );
      expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    };
    const texts = (number: string) => sentTo(graph, number).map((m) => m.text.body);

    // maxAttempts 2: two unanswered requests, then closed without a rating.
    const ana = await createContact(server, w.tenant.id, { name: 'Ana Lima' });
    const first = await createTicket(server, {
      tenantId: w.tenant.id,
      contactId: ana.id,
      channelId: channel,
      userId: w.users.user.id,
    });
    const resolve = await server.request('PUT', `/tickets/${first}`, { token: w.users.user.token, body: { status: 'closed' } });
    expect(resolve.body).toMatchObject({ status: 'open' });
    expect(resolve.body.ratingRequestedAt).not.toBeNull();
    await waitFor(() => texts(ana.number).length === 1, 'rating request');
    expect(texts(ana.number)).toEqual(['Olá Ana, dê uma nota de 0 a 5']);
    await reply(ana.number, 'não sei');
    await waitFor(() => texts(ana.number).length === 2, 'second request');
    await reply(ana.number, 'talvez');
    await waitFor(async () => (await ticketRow(first)).status === 'closed', 'closed unanswered');
    expect(await ticketRow(first)).toMatchObject({ closeReason: 'ratingUnanswered' });
    expect(texts(ana.number)).toHaveLength(2);

    // maxAttempts 3: a third request, then the answer records the rating with the tenant's label,
    // sends the closing message and closes.
    expect((await configure({ ...saved.body, maxAttempts: 3 })).status).toBe(200);
    const bia = await createContact(server, w.tenant.id, { name: 'Bia Nunes' });
    const second = await createTicket(server, {
      tenantId: w.tenant.id,
      contactId: bia.id,
      channelId: channel,
      userId: w.users.user.id,
    });
    await server.request('PUT', `/tickets/${second}`, { token: w.users.user.token, body: { status: 'closed' } });
    await waitFor(() => texts(bia.number).length === 1, 'request');
    await reply(bia.number, 'hã?');
    await waitFor(() => texts(bia.number).length === 2, 'second request');
    await reply(bia.number, 'como?');
    await waitFor(() => texts(bia.number).length === 3, 'third request');
    expect((await ticketRow(second)).status).toBe('open');
    await reply(bia.number, 'nota 4');
    await waitFor(async () => (await ticketRow(second)).status === 'closed', 'closed after the answer');
    expect(await ticketRow(second)).toMatchObject({ closeReason: 'rating', ratingRequestedAt: null });
    await waitFor(() => texts(bia.number).length === 4, 'closing message');
    expect(texts(bia.number)[3]).toBe('Obrigado, Bia! Atendimento encerrado.');
    const detail = await server.request('GET', `/tickets/${second}`, { token: w.users.admin.token });
    expect(detail.body.rating).toMatchObject({ rating: 4, label: 'Ótimo', attempts: 3, userId: w.users.user.id });
    // The tenant's today (America/Sao_Paulo, the default zone the list filters in), not UTC's:
    // between 21:00 and midnight in São Paulo the UTC day is already tomorrow.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    const list = await server.request('GET', `/ratings?startDate=${today}&endDate=${today}`, { token: w.users.super.token });
    expect(list.body.ratings).toEqual([expect.objectContaining({ ticketId: second, rating: 4, label: 'Ótimo', attempts: 3 })]);
    expect(list.body.summary.distribution.map((d: { label: string }) => d.label)).toEqual(labels);

    // No closing message: the rating still closes the ticket, and nothing more is sent.
    expect((await configure({ ...saved.body, maxAttempts: 3, thanksMessage: '' })).status).toBe(200);
    const caio = await createContact(server, w.tenant.id, { name: 'Caio Prado' });
    const third = await createTicket(server, {
      tenantId: w.tenant.id,
      contactId: caio.id,
      channelId: channel,
      userId: w.users.user.id,
    });
    await server.request('PUT', `/tickets/${third}`, { token: w.users.user.token, body: { status: 'closed' } });
    await waitFor(() => texts(caio.number).length === 1, 'request');
    await reply(caio.number, '5');
    await waitFor(async () => (await ticketRow(third)).status === 'closed', 'closed');
    await new Promise((r) => setTimeout(r, 300));
    expect(texts(caio.number)).toEqual(['Olá Caio, dê uma nota de 0 a 5']);

    // Disabled: resolving closes at once, no request.
    expect((await configure({ ...saved.body, enabled: false })).status).toBe(200);
    const dani = await createContact(server, w.tenant.id, { name: 'Dani Melo' });
    const fourth = await createTicket(server, {
      tenantId: w.tenant.id,
      contactId: dani.id,
      channelId: channel,
      userId: w.users.user.id,
    });
    const closed = await server.request('PUT', `/tickets/${fourth}`, { token: w.users.user.token, body: { status: 'closed' } });
    expect(closed.body).toMatchObject({ status: 'closed', ratingRequestedAt: null });
    await new Promise((r) => setTimeout(r, 300));
    expect(texts(dani.number)).toEqual([]);
  }, 60_000);

  it('only supervisors and admins configure; bad settings are 400 naming the field', async () => {
    const w = await server.createTenantWithUsers();
    const body = { enabled: true, message: 'Nota?', maxAttempts: 2 };
    expect((await server.request('PUT', '/tenants/rating/', { token: w.users.user.token, body })).status).toBe(403);
    for (const [bad, field] of [
      [{ ...body, maxAttempts: 0 }, 'maxAttempts'],
      [{ ...body, maxAttempts: 11 }, 'maxAttempts'],
      [{ ...body, message: '' }, 'message'],
      [{ ...body, labels: ['a', 'b'] }, 'labels'],
      [{ ...body, closeAfter: true }, 'closeAfter'],
    ] as const) {
      const res = await server.request('PUT', '/tenants/rating/', { token: w.users.admin.token, body: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.fields[0].path).toBe(field);
    }
  });
});

describe('GET /ratings', () => {
  interface Seed {
    ticketId: number;
    rating: number;
    userId: number;
    queueId: number | null;
    at: string;
  }

  async function world() {
    const w = await server.createTenantWithUsers();
    const queue = async (name: string) =>
      (await server.request('POST', '/queue', { token: w.users.admin.token, body: { name } })).body.id as number;
    const sales = await queue('Vendas');
    const support = await queue('Suporte');
    const agent2 = await server.createUser(w.tenant.id, { profile: 'user' });
    const seeds: Seed[] = [];
    const rate = async (rating: number, userId: number, queueId: number | null, at: string) => {
      const contact = await createContact(server, w.tenant.id);
      const ticketId = await createTicket(server, {
        tenantId: w.tenant.id,
        contactId: contact.id,
        channelId: null,
        userId,
        queueId,
      });
      await server.deps.dataSource.query(
        `INSERT INTO ticket_ratings ("tenantId", "ticketId", "userId", rating, attempts, "createdAt") VALUES ($1, $2, $3, $4, 1, $5)`,
        [w.tenant.id, ticketId, userId, rating, at],
      );
      seeds.push({ ticketId, rating, userId, queueId, at });
    };
    const u1 = w.users.user.id;
    const u2 = agent2.id;
    await rate(5, u1, sales, '2026-03-02T15:00:00Z');
    await rate(4, u1, sales, '2026-03-05T12:00:00Z');
    await rate(1, u2, support, '2026-03-10T20:00:00Z');
    await rate(3, u2, sales, '2026-03-15T13:00:00Z');
    await rate(0, u1, support, '2026-03-20T18:00:00Z');
    await rate(5, u2, null, '2026-03-31T23:00:00Z'); // 20:00 on 31/03 in São Paulo: inside March
    await rate(2, u1, sales, '2026-03-01T02:00:00Z'); // 23:00 on 28/02 in São Paulo: outside March
    await rate(4, u2, support, '2026-04-01T03:30:00Z'); // 00:30 on 01/04 in São Paulo: outside March
    return { w, sales, support, u1, u2, seeds };
  }

  /** São Paulo is UTC-3 all year since 2019. */
  const localDay = (iso: string) => new Date(Date.parse(iso) - 3 * 3600_000).toISOString().slice(0, 10);
  const avg = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100 : null);

  function expected(seeds: Seed[], f: { from: string; to: string; queues?: number[]; users?: number[]; scores?: number[] }) {
    const rows = seeds
      .filter((s) => localDay(s.at) >= f.from && localDay(s.at) <= f.to)
      .filter((s) => !f.queues || (s.queueId !== null && f.queues.includes(s.queueId)))
      .filter((s) => !f.users || f.users.includes(s.userId))
      .filter((s) => !f.scores || f.scores.includes(s.rating))
      .sort((a, b) => b.at.localeCompare(a.at));
    return {
      ticketIds: rows.map((r) => r.ticketId),
      count: rows.length,
      average: avg(rows.map((r) => r.rating)),
      distribution: [0, 1, 2, 3, 4, 5].map((n) => rows.filter((r) => r.rating === n).length),
      byUser: Object.fromEntries(
        [...new Set(rows.map((r) => r.userId))].map((u) => [u, avg(rows.filter((r) => r.userId === u).map((r) => r.rating))]),
      ),
      byQueue: Object.fromEntries(
        [...new Set(rows.map((r) => r.queueId))].map((q) => [
          String(q),
          avg(rows.filter((r) => r.queueId === q).map((r) => r.rating)),
        ]),
      ),
    };
  }

  function actual(body: any) {
    return {
      ticketIds: body.ratings.map((r: any) => r.ticketId),
      count: body.count,
      average: body.summary.average,
      distribution: body.summary.distribution.map((d: any) => d.count),
      byUser: Object.fromEntries(body.summary.byUser.map((u: any) => [u.userId, u.average])),
      byQueue: Object.fromEntries(body.summary.byQueue.map((q: any) => [String(q.queueId), q.average])),
    };
  }

  it('lists a period of the tenant’s days with filters, averages and the distribution by label', async () => {
    const { w, sales, support, u1, u2, seeds } = await world();
    const march = { from: '2026-03-01', to: '2026-03-31' };
    const all = await server.request('GET', '/ratings?startDate=01/03/2026&endDate=31/03/2026&pageSize=100', {
      token: w.users.admin.token,
    });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(actual(all.body)).toEqual(expected(seeds, march));
    expect(all.body.summary.distribution.map((d: any) => d.label)).toEqual([...RATING_LABELS]);
    expect(all.body.summary.byQueue.find((q: any) => q.queueId === null)).toMatchObject({ name: 'Sem fila' });
    expect(all.body.ratings[0]).toMatchObject({ rating: 5, label: 'Incrível', queueId: null, userId: u2 });

    const filtered = await server.request(
      'GET',
      `/ratings?startDate=2026-03-01&endDate=2026-03-31&queuesIds=${sales},${support}&usersIds[]=${u1}&ratings=0,4,5`,
      { token: w.users.super.token },
    );
    expect(actual(filtered.body)).toEqual(
      expected(seeds, { ...march, queues: [sales, support], users: [u1], scores: [0, 4, 5] }),
    );
    expect(filtered.body.ratings[0]).toMatchObject({ queueName: expect.any(String), contactName: expect.any(String) });

    const page = await server.request('GET', '/ratings?startDate=01/03/2026&endDate=31/03/2026&pageSize=2&pageNumber=2', {
      token: w.users.admin.token,
    });
    expect(page.body).toMatchObject({ count: expected(seeds, march).count, hasMore: true, pageNumber: 2 });
    expect(page.body.ratings.map((r: any) => r.ticketId)).toEqual(expected(seeds, march).ticketIds.slice(2, 4));

    const empty = await server.request('GET', '/ratings?startDate=01/01/2025&endDate=31/01/2025', { token: w.users.admin.token });
    expect(empty.body).toMatchObject({
      ratings: [],
      count: 0,
      hasMore: false,
      summary: { count: 0, average: null, byUser: [], byQueue: [] },
    });
    expect(empty.body.summary.distribution.map((d: any) => d.count)).toEqual([0, 0, 0, 0, 0, 0]);

    // Another tenant sees none of these.
    const other = await server.createTenantWithUsers();
    const foreign = await server.request('GET', `/ratings?startDate=01/03/2026&endDate=31/03/2026&queuesIds=${sales}`, {
      token: other.users.admin.token,
    });
    expect(foreign.body).toMatchObject({ count: 0, ratings: [] });
  });

  it('follows the ticket visibility policy: a supervisor without admin rights sees their queues and own tickets', async () => {
    const { w, sales, seeds } = await world();
    const put = await server.request('PUT', `/users/${w.users.super.id}`, {
      token: w.users.admin.token,
      body: { queues: [sales] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const march = { from: '2026-03-01', to: '2026-03-31' };
    const before = await server.request('GET', '/ratings?startDate=01/03/2026&endDate=31/03/2026&pageSize=100', {
      token: w.users.super.token,
    });
    expect(actual(before.body)).toEqual(expected(seeds, march));
    const setting = await server.request('PUT', '/settings/supervisorAdmin', {
      token: w.users.admin.token,
      body: { value: 'enabled' },
    });
    expect(setting.status).toBe(200);
    const after = await server.request('GET', '/ratings?startDate=01/03/2026&endDate=31/03/2026&pageSize=100', {
      token: w.users.super.token,
    });
    expect(actual(after.body)).toEqual(expected(seeds, { ...march, queues: [sales] }));
  });

  it('refuses agents (403) and malformed queries (400 with the spec’s texts), never 500', async () => {
    const w = await server.createTenantWithUsers();
    const ok = 'startDate=01/03/2026&endDate=31/03/2026';
    expect((await server.request('GET', `/ratings?${ok}`, { token: w.users.user.token })).status).toBe(403);
    expect((await server.request('GET', `/ratings?${ok}`)).status).toBe(401);
    const cases: [string, string, string][] = [
      ['endDate=31/03/2026', 'startDate', 'Data inicial é obrigatório'],
      ['startDate=31/02/2026&endDate=31/03/2026', 'startDate', 'Data inválida'],
      ['startDate=01/03/2026&endDate=2026-13-01', 'endDate', 'Data inválida'],
      ['startDate=abc&endDate=31/03/2026', 'startDate', 'Data inválida'],
      ['startDate=31/03/2026&endDate=01/03/2026', 'endDate', 'A data final deve ser igual ou posterior à data inicial'],
      ['startDate=01/01/2025&endDate=31/03/2026', 'endDate', 'O período deve ter no máximo 366 dias'],
      [`${ok}&ratings=6`, 'ratings.0', 'avaliação de 0 a 5'],
      [`${ok}&ratings=x`, 'ratings.0', 'avaliação de 0 a 5'],
      [`${ok}&queuesIds=2147483648`, 'queuesIds.0', 'deve ser um id numérico entre 1 e 2147483647'],
      [`${ok}&usersIds=abc`, 'usersIds.0', 'deve ser um id numérico entre 1 e 2147483647'],
      [`${ok}&pageSize=101`, 'pageSize', 'deve ser um tamanho de página de 1 a 100'],
    ];
    for (const [query, path, message] of cases) {
      const res = await server.request('GET', `/ratings?${query}`, { token: w.users.admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields[0], query).toEqual({ path, message });
    }
  });
});
