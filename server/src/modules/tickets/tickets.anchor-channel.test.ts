import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketDto } from '@shared/schemas/tickets';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { insertChannel, insertContact, ticketRow, ticketWorld } from './tickets.test-support';

/**
 * POST /tickets as the anchor (Izing) web client sends it from the contacts page: the chosen
 * channel in `channelId`, its type in `channel`, and `isActiveDemand: true`. The chosen channel
 * is honoured (it used to be dropped for the default one).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

describe('POST /tickets with the anchor client fields', () => {
  it('opens the ticket on the channel named by channelId (not the default one)', async () => {
    const w = await ticketWorld(server);
    const telegram = await insertChannel(server, w.tenant.id, { type: 'telegram' });
    const contact = await insertContact(server, w.tenant.id, 'Dora');
    const res = await server.request<TicketDto>('POST', '/tickets', {
      token: w.users.user.token,
      body: {
        contactId: contact,
        isActiveDemand: true,
        userId: w.users.user.id,
        channel: 'telegram',
        channelId: telegram,
        status: 'open',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ contactId: contact, whatsappId: telegram, status: 'open', userId: w.users.user.id });
    expect(await ticketRow(server, res.body.id)).toMatchObject({ whatsappId: telegram, channel: 'telegram' });
  });

  it('with the type alone: the default channel when of that type, else the oldest channel of that type', async () => {
    const w = await ticketWorld(server);
    const first = await insertChannel(server, w.tenant.id, { type: 'instagram' });
    await insertChannel(server, w.tenant.id, { type: 'instagram' });
    const onType = await server.request<TicketDto>('POST', '/tickets', {
      token: w.users.user.token,
      body: { contactId: await insertContact(server, w.tenant.id), channel: 'instagram' },
    });
    expect(onType.status, JSON.stringify(onType.body)).toBe(201);
    expect(onType.body.whatsappId).toBe(first);
    const onDefault = await server.request<TicketDto>('POST', '/tickets', {
      token: w.users.user.token,
      body: { contactId: await insertContact(server, w.tenant.id), channel: 'waba' },
    });
    expect(onDefault.body.whatsappId).toBe(w.channel);
    const none = await server.request('POST', '/tickets', {
      token: w.users.user.token,
      body: { contactId: await insertContact(server, w.tenant.id), channel: 'messenger' },
    });
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it("refuses another tenant's channel (404, no ticket), a type that is not the channel's, conflicting ids and isActiveDemand false (400 naming the field)", async () => {
    const w = await ticketWorld(server);
    const other = await ticketWorld(server);
    const contact = await insertContact(server, w.tenant.id);
    const foreign = await server.request('POST', '/tickets', {
      token: w.users.user.token,
      body: { contactId: contact, channelId: other.channel, isActiveDemand: true },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    const [{ count }] = await server.deps.dataSource.query(`SELECT count(*)::int AS count FROM tickets WHERE "contactId" = $1`, [
      contact,
    ]);
    expect(count).toBe(0);
    const cases: [Record<string, unknown>, string][] = [
      [{ channelId: w.channel, channel: 'telegram' }, 'channel'],
      [{ channelId: w.channel, whatsappId: w.channel + 1000 }, 'channelId'],
      [{ isActiveDemand: false }, 'isActiveDemand'],
      [{ channel: 'fax' }, 'channel'],
    ];
    for (const [fields, path] of cases) {
      const res = await server.request('POST', '/tickets', {
        token: w.users.user.token,
        body: { contactId: contact, ...fields },
      });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.fields.map((f: { path: string }) => f.path)).toEqual([path]);
    }
  });
});
