import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSINESS_TIME_ZONE, calendarDayInTimeZone, hourInTimeZone } from '@shared/schemas/messages';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { BIRTHDAY_JOB } from './messages.jobs';
import {
  createAgent,
  createContact,
  createMessagingTenant,
  frozenClock,
  messageRow,
  runSweep,
  sentTo,
  startMessagingServer,
  waitFor,
  waitForMessage,
} from './messages.test-support';

const clock = frozenClock(new Date(Math.floor(Date.now() / 60_000) * 60_000));
let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer({ clock }));
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const DAY = 24 * 3600_000;

/** dd/MM/yyyy HH:mm of an instant, as a person in the business time zone types it. */
function typed(date: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: BUSINESS_TIME_ZONE,
      hourCycle: 'h23',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(date)
      .map((x) => [x.type, x.value]),
  );
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

describe('POST /messagesSchedule/ and the schedule sweep', () => {
  it('schedules (dd/MM/yyyy HH:mm in the business time zone), lists, then sends when due with variables filled, recurring', async () => {
    const t = await createMessagingTenant(server, graph, { contact: { name: 'Ana Lima' } });
    const when = new Date(clock.now().getTime() + 2 * 3600_000);
    const res = await server.request('POST', '/messagesSchedule/', {
      token: t.users.user.token,
      body: {
        ticketId: t.ticketId,
        body: 'Lembrete para {{firstName}}',
        scheduleDate: typed(when),
        recurrenceDays: 5,
        repetitions: 2,
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: 'scheduled',
      body: 'Lembrete para {{firstName}}',
      scheduleDate: when.toISOString(),
      schedule: expect.objectContaining({ recurrenceDays: 5, repetitions: 2, occurrence: 1 }),
      flags: expect.objectContaining({ scheduled: true }),
    });
    const list = await server.request('GET', '/scheduleMessages/?page=1', { token: t.users.user.token });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ count: 1, hasMore: false });
    expect(list.body.messages[0]).toMatchObject({ id: res.body.id, contact: { id: t.contact.id, name: 'Ana Lima' } });
    const thread = await server.request('GET', `/messages/${t.ticketId}`, { token: t.users.user.token });
    expect(thread.body.messages[0].flags.scheduled).toBe(true);

    // Not due yet.
    await runSweep(server);
    await new Promise((r) => setTimeout(r, 150));
    expect((await messageRow(server, res.body.id)).status).toBe('scheduled');

    clock.advance(2 * 3600_000);
    await runSweep(server);
    const sent = await waitForMessage(server, res.body.id, (r) => r.status === 'sent');
    expect(sent.body).toBe('Lembrete para Ana');
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['Lembrete para Ana']);
    const [next] = await server.deps.dataSource.query(
      `SELECT id, status, "scheduleDate", body, "dataJson"->'schedule' AS schedule FROM messages WHERE "ticketId" = $1 AND status = 'scheduled'`,
      [t.ticketId],
    );
    expect(new Date(next.scheduleDate).getTime()).toBe(when.getTime() + 5 * DAY);
    expect(next.body).toBe('Lembrete para {{firstName}}');
    expect(next.schedule).toMatchObject({ occurrence: 2, repetitions: 2 });

    clock.advance(5 * DAY);
    await runSweep(server);
    await waitForMessage(server, Number(next.id), (r) => r.status === 'sent');
    await runSweep(server);
    await new Promise((r) => setTimeout(r, 150));
    const [{ left }] = await server.deps.dataSource.query(
      `SELECT count(*)::int AS left FROM messages WHERE "ticketId" = $1 AND status = 'scheduled'`,
      [t.ticketId],
    );
    expect(left).toBe(0);
    expect(sentTo(graph, t.contact.number)).toHaveLength(2);
  });

  it('PATCH changes text and date; PATCH status canceled and DELETE /messagesSchedule/{id} cancel (never sent)', async () => {
    const t = await createMessagingTenant(server, graph);
    const schedule = (body: string) =>
      server.request('POST', '/messagesSchedule', {
        token: t.users.user.token,
        body: { ticketId: t.ticketId, body, scheduleDate: new Date(clock.now().getTime() + 3600_000).toISOString() },
      });
    const a = await schedule('primeira');
    const b = await schedule('segunda');
    const c = await schedule('terceira');
    const later = new Date(clock.now().getTime() + 7200_000);
    const patched = await server.request('PATCH', `/messages/${a.body.id}`, {
      token: t.users.user.token,
      body: { body: 'primeira revista', scheduleDate: later.toISOString() },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ body: 'primeira revista', scheduleDate: later.toISOString(), status: 'scheduled' });
    const canceled = await server.request('PATCH', `/messages/${b.body.id}`, {
      token: t.users.user.token,
      body: { status: 'canceled' },
    });
    expect(canceled.body.status).toBe('canceled');
    const deleted = await server.request('DELETE', `/messagesSchedule/${c.body.id}`, { token: t.users.user.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.status).toBe('canceled');
    const list = await server.request('GET', '/scheduleMessages', { token: t.users.user.token });
    expect(list.body.messages.map((m: any) => m.id)).toEqual([a.body.id]);
    clock.advance(7200_000);
    await runSweep(server);
    await waitForMessage(server, a.body.id, (r) => r.status === 'sent');
    expect(sentTo(graph, t.contact.number).map((m) => m.text.body)).toEqual(['primeira revista']);
    // Sent: too late to change.
    const tooLate = await server.request('PATCH', `/messages/${a.body.id}`, { token: t.users.user.token, body: { body: 'x' } });
    expect(tooLate.status).toBe(400);
  });

  it('with contactId only: the contact’s ongoing ticket, or a new one of status schedule on the default channel', async () => {
    const t = await createMessagingTenant(server, graph);
    const fresh = await createContact(server, t.tenant.id, { name: 'Novo Contato' });
    const res = await server.request('POST', '/messagesSchedule/', {
      token: t.users.admin.token,
      body: { contactId: fresh.id, body: 'Bem-vindo', scheduleDate: new Date(clock.now().getTime() + 60_000).toISOString() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [ticket] = await server.deps.dataSource.query(`SELECT "contactId", status, "whatsappId" FROM tickets WHERE id = $1`, [
      res.body.ticketId,
    ]);
    expect(ticket).toEqual({ contactId: fresh.id, status: 'schedule', whatsappId: t.channelId });
    const existing = await server.request('POST', '/messagesSchedule/', {
      token: t.users.user.token,
      body: {
        contactId: t.contact.id,
        body: 'No mesmo atendimento',
        scheduleDate: new Date(clock.now().getTime() + 60_000).toISOString(),
      },
    });
    expect(existing.body.ticketId).toBe(t.ticketId);
  });

  it('a message whose ticket was closed meanwhile goes out in the contact’s new ticket', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await server.request('POST', '/messagesSchedule/', {
      token: t.users.user.token,
      body: {
        ticketId: t.ticketId,
        body: 'Depois do fechamento',
        scheduleDate: new Date(clock.now().getTime() + 60_000).toISOString(),
      },
    });
    await server.deps.dataSource.query(`UPDATE tickets SET status = 'closed' WHERE id = $1`, [t.ticketId]);
    clock.advance(60_000);
    await runSweep(server);
    const row = await waitForMessage(server, res.body.id, (r) => r.status === 'sent');
    expect(row.ticketId).not.toBe(t.ticketId);
    const [ticket] = await server.deps.dataSource.query(`SELECT "contactId", status FROM tickets WHERE id = $1`, [row.ticketId]);
    expect(ticket).toEqual({ contactId: t.contact.id, status: 'pending' });
  });

  it('validates: future date, date format, ticket or contact, recurrence options; 404 for another tenant; 401 without a token', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const post = (body: unknown, token = t.users.user.token) => server.request('POST', '/messagesSchedule/', { token, body });
    const future = new Date(clock.now().getTime() + 3600_000).toISOString();
    const past = await post({
      ticketId: t.ticketId,
      body: 'x',
      scheduleDate: new Date(clock.now().getTime() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.fields[0]).toMatchObject({ path: 'scheduleDate', message: expect.stringContaining('Data inválida') });
    const impossible = await post({ ticketId: t.ticketId, body: 'x', scheduleDate: '31/02/2031 10:00' });
    expect(impossible.body.fields[0].path).toBe('scheduleDate');
    const neither = await post({ body: 'x', scheduleDate: future });
    expect(neither.body.fields[0].path).toBe('ticketId');
    const recurrence = await post({ ticketId: t.ticketId, body: 'x', scheduleDate: future, recurrenceDays: 7 });
    expect(recurrence.body.fields[0].path).toBe('recurrenceDays');
    const noBody = await post({ ticketId: t.ticketId, scheduleDate: future });
    expect(noBody.body.fields[0].path).toBe('body');
    expect((await post({ ticketId: t.ticketId, body: 'x', scheduleDate: future }, other.users.admin.token)).status).toBe(404);
    const foreignContact = await post({ contactId: t.contact.id, body: 'x', scheduleDate: future }, other.users.admin.token);
    expect(foreignContact.status).toBe(404);
    expect(foreignContact.body.error).toBe('ERR_NO_CONTACT_FOUND');
    expect(
      (await server.request('POST', '/messagesSchedule/', { body: { ticketId: t.ticketId, body: 'x', scheduleDate: future } }))
        .status,
    ).toBe(401);
    expect((await server.request('GET', '/scheduleMessages/')).status).toBe(401);
    expect((await server.request('GET', '/scheduleMessages/?page=0', { token: t.users.user.token })).body.fields[0].path).toBe(
      'page',
    );
    expect((await server.request('DELETE', `/messagesSchedule/1`)).status).toBe(401);
  });

  it('lists only what the caller may see; another tenant cannot change or cancel it', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const res = await server.request('POST', '/messagesSchedule/', {
      token: t.users.user.token,
      body: { ticketId: t.ticketId, body: 'interno', scheduleDate: new Date(clock.now().getTime() + 3600_000).toISOString() },
    });
    const [queue] = await server.deps.dataSource.query(`INSERT INTO queues ("tenantId", name) VALUES ($1, 'Fila') RETURNING id`, [
      t.tenant.id,
    ]);
    await server.deps.dataSource.query(`UPDATE tickets SET "queueId" = $1 WHERE id = $2`, [queue.id, t.ticketId]);
    const outsider = await createAgent(server, t.tenant.id);
    expect((await server.request('GET', '/scheduleMessages/', { token: outsider.token })).body).toMatchObject({
      count: 0,
      messages: [],
    });
    expect((await server.request('GET', '/scheduleMessages/', { token: other.users.admin.token })).body.count).toBe(0);
    expect((await server.request('GET', '/scheduleMessages/', { token: t.users.admin.token })).body.count).toBe(1);
    expect(
      (await server.request('PATCH', `/messages/${res.body.id}`, { token: other.users.admin.token, body: { body: 'x' } })).status,
    ).toBe(404);
    expect((await server.request('DELETE', `/messagesSchedule/${res.body.id}`, { token: other.users.admin.token })).status).toBe(
      404,
    );
    expect(
      (await server.request('PATCH', `/messages/${res.body.id}`, { token: outsider.token, body: { body: 'x' } })).status,
    ).toBe(404);
    const bad = await server.request('PATCH', `/messages/${res.body.id}`, { token: t.users.user.token, body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('body');
    expect((await server.request('PATCH', `/messages/${res.body.id}`, { body: { body: 'x' } })).status).toBe(401);
  });
});

describe('POST /messages/sendBirthday', () => {
  const todayBirthday = () => `1990-${calendarDayInTimeZone(clock.now()).slice(5)}`;

  it('sends the channel’s birthday message (variables filled) to today’s birthdays, once a day', async () => {
    const t = await createMessagingTenant(server, graph);
    const put = await server.request('PUT', `/whatsapp/${t.channelId}`, {
      token: t.users.admin.token,
      body: { birthdayMessage: 'Feliz aniversário, {{firstName}}!' },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const birthday = await createContact(server, t.tenant.id, { name: 'Beatriz Costa', birthday: todayBirthday() });
    await createContact(server, t.tenant.id, {
      name: 'Outro Dia',
      birthday: '1990-01-01' === todayBirthday() ? '1990-06-15' : '1990-01-01',
    });
    const res = await server.request('POST', '/messages/sendBirthday', { token: t.users.super.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ sent: 1, skipped: 0, withoutChannel: 0 });
    await waitFor(() => sentTo(graph, birthday.number).length === 1, 'birthday message sent');
    expect(sentTo(graph, birthday.number)[0].text.body).toBe('Feliz aniversário, Beatriz!');
    const again = await server.request('POST', '/messages/sendBirthday', { token: t.users.admin.token, body: {} });
    expect(again.body).toEqual({ sent: 0, skipped: 1, withoutChannel: 0 });
    // No empty ticket was opened by the second run.
    const [{ count }] = await server.deps.dataSource.query(`SELECT count(*)::int AS count FROM tickets WHERE "contactId" = $1`, [
      birthday.id,
    ]);
    expect(count).toBe(1);
  });

  it('runs by itself at the channel’s birthday hour', async () => {
    const t = await createMessagingTenant(server, graph);
    await server.request('PUT', `/whatsapp/${t.channelId}`, {
      token: t.users.admin.token,
      body: { birthdayMessage: 'Parabéns, {{name}}!', birthdayHour: hourInTimeZone(clock.now()) },
    });
    const birthday = await createContact(server, t.tenant.id, { name: 'Caio Prado', birthday: todayBirthday() });
    await server.deps.periodic.runNow(BIRTHDAY_JOB);
    await waitFor(() => sentTo(graph, birthday.number).length === 1, 'birthday job');
    expect(sentTo(graph, birthday.number)[0].text.body).toBe('Parabéns, Caio Prado!');
  });

  it('counts birthdays without a birthday channel; ordinary users are refused (403); 401 without a token; 400 for bad input', async () => {
    const t = await createMessagingTenant(server, graph);
    await createContact(server, t.tenant.id, { birthday: todayBirthday() });
    const res = await server.request('POST', '/messages/sendBirthday', { token: t.users.admin.token });
    expect(res.body).toEqual({ sent: 0, skipped: 0, withoutChannel: 1 });
    expect((await server.request('POST', '/messages/sendBirthday', { token: t.users.user.token })).status).toBe(403);
    expect((await server.request('POST', '/messages/sendBirthday', {})).status).toBe(401);
    const bad = await server.request('POST', '/messages/sendBirthday', {
      token: t.users.admin.token,
      body: { contactIds: ['x'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('contactIds.0');
  });
});
