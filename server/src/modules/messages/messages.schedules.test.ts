import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import {
  createContact,
  createMessagingTenant,
  frozenClock,
  isolatedDatabase,
  messageRow,
  multipart,
  runSweep,
  sentTo,
  startMessagingServer,
  waitFor,
  waitForMessage,
  type IsolatedDatabase,
} from './messages.test-support';

/**
 * Scheduled messages of the /agendamentos screen (issue #14 item 6): recurrence every N days for
 * a number of repetitions, each sent once by the job system across a server restart (the row's
 * status is the source of truth), the ticket status `schedule`, changes only while pending, and
 * the refusals (tenant, role, malformed input).
 */
const DAY = 24 * 3600_000;
const sharedDatabase = Boolean(inject('testDatabaseUrl'));
const sent = (row: { status: string }) => row.status === 'sent';

describe.skipIf(!sharedDatabase)('a recurring scheduled message across a server restart (needs DATABASE_URL)', () => {
  const clock = frozenClock(new Date(Math.floor(Date.now() / 60_000) * 60_000));
  let graph: FakeGraphApi;
  let db: IsolatedDatabase;
  let server: TestServer;
  // What a restart keeps: the database and the data folder (the scheduled file is there).
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-schedules-'));
  const start = async () => {
    const started = await startTestServer({ WABA_GRAPH_BASE_URL: graph.url, DATABASE_URL: db.url!, DATA_DIR: dataDir }, { clock });
    // Sweeps run when the test says so.
    await started.deps.periodic.stop();
    return started;
  };

  beforeAll(async () => {
    db = await isolatedDatabase();
    graph = await new FakeGraphApi().start();
    server = await start();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await db?.drop();
    await graph?.stop();
  });

  it('sends exactly the repetitions, each once, with its file and variables filled at each send; the schedule ticket enters the queue at the first send', async () => {
    const t = await createMessagingTenant(server, graph);
    const contact = await createContact(server, t.tenant.id, { name: 'Bia Souza' });
    const first = new Date(clock.now().getTime() + 3600_000);
    const png = Buffer.from('\x89PNG\r\n\x1a\nfake-image');
    const res = await multipart(
      server,
      'POST',
      '/messagesSchedule/',
      t.users.super.token,
      {
        contactId: String(contact.id),
        body: 'Olá {{firstName}}, seu lembrete',
        scheduleDate: first.toISOString(),
        recurrenceDays: '5',
        repetitions: '3',
        clientId: 'serie-bia',
      },
      [{ name: 'lembrete.png', type: 'image/png', bytes: png }],
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: 'scheduled',
      mediaType: 'image',
      mediaName: 'lembrete.png',
      schedule: { recurrenceDays: 5, repetitions: 3, occurrence: 1 },
    });
    const ticketOf = async (id: number) =>
      (await server.deps.dataSource.query(`SELECT status FROM tickets WHERE id = $1`, [id]))[0]?.status as string;
    // No ongoing ticket: the message waits in a ticket of status `schedule`, out of the agents' queue.
    expect(await ticketOf(res.body.ticketId)).toBe('schedule');
    const queue = await server.request('GET', '/tickets?status=open&status=pending&showAll=true', { token: t.users.admin.token });
    expect(queue.status).toBe(200);
    expect(JSON.stringify(queue.body)).not.toContain(`"id":${res.body.ticketId},`);

    // Occurrence 1 on the first server: sent once, the ticket becomes pending, occurrence 2 is written.
    clock.advance(3600_000);
    await Promise.all([runSweep(server), runSweep(server)]);
    await waitForMessage(server, res.body.id, sent);
    expect(await ticketOf(res.body.ticketId)).toBe('pending');

    // Restart: the first server stops, a new one starts on the same database.
    await server.close();
    server = await start();

    for (const occurrence of [2, 3]) {
      clock.advance(5 * DAY);
      await Promise.all([runSweep(server), runSweep(server)]);
      const [row] = await server.deps.dataSource.query(
        `SELECT id FROM messages WHERE "clientId" = $1`,
        [`serie-bia#r${occurrence}`],
      );
      expect(row, `occurrence ${occurrence} exists`).toBeTruthy();
      await waitForMessage(server, Number(row.id), sent, `occurrence ${occurrence} sent`);
    }
    // Nothing after the last repetition, however many sweeps run.
    clock.advance(30 * DAY);
    await runSweep(server);
    await runSweep(server);
    const series = await server.deps.dataSource.query(
      `SELECT status, body, "mediaName", "scheduleDate", "dataJson"->'schedule'->>'occurrence' AS occurrence
         FROM messages WHERE "contactId" = $1 ORDER BY "scheduleDate"`,
      [contact.id],
    );
    expect(series.map((r: { status: string }) => r.status)).toEqual(['sent', 'sent', 'sent']);
    expect(series.map((r: { occurrence: string }) => r.occurrence)).toEqual(['1', '2', '3']);
    expect(series.map((r: { scheduleDate: Date }) => new Date(r.scheduleDate).getTime())).toEqual([
      first.getTime(),
      first.getTime() + 5 * DAY,
      first.getTime() + 10 * DAY,
    ]);
    expect(series.every((r: { body: string; mediaName: string }) => r.body === 'Olá Bia, seu lembrete' && r.mediaName === 'lembrete.png')).toBe(true);
    await waitFor(() => sentTo(graph, contact.number).length >= 3, 'three sends');
    await new Promise((r) => setTimeout(r, 200));
    const out = sentTo(graph, contact.number);
    expect(out).toHaveLength(3);
    expect(out.map((m) => m.type)).toEqual(['image', 'image', 'image']);
    expect(out.map((m) => m.image.caption)).toEqual(Array(3).fill('Olá Bia, seu lembrete'));

    // The list screen's filters: none waiting, three sent.
    const waiting = await server.request('GET', `/scheduleMessages/?contactId=${contact.id}`, { token: t.users.super.token });
    expect(waiting.body).toMatchObject({ count: 0, messages: [] });
    const done = await server.request('GET', `/scheduleMessages/?status=sent&contactId=${contact.id}`, { token: t.users.super.token });
    expect(done.body.count).toBe(3);
    expect(done.body.messages[0]).toMatchObject({ contact: { id: contact.id, name: 'Bia Souza' }, schedule: { occurrence: 3 } });
  }, 120_000);
});

describe('changing and canceling scheduled messages', () => {
  const clock = frozenClock(new Date(Math.floor(Date.now() / 60_000) * 60_000));
  let server: TestServer;
  let graph: FakeGraphApi;
  beforeAll(async () => {
    ({ server, graph } = await startMessagingServer({ clock }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await graph?.stop();
  });

  const inOneHour = () => new Date(clock.now().getTime() + 3600_000).toISOString();

  it('edits and cancels only while pending: once sent or canceled, 400 ERR_SCHEDULE_NOT_PENDING', async () => {
    const t = await createMessagingTenant(server, graph);
    const post = (body: string) =>
      server.request('POST', '/messagesSchedule/', {
        token: t.users.super.token,
        body: { ticketId: t.ticketId, body, scheduleDate: inOneHour() },
      });
    const a = await post('vai sair');
    const b = await post('cancelada');
    expect((await server.request('DELETE', `/messagesSchedule/${b.body.id}`, { token: t.users.super.token })).status).toBe(200);
    const edited = await server.request('PATCH', `/messages/${a.body.id}`, {
      token: t.users.super.token,
      body: { body: 'vai sair, revista', recurrenceDays: 10, repetitions: 2 },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ body: 'vai sair, revista', schedule: { recurrenceDays: 10, repetitions: 2 } });

    clock.advance(3600_000);
    await runSweep(server);
    await waitForMessage(server, a.body.id, sent);
    for (const id of [a.body.id, b.body.id]) {
      const patch = await server.request('PATCH', `/messages/${id}`, { token: t.users.super.token, body: { body: 'tarde demais' } });
      expect(patch.status).toBe(400);
      expect(patch.body).toMatchObject({ error: 'ERR_SCHEDULE_NOT_PENDING', message: 'Só é possível alterar ou cancelar um agendamento pendente.' });
      const cancel = await server.request('DELETE', `/messagesSchedule/${id}`, { token: t.users.super.token });
      expect(cancel.status).toBe(400);
      expect(cancel.body.error).toBe('ERR_SCHEDULE_NOT_PENDING');
    }
    expect((await messageRow(server, a.body.id)).body).toBe('vai sair, revista');
    expect((await messageRow(server, b.body.id)).status).toBe('canceled');
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['vai sair, revista']);

    const list = (status: string) =>
      server.request('GET', `/scheduleMessages/?status=${status}&contactId=${t.contact.id}`, { token: t.users.super.token });
    expect((await list('canceled')).body.messages.map((m: { id: number }) => m.id)).toEqual([b.body.id]);
    expect((await list('sent')).body.messages.map((m: { id: number }) => m.id)).toEqual([a.body.id]);
    // The recurring edit wrote the next occurrence: waiting, in 10 days.
    const waiting = (await list('scheduled')).body.messages;
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ body: 'vai sair, revista', schedule: { occurrence: 2, repetitions: 2 } });
    expect((await list('all')).body.count).toBe(3);
  });

  it('a schedule ticket left without scheduled messages is closed; a typed date is read in the tenant time zone', async () => {
    const t = await createMessagingTenant(server, graph);
    const put = await server.request('PUT', '/settings/timeZone', { token: t.users.admin.token, body: { value: 'America/Manaus' } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const contact = await createContact(server, t.tenant.id);
    // Tomorrow 10:00 in Manaus (UTC-4, no daylight saving): 14:00 UTC.
    const tomorrow = new Date(clock.now().getTime() + DAY);
    const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Manaus' }).format(tomorrow).split('-');
    const res = await server.request('POST', '/messagesSchedule/', {
      token: t.users.admin.token,
      body: { contactId: contact.id, body: 'Bom dia', scheduleDate: `${d}/${m}/${y} 10:00` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.scheduleDate).toBe(`${y}-${m}-${d}T14:00:00.000Z`);
    const edited = await server.request('PATCH', `/messages/${res.body.id}`, {
      token: t.users.admin.token,
      body: { scheduleDate: `${y}-${m}-${d}T11:30` },
    });
    expect(edited.body.scheduleDate).toBe(`${y}-${m}-${d}T15:30:00.000Z`);
    // The chat's composer path reads a typed date the same way.
    const fromChat = await server.request('POST', `/messages/${t.ticketId}`, {
      token: t.users.admin.token,
      body: { body: 'Pelo chat', scheduleDate: `${d}/${m}/${y} 10:00` },
    });
    expect(fromChat.status, JSON.stringify(fromChat.body)).toBe(201);
    expect(fromChat.body.messages[0].scheduleDate).toBe(`${y}-${m}-${d}T14:00:00.000Z`);
    const ticketStatus = async () =>
      (await server.deps.dataSource.query(`SELECT status FROM tickets WHERE id = $1`, [res.body.ticketId]))[0].status;
    expect(await ticketStatus()).toBe('schedule');
    // A second schedule for the contact waits in the same ticket.
    const second = await server.request('POST', '/messagesSchedule/', {
      token: t.users.admin.token,
      body: { contactId: contact.id, body: 'Outro', scheduleDate: inOneHour() },
    });
    expect(second.body.ticketId).toBe(res.body.ticketId);
    await server.request('DELETE', `/messagesSchedule/${res.body.id}`, { token: t.users.admin.token });
    expect(await ticketStatus()).toBe('schedule');
    const third = await server.request('POST', '/messagesSchedule/', {
      token: t.users.admin.token,
      body: { contactId: contact.id, body: 'Terceiro', scheduleDate: inOneHour() },
    });
    expect(third.body.ticketId).toBe(res.body.ticketId);
    await server.request('PATCH', `/messages/${second.body.id}`, { token: t.users.admin.token, body: { status: 'canceled' } });
    expect(await ticketStatus()).toBe('schedule');
    // DELETE /messages withdraws a scheduled message too: the last one leaves the ticket closed.
    const withdrawn = await server.request('DELETE', '/messages', { token: t.users.admin.token, body: { id: third.body.id } });
    expect(withdrawn.status, JSON.stringify(withdrawn.body)).toBe(200);
    expect(await ticketStatus()).toBe('closed');
  });

  it('refuses another tenant (404), an agent changing a supervisor’s schedule (403), and malformed input (400, never 500)', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const s = await server.request('POST', '/messagesSchedule/', {
      token: t.users.super.token,
      body: { ticketId: t.ticketId, body: 'do supervisor', scheduleDate: inOneHour() },
    });
    expect(s.status).toBe(201);
    // Another tenant: not found, and not listed.
    expect((await server.request('PATCH', `/messages/${s.body.id}`, { token: other.users.admin.token, body: { body: 'x' } })).status).toBe(404);
    expect((await server.request('DELETE', `/messagesSchedule/${s.body.id}`, { token: other.users.admin.token })).status).toBe(404);
    expect((await server.request('GET', '/scheduleMessages/?status=all', { token: other.users.admin.token })).body.count).toBe(0);
    const foreign = await server.request('POST', '/messagesSchedule/', {
      token: other.users.admin.token,
      body: { contactId: t.contact.id, body: 'x', scheduleDate: inOneHour() },
    });
    expect(foreign.status).toBe(404);
    // The ticket's agent sees it but may not change someone else's schedule.
    const byAgent = await server.request('PATCH', `/messages/${s.body.id}`, { token: t.users.user.token, body: { body: 'x' } });
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.error).toBe('ERR_NO_PERMISSION');
    expect((await server.request('DELETE', `/messagesSchedule/${s.body.id}`, { token: t.users.user.token })).status).toBe(403);
    expect((await messageRow(server, s.body.id)).status).toBe('scheduled');

    const post = (body: unknown) => server.request('POST', '/messagesSchedule/', { token: t.users.super.token, body });
    const base = { ticketId: t.ticketId, body: 'x', scheduleDate: inOneHour() };
    const cases: [unknown, string][] = [
      [{ ...base, scheduleDate: 'amanhã' }, 'scheduleDate'],
      [{ ...base, scheduleDate: 12 }, 'scheduleDate'],
      [{ ...base, recurrenceDays: 50 }, 'recurrenceDays'],
      [{ ...base, recurrenceDays: 'x' }, 'recurrenceDays'],
      [{ ...base, repetitions: 0 }, 'repetitions'],
      [{ ...base, repetitions: 101 }, 'repetitions'],
      [{ ...base, body: 42 }, 'body'],
      [{ ...base, body: ' ' }, 'body'],
      [{ ...base, ticketId: 'abc' }, 'ticketId'],
      [{ ...base, ticketId: 99_999_999_999 }, 'ticketId'],
      [{ ...base, clientId: 'com espaço' }, 'clientId'],
    ];
    for (const [body, path] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields?.[0]?.path, JSON.stringify(res.body)).toBe(path);
    }
    const patch = (body: unknown) => server.request('PATCH', `/messages/${s.body.id}`, { token: t.users.super.token, body });
    for (const [body, path] of [
      [{ scheduleDate: '31/02/2031 10:00' }, 'scheduleDate'],
      [{ repetitions: -1 }, 'repetitions'],
      [{ status: 'sent' }, 'status'],
      [{}, 'body'],
    ] as const) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields[0].path).toBe(path);
    }
    const raw = await fetch(`${server.url}/messagesSchedule/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.users.super.token}` },
      body: '{"ticketId": ',
    });
    expect(raw.status).toBe(400);
    for (const query of ['status=bogus', 'contactId=0', 'page=x']) {
      const res = await server.request('GET', `/scheduleMessages/?${query}`, { token: t.users.super.token });
      expect(res.status, query).toBe(400);
    }
    expect((await server.request('DELETE', '/messagesSchedule/abc', { token: t.users.super.token })).status).toBe(400);
    expect((await server.request('GET', '/scheduleMessages/?status=all')).status).toBe(401);
    // Two files for one schedule: refused, nothing kept.
    const two = await multipart(server, 'POST', '/messagesSchedule/', t.users.super.token, { ticketId: String(t.ticketId), scheduleDate: inOneHour() }, [
      { name: 'a.png', type: 'image/png', bytes: Buffer.from('\x89PNG\r\n\x1a\na') },
      { name: 'b.png', type: 'image/png', bytes: Buffer.from('\x89PNG\r\n\x1a\nb') },
    ]);
    expect(two.status).toBe(400);
    expect(two.body.fields[0].path).toBe('medias');
    expect((await server.request('GET', '/scheduleMessages/?status=all', { token: t.users.super.token })).body.count).toBe(1);
  });
});
