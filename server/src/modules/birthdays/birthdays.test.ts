import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarDayInTimeZone, hourInTimeZone } from '@shared/schemas/messages';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { BIRTHDAY_JOB } from '../messages/messages.jobs';
import {
  createContact,
  createTicket,
  createWabaChannel,
  frozenClock,
  isolatedDatabase,
  sentTo,
  waitFor,
  type IsolatedDatabase,
} from '../messages/messages.test-support';

/**
 * Issue #14 item 7: birthday messages per channel at its hour in the tenant's time zone, once per
 * contact per year (across a restart), the channels' birthday and farewell messages written by
 * supervisors, and the upcoming birthdays list. Every expectation is computed here from the
 * contacts the test created, not read back from the server's own code.
 */

const ZONE = 'Asia/Tokyo';
// 16:00 UTC: 01:00 of the next day in Tokyo, 13:00 in São Paulo (the default zone): a server that
// ignored the tenant's zone would use another day and another hour.
const START = new Date('2026-03-10T16:00:00Z');
const clock = frozenClock(START);
let server: TestServer;
let graph: FakeGraphApi;
let db: IsolatedDatabase;
const dataDir = mkdtempSync(path.join(tmpdir(), 'atende-birthdays-'));

async function start(): Promise<TestServer> {
  return startTestServer(
    { WABA_GRAPH_BASE_URL: graph.url, DATA_DIR: dataDir, ...(db.url ? { DATABASE_URL: db.url } : {}) },
    { clock, inMemoryDatabase: false },
  );
}

beforeAll(async () => {
  graph = await new FakeGraphApi().start();
  db = await isolatedDatabase();
  server = await start();
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
  await db?.drop();
});

async function tenantInZone(s: TestServer) {
  const world = await s.createTenantWithUsers();
  const res = await s.request('PUT', '/settings/timeZone', { token: world.users.admin.token, body: { value: ZONE } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return world;
}

/** yyyy-MM-dd + n days. */
function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The next celebration of `birthday` from `today` (both yyyy-MM-dd), 29/02 on 28/02 in other years. */
function expectedNext(birthday: string, today: string): string {
  const [, m, d] = birthday.split('-').map(Number);
  const at = (y: number) => {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    return `${y}-${String(m).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
  };
  const y = Number(today.slice(0, 4));
  return at(y) >= today ? at(y) : at(y + 1);
}

const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

describe('GET /birthdays/upcoming', () => {
  it('lists the next birthdays in the tenant’s time zone, in order, with age, channel and paging', async () => {
    const w = await tenantInZone(server);
    const other = await server.createTenantWithUsers();
    const today = calendarDayInTimeZone(clock.now(), ZONE);
    expect(today).toBe('2026-03-11');
    const channel = await createWabaChannel(server, graph, w.users.admin.token, { name: 'Loja' });
    const put = await server.request('PUT', `/whatsapp/${channel}/birthday`, {
      token: w.users.super.token,
      body: { birthdayMessage: 'Feliz aniversário, {{firstName}}!', birthdayHour: 9 },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({ id: channel, birthdayMessage: 'Feliz aniversário, {{firstName}}!', birthdayHour: 9 });

    const people = [
      { name: 'Hoje Tóquio', birthday: '1985-03-11' }, // today in Tokyo (São Paulo is still on the 10th)
      { name: 'Ontem', birthday: '1990-03-10' }, // passed: next year
      { name: 'Abril', birthday: '2000-04-05' },
      { name: 'Amanhã A', birthday: '1979-03-12' },
      { name: 'Amanhã B', birthday: '2001-03-12' },
      { name: 'Bissexto', birthday: '1992-02-29' }, // next on 28/02/2027
      { name: 'Dezembro', birthday: '1970-12-01' },
    ];
    for (const p of people) await createContact(server, w.tenant.id, p);
    await createContact(server, w.tenant.id, { name: 'Grupo', birthday: '1999-03-12', isGroup: true });
    const blocked = await createContact(server, w.tenant.id, { name: 'Bloqueado', birthday: '1999-03-12' });
    await server.deps.dataSource.query(`UPDATE contacts SET "blockContact" = true WHERE id = $1`, [blocked.id]);
    await createContact(server, other.tenant.id, { name: 'Outra empresa', birthday: '1980-03-11' });

    const expected = (days: number) =>
      people
        .map((p) => ({ ...p, next: expectedNext(p.birthday, today) }))
        .filter((p) => daysBetween(today, p.next) < days)
        .sort((a, b) => a.next.localeCompare(b.next) || a.name.localeCompare(b.name))
        .map((p) => ({
          name: p.name,
          birthday: p.birthday,
          nextBirthday: p.next,
          daysUntil: daysBetween(today, p.next),
          turning: Number(p.next.slice(0, 4)) - Number(p.birthday.slice(0, 4)),
        }));

    const month = await server.request('GET', '/birthdays/upcoming?days=30', { token: w.users.super.token });
    expect(month.status, JSON.stringify(month.body)).toBe(200);
    expect(month.body).toMatchObject({ today, timeZone: ZONE, days: 30, count: expected(30).length, hasMore: false });
    expect(
      month.body.contacts.map((c: any) => ({
        name: c.name,
        birthday: c.birthday,
        nextBirthday: c.nextBirthday,
        daysUntil: c.daysUntil,
        turning: c.turning,
      })),
    ).toEqual(expected(30));
    expect(month.body.contacts[0]).toMatchObject({
      name: 'Hoje Tóquio',
      channelId: channel,
      channelName: 'Loja',
      birthdayHour: 9,
      greeted: false,
    });

    const year = await server.request('GET', '/birthdays/upcoming?days=366&pageSize=100', { token: w.users.admin.token });
    expect(year.body.contacts.map((c: any) => c.name)).toEqual(expected(366).map((c) => c.name));
    expect(year.body.contacts.find((c: any) => c.name === 'Bissexto')).toMatchObject({ nextBirthday: '2027-02-28', turning: 35 });

    const page2 = await server.request('GET', '/birthdays/upcoming?days=366&pageSize=2&pageNumber=2', {
      token: w.users.admin.token,
    });
    expect(page2.body).toMatchObject({ count: expected(366).length, hasMore: true, pageNumber: 2, pageSize: 2 });
    expect(page2.body.contacts.map((c: any) => c.name)).toEqual(
      expected(366)
        .slice(2, 4)
        .map((c) => c.name),
    );
    const past = await server.request('GET', '/birthdays/upcoming?days=366&pageSize=50&pageNumber=9', {
      token: w.users.admin.token,
    });
    expect(past.body).toMatchObject({ contacts: [], count: expected(366).length, hasMore: false, today });
  });

  it('refuses agents (403), without a token (401) and malformed queries (400 naming the field)', async () => {
    const w = await server.createTenantWithUsers();
    expect((await server.request('GET', '/birthdays/upcoming', { token: w.users.user.token })).status).toBe(403);
    expect((await server.request('GET', '/birthdays/upcoming')).status).toBe(401);
    for (const [query, field] of [
      ['days=0', 'days'],
      ['days=367', 'days'],
      ['days=abc', 'days'],
      ['pageNumber=0', 'pageNumber'],
      ['pageSize=1000', 'pageSize'],
    ]) {
      const res = await server.request('GET', `/birthdays/upcoming?${query}`, { token: w.users.admin.token });
      expect(res.status, query).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields[0].path, query).toBe(field);
    }
  });
});

describe('channel birthday and farewell messages', () => {
  it('supervisors write them; agents 403; another tenant’s channel 404; bad input 400', async () => {
    const w = await server.createTenantWithUsers();
    const other = await server.createTenantWithUsers();
    const channel = await createWabaChannel(server, graph, w.users.admin.token);
    const farewell = await server.request('PUT', `/whatsapp/${channel}/farewell`, {
      token: w.users.super.token,
      body: { farewellMessage: '  Até logo, {{firstName}}!  ' },
    });
    expect(farewell.status, JSON.stringify(farewell.body)).toBe(200);
    expect(farewell.body.farewellMessage).toBe('Até logo, {{firstName}}!');
    const cleared = await server.request('PUT', `/whatsapp/${channel}/birthday`, {
      token: w.users.admin.token,
      body: { birthdayMessage: '', birthdayHour: null },
    });
    expect(cleared.body).toMatchObject({
      birthdayMessage: null,
      birthdayHour: null,
      farewellMessage: 'Até logo, {{firstName}}!',
    });

    expect(
      (
        await server.request('PUT', `/whatsapp/${channel}/farewell`, {
          token: w.users.user.token,
          body: { farewellMessage: 'x' },
        })
      ).status,
    ).toBe(403);
    const foreign = await server.request('PUT', `/whatsapp/${channel}/farewell`, {
      token: other.users.admin.token,
      body: { farewellMessage: 'x' },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    const hour = await server.request('PUT', `/whatsapp/${channel}/birthday`, {
      token: w.users.admin.token,
      body: { birthdayMessage: 'Oi', birthdayHour: 24 },
    });
    expect(hour.status).toBe(400);
    expect(hour.body.fields[0]).toEqual({ path: 'birthdayHour', message: 'deve ser uma hora cheia de 0 a 23' });
    const noHour = await server.request('PUT', `/whatsapp/${channel}/birthday`, {
      token: w.users.admin.token,
      body: { birthdayMessage: 'Oi', birthdayHour: null },
    });
    expect(noHour.status).toBe(400);
    expect(noHour.body.fields[0].path).toBe('birthdayHour');
    const unknown = await server.request('PUT', `/whatsapp/${channel}/farewell`, {
      token: w.users.admin.token,
      body: { farewellMessage: 'x', queueId: 1 },
    });
    expect(unknown.status).toBe(400);
    expect(
      (await server.request('PUT', `/whatsapp/abc/farewell`, { token: w.users.admin.token, body: { farewellMessage: 'x' } }))
        .status,
    ).toBe(400);
    const [row] = await server.deps.dataSource.query(`SELECT "farewellMessage", "birthdayMessage" FROM channels WHERE id = $1`, [
      channel,
    ]);
    expect(row).toEqual({ farewellMessage: 'Até logo, {{firstName}}!', birthdayMessage: null });
  });

  it('the farewell message goes out with its variables filled when a ticket is resolved', async () => {
    const w = await server.createTenantWithUsers();
    const channel = await createWabaChannel(server, graph, w.users.admin.token);
    await server.request('PUT', `/whatsapp/${channel}/farewell`, {
      token: w.users.super.token,
      body: { farewellMessage: 'Até logo, {{firstName}}! Protocolo {{protocol}}. Atendente: {{user}}' },
    });
    const contact = await createContact(server, w.tenant.id, { name: 'Marina Souza' });
    const ticketId = await createTicket(server, {
      tenantId: w.tenant.id,
      contactId: contact.id,
      channelId: channel,
      userId: w.users.user.id,
    });
    const [{ protocol }] = await server.deps.dataSource.query(`SELECT protocol FROM tickets WHERE id = $1`, [ticketId]);
    const [agent] = await server.deps.dataSource.query(`SELECT name FROM users WHERE id = $1`, [w.users.user.id]);
    const res = await server.request('PUT', `/tickets/${ticketId}`, { token: w.users.user.token, body: { status: 'closed' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.closeReason).toBe('farewell');
    await waitFor(() => sentTo(graph, contact.number).length === 1, 'farewell sent');
    expect(sentTo(graph, contact.number)[0].text.body).toBe(`Até logo, Marina! Protocolo ${protocol}. Atendente: ${agent.name}`);
  });
});

describe('birthday messages per channel at its hour, once per contact per year', () => {
  it('greets each contact through its channel at that channel’s hour in the tenant’s zone, and never twice a year, across a restart', async () => {
    const w = await tenantInZone(server);
    const today = calendarDayInTimeZone(clock.now(), ZONE);
    const hour = hourInTimeZone(clock.now(), ZONE);
    const main = await createWabaChannel(server, graph, w.users.admin.token, { name: 'Principal' });
    const store = await createWabaChannel(server, graph, w.users.admin.token, { name: 'Loja' });
    await server.request('PUT', `/whatsapp/${main}/default`, { token: w.users.admin.token });
    const setBirthday = (id: number, birthdayMessage: string, birthdayHour: number) =>
      server.request('PUT', `/whatsapp/${id}/birthday`, { token: w.users.super.token, body: { birthdayMessage, birthdayHour } });
    expect((await setBirthday(main, 'Feliz aniversário, {{firstName}}! (principal)', hour)).status).toBe(200);
    expect((await setBirthday(store, 'Parabéns, {{name}}! (loja)', (hour + 1) % 24)).status).toBe(200);

    const birthday = `1990-${today.slice(5)}`;
    // Talks to the store: greeted by the store's channel, at its hour.
    const ana = await createContact(server, w.tenant.id, { name: 'Ana Lima', birthday });
    await createTicket(server, { tenantId: w.tenant.id, contactId: ana.id, channelId: store, userId: w.users.user.id });
    // No ticket: greeted by the default channel.
    const bruno = await createContact(server, w.tenant.id, { name: 'Bruno Reis', birthday });
    // Another day: nobody greets them today.
    const carla = await createContact(server, w.tenant.id, {
      name: 'Carla Dias',
      birthday: `1990-${addDays(today, 5).slice(5)}`,
    });

    await server.deps.periodic.runNow(BIRTHDAY_JOB);
    await waitFor(() => sentTo(graph, bruno.number).length === 1, 'default channel greeting');
    expect(sentTo(graph, bruno.number)[0].text.body).toBe('Feliz aniversário, Bruno! (principal)');
    expect(sentTo(graph, ana.number)).toHaveLength(0);
    const channelOf = async (contactId: number) =>
      (
        await server.deps.dataSource.query(
          `SELECT m."whatsappId" FROM messages m WHERE m."contactId" = $1 AND m."clientId" LIKE 'birthday:%'`,
          [contactId],
        )
      ).map((r: { whatsappId: number }) => r.whatsappId);
    expect(await channelOf(bruno.id)).toEqual([main]);

    // One hour later it is the store's hour.
    clock.advance(3600_000);
    await server.deps.periodic.runNow(BIRTHDAY_JOB);
    await waitFor(() => sentTo(graph, ana.number).length === 1, 'store greeting');
    expect(sentTo(graph, ana.number)[0].text.body).toBe('Parabéns, Ana Lima! (loja)');
    expect(await channelOf(ana.id)).toEqual([store]);
    expect(sentTo(graph, carla.number)).toHaveLength(0);

    const listed = await server.request('GET', '/birthdays/upcoming?days=10', { token: w.users.admin.token });
    expect(listed.body.contacts.map((c: any) => [c.name, c.channelName, c.greeted])).toEqual([
      ['Ana Lima', 'Loja', true],
      ['Bruno Reis', 'Principal', true],
      ['Carla Dias', 'Principal', false],
    ]);

    // A new server on the same database: nothing is sent again, by the job or by hand.
    await server.close();
    server = await start();
    const again = await server.request('POST', '/messages/sendBirthday', { token: w.users.admin.token });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ sent: 0, skipped: 2, withoutChannel: 0 });
    clock.advance(-3600_000);
    await server.deps.periodic.runNow(BIRTHDAY_JOB);
    clock.advance(3600_000);
    await server.deps.periodic.runNow(BIRTHDAY_JOB);

    // Later in the same year Bruno's birthday is corrected to another day: still greeted once this year.
    const later = addDays(today, 3);
    await server.deps.dataSource.query(`UPDATE contacts SET birthday = $2 WHERE id = $1`, [bruno.id, `1990-${later.slice(5)}`]);
    clock.advance(3 * 86_400_000);
    const corrected = await server.request('POST', '/messages/sendBirthday', { token: w.users.super.token });
    expect(corrected.body).toEqual({ sent: 0, skipped: 1, withoutChannel: 0 });
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo(graph, bruno.number)).toHaveLength(1);
    expect(sentTo(graph, ana.number)).toHaveLength(1);
    const [{ greetings }] = await server.deps.dataSource.query(
      `SELECT count(*)::int AS greetings FROM birthday_greetings WHERE "tenantId" = $1`,
      [w.tenant.id],
    );
    expect(greetings).toBe(2);

    // Next year the contact is greeted again.
    clock.set(new Date(Date.parse(`${Number(later.slice(0, 4)) + 1}-${later.slice(5)}T03:00:00Z`)));
    const nextYear = await server.request('POST', '/messages/sendBirthday', { token: w.users.super.token });
    expect(nextYear.body).toEqual({ sent: 1, skipped: 0, withoutChannel: 0 });
    await waitFor(() => sentTo(graph, bruno.number).length === 2, 'next year greeting');
    clock.set(START);
  }, 60_000);
});
