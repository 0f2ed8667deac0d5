import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateVariableParts1763897000000 } from '../../../../migrations/1763897000000-template-variable-parts';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { createMessagingTenant, sentTo, startMessagingServer, waitFor, type MessagingTenant } from '../messages/messages.test-support';
import { campaignBody, campaignRow, contactStatusCounts, insertContacts } from './campaigns.test-support';

/**
 * Template campaigns (WABA): a campaign that sends one of the channel's synced, approved
 * templates with its header, body and URL-button variables filled per contact, through the real
 * app and the fake Cloud API (which records the components it got); the older body-only list of
 * variables is still taken (and older rows migrated); variable counts are checked per part; a
 * rejected or paused template is refused when chosen, and one Meta pauses or stops approving
 * while the campaign runs stops the campaign with the reason on the contact.
 */

let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
}, 120_000);
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

async function tenantWithTemplates(): Promise<MessagingTenant> {
  const t = await createMessagingTenant(server, graph);
  const sync = await server.request('POST', `/whatsapp/${t.channelId}/templates/sync`, { token: t.users.admin.token });
  expect(sync.status, JSON.stringify(sync.body)).toBe(200);
  return t;
}

const templateCampaign = (channelId: number, fields: Record<string, unknown> = {}) =>
  campaignBody(channelId, {
    message1: '',
    message2: null,
    templateName: 'boas_vindas',
    templateLanguage: 'pt_BR',
    templateVariables: ['{{firstName}}', '#{{name}}'],
    ...fields,
  });

describe('template campaigns', () => {
  it('the older body-only list of variables: sent to each contact with its variables filled from the contact', async () => {
    const t = await tenantWithTemplates();
    const contacts = await insertContacts(server, t.tenant.id, 3);
    const created = await server.request('POST', '/campaigns', { token: t.users.admin.token, body: templateCampaign(t.channelId!) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      templateName: 'boas_vindas',
      templateLanguage: 'pt_BR',
      templateVariables: { header: [], body: ['{{firstName}}', '#{{name}}'], buttons: [] },
      message1: '',
    });
    const id = created.body.id as number;
    const linked = await server.request('POST', `/campaigns/contacts/${id}`, {
      token: t.users.admin.token,
      body: { contactIds: contacts.map((c) => c.id) },
    });
    expect(linked.status).toBe(200);
    const started = await server.request('POST', `/campaigns/start/${id}`, { token: t.users.admin.token, body: { startNow: true } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'campaign finished', 30_000);
    expect(await contactStatusCounts(server, id)).toEqual({ delivered: 3 });
    for (const c of contacts) {
      const got = sentTo(graph, c.number);
      expect(got, c.number).toHaveLength(1);
      expect(got[0]).toMatchObject({
        type: 'template',
        template: {
          name: 'boas_vindas',
          language: { code: 'pt_BR' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Cliente' },
                { type: 'text', text: `#${c.name}` },
              ],
            },
          ],
        },
      });
    }
    const bodies = (await server.deps.dataSource.query(`SELECT body FROM campaign_contacts WHERE "campaignId" = $1 ORDER BY id`, [
      id,
    ])) as { body: string }[];
    expect(bodies.map((b) => b.body)).toEqual(contacts.map((c) => `Olá Cliente, seu pedido #${c.name} chegou.`));
  }, 60_000);

  it('a rejected or paused template is refused when chosen (400 ERR_TEMPLATE_NOT_APPROVED naming the field); other template mistakes are ERR_VALIDATION', async () => {
    const t = await tenantWithTemplates();
    const token = t.users.admin.token;
    for (const [name, text] of [
      ['aviso_rejeitado', 'rejeitado'],
      ['promo_pausada', 'pausado'],
    ] as const) {
      const res = await server.request('POST', '/campaigns', { token, body: templateCampaign(t.channelId!, { templateName: name, templateVariables: [] }) });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe('ERR_TEMPLATE_NOT_APPROVED');
      expect(res.body.fields).toEqual([{ path: 'templateName', message: expect.stringContaining(text) }]);
    }
    const fewer = await server.request('POST', '/campaigns', { token, body: templateCampaign(t.channelId!, { templateVariables: ['{{name}}'] }) });
    expect(fewer.status).toBe(400);
    expect(fewer.body.fields).toEqual([{ path: 'templateVariables.body.1', message: 'é obrigatório' }]);
    const unknown = await server.request('POST', '/campaigns', { token, body: templateCampaign(t.channelId!, { templateName: 'nao_existe' }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields[0].message).toContain('sincronize');
    const noLanguage = await server.request('POST', '/campaigns', { token, body: templateCampaign(t.channelId!, { templateLanguage: '' }) });
    expect(noLanguage.status).toBe(400);
    expect(noLanguage.body.fields).toEqual([{ path: 'templateLanguage', message: 'Idioma do modelo é obrigatório' }]);
    // Without a template, message 1 is required as before.
    const noText = await server.request('POST', '/campaigns', { token, body: campaignBody(t.channelId!, { message1: '' }) });
    expect(noText.status).toBe(400);
    expect(noText.body.fields).toEqual([{ path: 'message1', message: 'Mensagem 1 é obrigatório' }]);
    // A channel that is not WABA cannot send templates.
    const [telegram] = await server.deps.dataSource.query(
      `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'Telegram', 'telegram', 'CONNECTED') RETURNING id`,
      [t.tenant.id],
    );
    const notWaba = await server.request('POST', '/campaigns', { token, body: templateCampaign(telegram.id) });
    expect(notWaba.status).toBe(400);
    expect(notWaba.body.fields[0].message).toContain('WABA');
    // Editing a campaign into a paused template is refused the same way.
    const ok = await server.request('POST', '/campaigns', { token, body: templateCampaign(t.channelId!) });
    expect(ok.status).toBe(201);
    const edit = await server.request('PUT', `/campaigns/${ok.body.id}`, {
      token,
      body: templateCampaign(t.channelId!, { templateName: 'promo_pausada', templateVariables: [] }),
    });
    expect(edit.status).toBe(400);
    expect(edit.body.error).toBe('ERR_TEMPLATE_NOT_APPROVED');
  });

  it('a template with header, body and URL-button variables: each filled per contact and sent as header, body and button components', async () => {
    const t = await tenantWithTemplates();
    const contacts = await insertContacts(server, t.tenant.id, 2);
    const variables = { header: ['#{{name}}'], body: ['{{firstName}}', 'Curitiba'], buttons: ['R-{{phoneNumber}}'] };
    const created = await server.request('POST', '/campaigns', {
      token: t.users.admin.token,
      body: templateCampaign(t.channelId!, { templateName: 'pedido_enviado', templateVariables: variables }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.templateVariables).toEqual(variables);
    const id = created.body.id as number;
    expect((await server.request('GET', `/campaigns/${id}`, { token: t.users.admin.token })).body.templateVariables).toEqual(variables);
    await server.request('POST', `/campaigns/contacts/${id}`, { token: t.users.admin.token, body: { contactIds: contacts.map((c) => c.id) } });
    const started = await server.request('POST', `/campaigns/start/${id}`, { token: t.users.admin.token, body: { startNow: true } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'campaign finished', 30_000);
    expect(await contactStatusCounts(server, id)).toEqual({ delivered: 2 });
    for (const c of contacts) {
      const got = sentTo(graph, c.number);
      expect(got, c.number).toHaveLength(1);
      expect(got[0].template).toEqual({
        name: 'pedido_enviado',
        language: { code: 'pt_BR' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: `#${c.name}` }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Cliente' },
              { type: 'text', text: 'Curitiba' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: `R-${c.number}` }] },
        ],
      });
    }
    const bodies = (await server.deps.dataSource.query(`SELECT body FROM campaign_contacts WHERE "campaignId" = $1 ORDER BY id`, [
      id,
    ])) as { body: string }[];
    expect(bodies.map((b) => b.body)).toEqual(
      contacts.map((c) => `Pedido #${c.name}\n\nOlá Cliente, seu pedido saiu para entrega em Curitiba.\n\nLoja Teste`),
    );
  }, 60_000);

  it('a template with an IMAGE header: the link is kept with the campaign and sent to each contact as the header image', async () => {
    const t = await tenantWithTemplates();
    const token = t.users.admin.token;
    const contacts = await insertContacts(server, t.tenant.id, 2);
    const link = 'https://cdn.example.com/campanhas/oferta.jpg';
    const variables = { header: [], body: ['{{firstName}}'], buttons: [], headerMedia: { link } };
    const created = await server.request('POST', '/campaigns', {
      token,
      body: templateCampaign(t.channelId!, { templateName: 'oferta_imagem', templateVariables: variables }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.templateVariables).toEqual(variables);
    const id = created.body.id as number;
    // Edited (same template, another image): the new link is kept.
    const other = 'https://cdn.example.com/campanhas/oferta-2.jpg';
    const edited = await server.request('PUT', `/campaigns/${id}`, {
      token,
      body: templateCampaign(t.channelId!, {
        templateName: 'oferta_imagem',
        templateVariables: { ...variables, headerMedia: { link: other } },
      }),
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await server.request('GET', `/campaigns/${id}`, { token })).body.templateVariables).toEqual({
      ...variables,
      headerMedia: { link: other },
    });
    await server.request('POST', `/campaigns/contacts/${id}`, { token, body: { contactIds: contacts.map((c) => c.id) } });
    const started = await server.request('POST', `/campaigns/start/${id}`, { token, body: { startNow: true } });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'campaign finished', 30_000);
    expect(await contactStatusCounts(server, id)).toEqual({ delivered: 2 });
    for (const c of contacts) {
      expect(sentTo(graph, c.number).map((m) => m.template)).toEqual([
        {
          name: 'oferta_imagem',
          language: { code: 'pt_BR' },
          components: [
            { type: 'header', parameters: [{ type: 'image', image: { link: other } }] },
            { type: 'body', parameters: [{ type: 'text', text: 'Cliente' }] },
          ],
        },
      ]);
    }
    const bodies = (await server.deps.dataSource.query(`SELECT body FROM campaign_contacts WHERE "campaignId" = $1`, [id])) as {
      body: string;
    }[];
    expect(bodies.map((b) => b.body)).toEqual([
      '[imagem]\n\nOi Cliente, confira a oferta da semana.',
      '[imagem]\n\nOi Cliente, confira a oferta da semana.',
    ]);
  }, 60_000);

  it('a media header without its link, with a link that is not https, or given to a text template is 400 at templateVariables.headerMedia', async () => {
    const t = await tenantWithTemplates();
    const token = t.users.admin.token;
    const attempt = (templateName: string, templateVariables: unknown) =>
      server.request('POST', '/campaigns', { token, body: templateCampaign(t.channelId!, { templateName, templateVariables }) });
    const missing = await attempt('oferta_imagem', { body: ['a'] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_VALIDATION');
    expect(missing.body.fields).toEqual([
      {
        path: 'templateVariables.headerMedia',
        message: 'o modelo tem uma imagem no cabeçalho: informe o link https:// da imagem',
      },
    ]);
    const document = await attempt('boleto_documento', {});
    expect(document.body.fields).toEqual([
      {
        path: 'templateVariables.headerMedia',
        message: 'o modelo tem um documento no cabeçalho: informe o link https:// do documento',
      },
    ]);
    const insecure = await attempt('oferta_imagem', { body: ['a'], headerMedia: { link: 'http://cdn.example.com/a.jpg' } });
    expect(insecure.status).toBe(400);
    expect(insecure.body.fields).toEqual([
      { path: 'templateVariables.headerMedia.link', message: 'deve ser um link https:// válido' },
    ]);
    const unwanted = await attempt('boas_vindas', { body: ['a', 'b'], headerMedia: { link: 'https://cdn.example.com/a.jpg' } });
    expect(unwanted.status).toBe(400);
    expect(unwanted.body.fields).toEqual([
      {
        path: 'templateVariables.headerMedia',
        message: 'o cabeçalho do modelo não é imagem, vídeo nem documento: não envie mídia',
      },
    ]);
    const count = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM campaigns WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(count[0].n).toBe(0);
  }, 60_000);

  it('variable counts are checked per part, naming each field; a header or button value empty for a contact fails that contact', async () => {
    const t = await tenantWithTemplates();
    const token = t.users.admin.token;
    const attempt = (templateVariables: unknown) =>
      server.request('POST', '/campaigns', { token, body: templateCampaign(t.channelId!, { templateName: 'pedido_enviado', templateVariables }) });
    const missing = await attempt({ body: ['a'], buttons: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_VALIDATION');
    expect(missing.body.fields).toEqual([
      { path: 'templateVariables.header.0', message: 'é obrigatório' },
      { path: 'templateVariables.body.1', message: 'é obrigatório' },
      { path: 'templateVariables.buttons.0', message: 'é obrigatório' },
    ]);
    const extra = await attempt({ header: ['a', 'b'], body: ['a', 'b'], buttons: ['x', 'y'] });
    expect(extra.status).toBe(400);
    expect(extra.body.fields).toEqual([
      { path: 'templateVariables.header', message: 'o modelo tem 1 variável(is); foram enviadas 2' },
      { path: 'templateVariables.buttons', message: 'o modelo tem 1 variável(is); foram enviadas 2' },
    ]);
    // A body-only template takes no header or button variables.
    const none = await server.request('POST', '/campaigns', {
      token,
      body: templateCampaign(t.channelId!, { templateVariables: { header: ['x'], body: ['a', 'b'] } }),
    });
    expect(none.status).toBe(400);
    expect(none.body.fields).toEqual([{ path: 'templateVariables.header', message: 'o modelo não tem variáveis aqui' }]);
    // The shape itself: blank texts and unknown parts are refused by the schema.
    const blank = await attempt({ header: [' '], body: ['a', 'b'], buttons: ['x'] });
    expect(blank.status).toBe(400);
    expect(blank.body.fields).toEqual([{ path: 'templateVariables.header.0', message: 'é obrigatório' }]);
    const unknownPart = await attempt({ footer: ['x'] });
    expect(unknownPart.status).toBe(400);
    expect(unknownPart.body.fields[0].path).toBe('templateVariables.footer');

    // {{email}} is empty for a contact without e-mail: that contact fails with the part named, none is sent.
    const [contact] = await insertContacts(server, t.tenant.id, 1);
    const created = await attempt({ header: ['{{email}}'], body: ['a', 'b'], buttons: ['x'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    await server.request('POST', `/campaigns/contacts/${id}`, { token, body: { contactIds: [contact.id] } });
    await server.request('POST', `/campaigns/start/${id}`, { token, body: { startNow: true } });
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'campaign finished', 30_000);
    const failed = await server.request('GET', `/campaigns/contacts/${id}?status=failed`, { token });
    expect(failed.body.contacts).toEqual([
      expect.objectContaining({ status: 'failed', error: 'A variável {{1}} do cabeçalho do modelo ficou vazia para este contato.' }),
    ]);
    expect(sentTo(graph, contact.number)).toEqual([]);
  }, 60_000);

  it('rows stored with the older body-only list are migrated to {header, body, buttons} and still sent', async () => {
    const t = await tenantWithTemplates();
    const [contact] = await insertContacts(server, t.tenant.id, 1);
    const created = await server.request('POST', '/campaigns', { token: t.users.admin.token, body: templateCampaign(t.channelId!) });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const db = server.deps.dataSource;
    // As a server before this change stored it.
    await db.query(`UPDATE campaigns SET "templateVariables" = '["{{firstName}}", "#7"]'::jsonb WHERE id = $1`, [id]);
    expect((await server.request('GET', `/campaigns/${id}`, { token: t.users.admin.token })).body.templateVariables).toEqual({
      header: [],
      body: ['{{firstName}}', '#7'],
      buttons: [],
    });
    await new TemplateVariableParts1763897000000().up({ query: (sql: string, params?: unknown[]) => db.query(sql, params) } as never);
    const [row] = (await db.query(`SELECT "templateVariables" FROM campaigns WHERE id = $1`, [id])) as { templateVariables: unknown }[];
    expect(row.templateVariables).toEqual({ header: [], body: ['{{firstName}}', '#7'], buttons: [] });
    await server.request('POST', `/campaigns/contacts/${id}`, { token: t.users.admin.token, body: { contactIds: [contact.id] } });
    await server.request('POST', `/campaigns/start/${id}`, { token: t.users.admin.token, body: { startNow: true } });
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'campaign finished', 30_000);
    expect(sentTo(graph, contact.number)[0].template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Cliente' }, { type: 'text', text: '#7' }] },
    ]);
  }, 60_000);

  it('a template Meta pauses or stops approving while the campaign runs: the contact fails with the reason and the campaign stops (canceled, the rest pending)', async () => {
    for (const [status, reason] of [
      ['PAUSED', 'Modelo pausado pela Meta.'],
      ['REJECTED', 'Modelo não encontrado ou não aprovado.'],
    ] as const) {
      const t = await tenantWithTemplates();
      const contacts = await insertContacts(server, t.tenant.id, 4);
      const created = await server.request('POST', '/campaigns', { token: t.users.admin.token, body: templateCampaign(t.channelId!) });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      await server.request('POST', `/campaigns/contacts/${id}`, { token: t.users.admin.token, body: { contactIds: contacts.map((c) => c.id) } });
      const template = graph.templates.find((x) => x.name === 'boas_vindas')!;
      template.status = status;
      try {
        await server.request('POST', `/campaigns/start/${id}`, { token: t.users.admin.token, body: { startNow: true } });
        await waitFor(async () => (await campaignRow(server, id)).status === 'canceled', `campaign stopped (${status})`, 30_000);
      } finally {
        template.status = 'APPROVED';
      }
      expect(await contactStatusCounts(server, id)).toEqual({ failed: 1, pending: 3 });
      const failed = await server.request('GET', `/campaigns/contacts/${id}?status=failed`, { token: t.users.admin.token });
      expect(failed.body.contacts).toEqual([expect.objectContaining({ status: 'failed', error: reason })]);
      const detail = await server.request('GET', `/campaigns/${id}`, { token: t.users.admin.token });
      expect(detail.body.status).toBe('canceled');
      // Approved again: scheduling it again sends the rest.
      const again = await server.request('POST', `/campaigns/start/${id}`, { token: t.users.admin.token, body: { startNow: true } });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'finished after resume', 30_000);
      expect(await contactStatusCounts(server, id)).toEqual({ failed: 1, delivered: 3 });
    }
  }, 90_000);
});
