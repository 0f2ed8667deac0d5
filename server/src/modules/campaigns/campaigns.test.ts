import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { CAMPAIGN_OPTED_OUT_REASON, CAMPAIGN_START_PAST, type CampaignStatus } from '@shared/schemas/campaigns';
import { deliverWebhook, inboundPayload, type FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import {
  createMessagingTenant,
  multipart,
  sentTo,
  startMessagingServer,
  waitFor,
  type MessagingTenant,
} from '../messages/messages.test-support';
import { campaignBody, campaignRow, contactStatusCounts, inAnHour, insertContacts } from './campaigns.test-support';

/**
 * Campaigns (issue #16) through the real app: the state machine of spec section 4 as a table,
 * validation (4xx with the spec's codes, never a 500), tenancy and roles on every route, the
 * throttled sender against the fake Cloud API (each contact once, messages round robin with
 * variables, cancel within one message, re-schedule resumes), opt-out words, duplicate, the 2%
 * warning and the PDF report read back with pdftotext.
 */

let server: TestServer;
let graph: FakeGraphApi;
let dir: string;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
  dir = mkdtempSync(path.join(tmpdir(), 'campaign-report-'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await graph?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const APP_SECRET = 'app-secret-0123456789';

async function createCampaign(t: MessagingTenant, fields: Record<string, unknown> = {}, channelId = t.channelId!): Promise<number> {
  const res = await server.request('POST', '/campaigns', { token: t.users.admin.token, body: campaignBody(channelId, fields) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function link(t: MessagingTenant, campaignId: number, contactIds: number[]) {
  const res = await server.request('POST', `/campaigns/contacts/${campaignId}`, { token: t.users.super.token, body: { contactIds } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** A waba channel of the tenant that is not connected: its campaigns stay processing (contacts wait). */
async function idleChannel(tenantId: number): Promise<number> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'Parada', 'waba', 'DISCONNECTED') RETURNING id`,
    [tenantId],
  );
  return row.id;
}

describe('the campaign state machine (spec section 4)', () => {
  type Action = 'edit' | 'schedule' | 'cancel' | 'link' | 'unlink' | 'delete';
  // [state, action, HTTP status, error code or the state after]
  const table: [CampaignStatus, Action, number, string][] = [
    ['pending', 'edit', 200, 'pending'],
    ['pending', 'schedule', 200, 'scheduled'],
    ['pending', 'cancel', 400, 'ERR_CAMPAIGN_CANCEL'],
    ['pending', 'link', 200, 'pending'],
    ['pending', 'unlink', 200, 'pending'],
    ['pending', 'delete', 204, 'deleted'],
    ['scheduled', 'edit', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['scheduled', 'schedule', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['scheduled', 'cancel', 200, 'canceled'],
    ['scheduled', 'link', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['scheduled', 'unlink', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['scheduled', 'delete', 400, 'ERR_CAMPAIGN_DELETE_RUNNING'],
    ['processing', 'edit', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['processing', 'schedule', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['processing', 'cancel', 200, 'canceled'],
    ['processing', 'link', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['processing', 'unlink', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['processing', 'delete', 400, 'ERR_CAMPAIGN_DELETE_RUNNING'],
    ['canceled', 'edit', 200, 'canceled'],
    ['canceled', 'schedule', 200, 'scheduled'],
    ['canceled', 'cancel', 400, 'ERR_CAMPAIGN_CANCEL'],
    ['canceled', 'link', 200, 'canceled'],
    ['canceled', 'unlink', 200, 'canceled'],
    ['canceled', 'delete', 204, 'deleted'],
    ['finished', 'edit', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['finished', 'schedule', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['finished', 'cancel', 400, 'ERR_CAMPAIGN_CANCEL'],
    ['finished', 'link', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['finished', 'unlink', 400, 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING'],
    ['finished', 'delete', 204, 'deleted'],
  ];

  it('every action from every state', async () => {
    const t = await createMessagingTenant(server, graph);
    const channel = await idleChannel(t.tenant.id);
    const [a, b] = await insertContacts(server, t.tenant.id, 2);
    for (const [state, action, status, expected] of table) {
      const id = await createCampaign(t, { name: `${state} ${action}` }, channel);
      await link(t, id, [a.id]);
      await server.deps.dataSource.query(`UPDATE campaigns SET status = $2 WHERE id = $1`, [id, state]);
      const token = t.users.admin.token;
      const res =
        action === 'edit'
          ? await server.request('PUT', `/campaigns/${id}`, { token, body: campaignBody(channel, { name: 'Editada' }) })
          : action === 'schedule'
            ? await server.request('POST', `/campaigns/start/${id}`, { token, body: {} })
            : action === 'cancel'
              ? await server.request('POST', `/campaigns/cancel/${id}`, { token })
              : action === 'link'
                ? await server.request('POST', `/campaigns/contacts/${id}`, { token, body: { contactIds: [b.id] } })
                : action === 'unlink'
                  ? await server.request('DELETE', `/campaigns/contacts/${id}/${a.id}`, { token })
                  : await server.request('DELETE', `/campaigns/${id}`, { token });
      const row = await campaignRow(server, id);
      const where = `${state} -> ${action}: ${JSON.stringify(res.body)}`;
      expect(res.status, where).toBe(status);
      if (status >= 400) {
        expect(res.body.error, where).toBe(expected);
        expect(row.status, where).toBe(state);
      } else if (expected === 'deleted') {
        expect(row, where).toBeUndefined();
      } else {
        expect(row.status, where).toBe(expected);
      }
    }
  }, 60_000);
});

describe('validation: malformed input is a 4xx with the spec code, never a 500', () => {
  it('create, edit, link and schedule', async () => {
    const t = await createMessagingTenant(server, graph);
    const token = t.users.admin.token;
    const empty = await server.request('POST', '/campaigns', { token, body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('ERR_VALIDATION');
    expect(empty.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['channelId', 'message1', 'name', 'start']);
    expect(empty.body.fields.find((f: { path: string }) => f.path === 'name').message).toBe('Nome é obrigatório');

    const past = await server.request('POST', '/campaigns', {
      token,
      body: campaignBody(t.channelId!, { start: new Date(Date.now() - 86_400_000).toISOString() }),
    });
    expect(past.status).toBe(400);
    expect(past.body.fields).toEqual([{ path: 'start', message: CAMPAIGN_START_PAST }]);

    for (const bad of [
      { message4: 'quarta mensagem' },
      { delay: -1 },
      { delay: 'muito' },
      { start: 'amanhã' },
      { channelId: 0 },
      { channelId: 99_999_999_999 },
      { message1: '   ' },
      { name: 'x'.repeat(121) },
    ]) {
      const res = await server.request('POST', '/campaigns', { token, body: campaignBody(t.channelId!, bad) });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const notJson = await server.request('POST', '/campaigns', { token, body: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);

    // Another tenant's channel: refused naming the field.
    const other = await createMessagingTenant(server, graph);
    const foreign = await server.request('POST', '/campaigns', { token, body: campaignBody(other.channelId!) });
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields).toEqual([{ path: 'channelId', message: 'conexão não encontrada' }]);

    // The anchor's field name for the channel.
    const anchor = campaignBody(t.channelId!);
    delete anchor.channelId;
    const viaSession = await server.request('POST', '/campaigns', { token, body: { ...anchor, sessionId: t.channelId } });
    expect(viaSession.status, JSON.stringify(viaSession.body)).toBe(201);
    expect(viaSession.body).toMatchObject({ channelId: t.channelId, sessionId: t.channelId, status: 'pending' });

    const id = viaSession.body.id as number;
    // Scheduling needs linked contacts.
    const noContacts = await server.request('POST', `/campaigns/start/${id}`, { token, body: {} });
    expect(noContacts.status).toBe(400);
    expect(noContacts.body).toMatchObject({ error: 'ERR_NO_CAMPAIGN_CONTACTS_NOT_FOUND', message: 'Campanha sem contatos vinculados.' });
    // Links: nothing named, a foreign contact (nothing linked), a bad id.
    expect((await server.request('POST', `/campaigns/contacts/${id}`, { token, body: {} })).body.error).toBe('ERR_VALIDATION');
    const foreignContact = await server.request('POST', `/campaigns/contacts/${id}`, {
      token,
      body: { contactIds: [t.contact.id, other.contact.id] },
    });
    expect(foreignContact.status).toBe(400);
    expect(foreignContact.body.error).toBe('ERR_CAMPAIGN_CONTACTS_NOT_EXISTS_OR_NOT_ACESSIBLE');
    expect((await contactStatusCounts(server, id)).pending).toBeUndefined();
    expect((await server.request('POST', `/campaigns/contacts/${id}`, { token, body: { contactIds: ['x'] } })).status).toBe(400);
    expect((await server.request('DELETE', `/campaigns/contacts/${id}/${t.contact.id}`, { token })).body.error).toBe(
      'ERR_CAMPAIGN_CONTACTS_NOT_EXISTS',
    );
    // The anchor's link body: an array of contact rows.
    const anchorLink = await server.request('POST', `/campaigns/contacts/${id}`, { token, body: [{ id: t.contact.id, name: 'x' }] });
    expect(anchorLink.status, JSON.stringify(anchorLink.body)).toBe(200);
    expect(anchorLink.body).toMatchObject({ added: 1, counts: { contacts: 1, pending: 1 } });

    // A start that has passed since the campaign was written.
    await server.deps.dataSource.query(`UPDATE campaigns SET start = now() - interval '1 day' WHERE id = $1`, [id]);
    const stale = await server.request('POST', `/campaigns/start/${id}`, { token, body: {} });
    expect(stale.status).toBe(400);
    expect(stale.body).toMatchObject({
      error: 'ERROR_CAMPAIGN_DATE_NOT_VALID',
      message: 'Não é possível programar campanha com data menor que hoje.',
    });
    expect((await server.request('POST', `/campaigns/start/${id}`, { token, body: { startNow: 'talvez' } })).status).toBe(400);
    expect((await server.request('GET', `/campaigns/contacts/${id}?pageSize=100000`, { token })).status).toBe(400);
    expect((await server.request('GET', `/campaigns/contacts/${id}?status=enviada`, { token })).status).toBe(400);
    expect((await server.request('GET', `/campaigns/abc`, { token })).status).toBe(400);
  });
});

describe('tenancy and roles on every route', () => {
  it("another tenant's admin gets 404 and an agent 403; the list shows only the caller's campaigns", async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const id = await createCampaign(t);
    await link(t, id, [t.contact.id]);
    const routes: [string, string, unknown?][] = [
      ['GET', `/campaigns/${id}`],
      ['PUT', `/campaigns/${id}`, campaignBody(t.channelId!)],
      ['POST', `/campaigns/start/${id}`, {}],
      ['POST', `/campaigns/cancel/${id}`],
      ['POST', `/campaigns/duplicate/${id}`],
      ['GET', `/campaigns/report/${id}`],
      ['POST', `/campaigns/contacts/${id}`, { contactIds: [t.contact.id] }],
      ['GET', `/campaigns/contacts/${id}`],
      ['DELETE', `/campaigns/contacts/${id}/${t.contact.id}`],
      ['DELETE', `/campaigns/deleteall/contacts/${id}`],
      ['DELETE', `/campaigns/${id}`],
    ];
    for (const [method, url, body] of routes) {
      const foreign = await server.request(method, url, { token: other.users.admin.token, body });
      expect(foreign.status, `${method} ${url} ${JSON.stringify(foreign.body)}`).toBe(404);
      expect(foreign.body.error).toBe('ERR_NO_CAMPAIGN_FOUND');
      const agent = await server.request(method, url, { token: t.users.user.token, body });
      expect(agent.status, `${method} ${url}`).toBe(403);
    }
    expect((await server.request('GET', '/campaigns', { token: t.users.user.token })).status).toBe(403);
    expect((await server.request('POST', '/campaigns', { token: t.users.user.token, body: campaignBody(t.channelId!) })).status).toBe(403);
    const list = await server.request('GET', '/campaigns', { token: other.users.super.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    // Nothing changed for the owner.
    const mine = await server.request('GET', `/campaigns/${id}`, { token: t.users.super.token });
    expect(mine.body).toMatchObject({ id, status: 'pending', counts: { contacts: 1, pending: 1 } });
  });
});

describe('the sender', () => {
  it('sends each contact once, round robin over the messages with variables; an opted-out contact fails with the reason; finished; PDF report', async () => {
    const t = await createMessagingTenant(server, graph);
    const contacts = await insertContacts(server, t.tenant.id, 11);
    // The contact writes an opt-out word ("parar!", accents and case ignored) before the campaign.
    const hook = await deliverWebhook(
      `${server.url}/webhooks/waba/${t.channelId}`,
      inboundPayload(graph.phoneNumberId, [{ from: t.contact.number, message: { type: 'text', text: { body: '  Párar! ' } } }]),
      APP_SECRET,
    );
    expect(hook.status).toBe(200);
    await waitFor(async () => {
      const [c] = await server.deps.dataSource.query(`SELECT "campaignOptOut" FROM contacts WHERE id = $1`, [t.contact.id]);
      return c.campaignOptOut === true;
    }, 'opt-out');
    const before = sentTo(graph, t.contact.number).length;

    const id = await createCampaign(t, { message3: 'Mensagem 3 para {{name}}' });
    await link(t, id, [...contacts.map((c) => c.id), t.contact.id]);
    const detail = await server.request('GET', `/campaigns/${id}`, { token: t.users.admin.token });
    expect(detail.body.complaintWarning).toMatchObject({ percent: 2, recipients: 12, complaintsToBlock: 1 });
    expect(detail.body.complaintWarning.text).toContain('2% dos destinatários');

    const started = await server.request('POST', `/campaigns/start/${id}`, { token: t.users.admin.token, body: { startNow: true } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'campaign finished', 30_000);

    expect(await contactStatusCounts(server, id)).toEqual({ delivered: 11, failed: 1 });
    const bodies: string[] = [];
    for (const c of contacts) {
      const got = sentTo(graph, c.number);
      expect(got, c.number).toHaveLength(1);
      bodies.push(got[0].text.body);
    }
    expect(sentTo(graph, t.contact.number)).toHaveLength(before);
    // Three messages, each used, variables filled ("Cliente 1" -> firstName "Cliente").
    expect(bodies.filter((b) => b === 'Olá Cliente, mensagem 1').length).toBeGreaterThan(0);
    expect(bodies.filter((b) => /^Olá Cliente \d+, mensagem 2$/.test(b)).length).toBeGreaterThan(0);
    expect(bodies.filter((b) => /^Mensagem 3 para Cliente \d+$/.test(b)).length).toBeGreaterThan(0);

    const page = await server.request('GET', `/campaigns/contacts/${id}?pageSize=5&pageNumber=3`, { token: t.users.super.token });
    expect(page.body).toMatchObject({ count: 12, hasMore: false, pageNumber: 3 });
    expect(page.body.contacts).toHaveLength(2);
    const failed = await server.request('GET', `/campaigns/contacts/${id}?status=failed`, { token: t.users.super.token });
    expect(failed.body.contacts).toEqual([
      expect.objectContaining({ contactId: t.contact.id, status: 'failed', error: CAMPAIGN_OPTED_OUT_REASON, optedOut: true }),
    ]);
    const delivered = await server.request('GET', `/campaigns/contacts/${id}?status=delivered&pageSize=20`, { token: t.users.super.token });
    for (const c of delivered.body.contacts) {
      expect(c.messageId).toMatch(/^wamid\./);
      expect([1, 2, 3]).toContain(c.messageIndex);
    }

    // Progress reached supervisors and admins as campaign:update events, the last one finished.
    const events = (await server.deps.dataSource.query(
      `SELECT payload, audience FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq`,
      [t.tenant.id, SOCKET_EVENTS.campaignUpdate],
    )) as { payload: any; audience: any }[];
    expect(events.at(-1)!.payload.campaign).toMatchObject({ id, status: 'finished', counts: { delivered: 11, failed: 1 } });
    expect(events.every((e) => e.audience.scope === 'profiles' && !e.audience.profiles.includes('user'))).toBe(true);

    // The PDF report: totals, timing and every contact's outcome.
    const report = await fetch(`${server.url}/campaigns/report/${id}`, { headers: { authorization: `Bearer ${t.users.admin.token}` } });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toBe('application/pdf');
    const file = path.join(dir, `campaign-${id}.pdf`);
    writeFileSync(file, Buffer.from(await report.arrayBuffer()));
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Relatório da campanha: Campanha de teste');
    for (const line of ['Contatos: 12', 'Entregues: 11', 'Falhas: 1', 'Pendentes: 0', 'Situação da campanha: Finalizada']) {
      expect(text).toContain(line);
    }
    expect(text).toMatch(/Duração: \d\d:\d\d:\d\d/);
    expect(text).toMatch(/Taxa: [\d,]+ mensagens por minuto/);
    for (const c of contacts) expect(text).toContain(c.number);
    expect(text).toContain('Contato pediu para não receber');
  }, 60_000);

  it('cancel stops within one message; scheduling it again sends the rest, each contact once; duplicate copies it pending', async () => {
    const t = await createMessagingTenant(server, graph);
    const contacts = await insertContacts(server, t.tenant.id, 8);
    const id = await createCampaign(t, { delay: 1 });
    await link(t, id, contacts.map((c) => c.id));
    expect((await server.request('POST', `/campaigns/start/${id}`, { token: t.users.super.token, body: { startNow: true } })).status).toBe(200);
    await waitFor(async () => ((await contactStatusCounts(server, id)).delivered ?? 0) >= 2, 'two sends', 20_000);
    const canceled = await server.request('POST', `/campaigns/cancel/${id}`, { token: t.users.super.token });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    const atCancel = (await contactStatusCounts(server, id)).delivered ?? 0;
    await new Promise((r) => setTimeout(r, 3_500));
    const after = await contactStatusCounts(server, id);
    expect(after.delivered ?? 0).toBeLessThanOrEqual(atCancel + 1);
    expect(after.pending).toBeGreaterThan(0);
    expect((await campaignRow(server, id)).status).toBe('canceled');

    // Edited while canceled (faster), then scheduled again: only the pending contacts go out.
    const edited = await server.request('PUT', `/campaigns/${id}`, { token: t.users.super.token, body: campaignBody(t.channelId!, { delay: 0 }) });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await server.request('POST', `/campaigns/start/${id}`, { token: t.users.super.token, body: { startNow: true } })).status).toBe(200);
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'finished after resume', 20_000);
    expect(await contactStatusCounts(server, id)).toEqual({ delivered: 8 });
    for (const c of contacts) expect(sentTo(graph, c.number), c.number).toHaveLength(1);

    const copy = await server.request('POST', `/campaigns/duplicate/${id}`, { token: t.users.super.token });
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ name: 'Campanha de teste (cópia)', status: 'pending', counts: { contacts: 8, pending: 8, delivered: 0 } });
    expect(copy.body.id).not.toBe(id);
    expect(await contactStatusCounts(server, id)).toEqual({ delivered: 8 });
    const list = await server.request('GET', '/campaigns', { token: t.users.admin.token });
    expect(list.body.map((c: { id: number }) => c.id)).toEqual([copy.body.id, id]);
  }, 60_000);

  it('links contacts by tag and by "all"; a campaign with media sends it with the message as caption', async () => {
    const t = await createMessagingTenant(server, graph);
    const contacts = await insertContacts(server, t.tenant.id, 3);
    const [tag] = await server.deps.dataSource.query(`INSERT INTO tags ("tenantId", name, color) VALUES ($1, 'VIP', '#ff0000') RETURNING id`, [
      t.tenant.id,
    ]);
    await server.deps.dataSource.query(`INSERT INTO contact_tags ("tenantId", "contactId", "tagId") VALUES ($4, $1, $2), ($4, $3, $2)`, [
      contacts[0].id,
      tag.id,
      contacts[2].id,
      t.tenant.id,
    ]);
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
    const fields = Object.fromEntries(
      Object.entries(campaignBody(t.channelId!, { name: 'Com imagem', start: inAnHour() })).map(([k, v]) => [k, v === null ? '' : String(v)]),
    );
    const created = await multipart(server, 'POST', '/campaigns', t.users.admin.token, fields, [
      { name: 'promo.png', type: 'image/png', bytes: png },
    ]);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ hasMedia: true, mediaName: 'promo.png', mimeType: 'image/png' });
    const id = created.body.id as number;
    const byTag = await server.request('POST', `/campaigns/contacts/${id}`, { token: t.users.admin.token, body: { filter: { tags: [tag.id] } } });
    expect(byTag.body).toMatchObject({ added: 2, counts: { contacts: 2 } });
    const all = await server.request('POST', `/campaigns/contacts/${id}`, { token: t.users.admin.token, body: { filter: { all: true } } });
    // Every contact of the tenant: the 3 inserted and the messaging tenant's own; the two tagged were linked already.
    expect(all.body).toMatchObject({ added: 2, counts: { contacts: 4 } });
    const removed = await server.request('DELETE', `/campaigns/deleteall/contacts/${id}`, { token: t.users.admin.token });
    expect(removed.body.counts.contacts).toBe(0);
    await link(t, id, [contacts[1].id]);
    await server.request('POST', `/campaigns/start/${id}`, { token: t.users.admin.token, body: { startNow: true } });
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'finished', 20_000);
    const [sent] = sentTo(graph, contacts[1].number);
    expect(sent.type).toBe('image');
    expect(['Olá Cliente, mensagem 1', `Olá ${contacts[1].name}, mensagem 2`]).toContain(sent.image.caption);
  }, 60_000);
});
