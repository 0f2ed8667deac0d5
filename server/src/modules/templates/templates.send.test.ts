import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import {
  createContact,
  createMessagingTenant,
  createTicket,
  sentTo,
  startMessagingServer,
  waitForMessage,
  type MessagingTenant,
} from '../messages/messages.test-support';

let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
});
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

/** A tenant with a waba ticket whose channel's templates are synced. */
async function tenantWithTemplates(): Promise<MessagingTenant> {
  const t = await createMessagingTenant(server, graph);
  const sync = await server.request('POST', `/whatsapp/${t.channelId}/templates/sync`, { token: t.users.admin.token });
  expect(sync.status, JSON.stringify(sync.body)).toBe(200);
  return t;
}

const sendTemplate = (t: MessagingTenant, body: unknown, token = t.users.user.token, ticketId = t.ticketId) =>
  server.request('POST', `/messages/${ticketId}/template`, { token, body });

describe('POST /messages/{ticketId}/template', () => {
  it('writes the rendered template pending (201) and the delivery sends header, body and button variables as components', async () => {
    const t = await tenantWithTemplates();
    const res = await sendTemplate(t, {
      name: 'pedido_enviado',
      language: 'pt_BR',
      variables: { header: ['#123'], body: ['Ana', 'São Paulo'], buttons: ['ABC123'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.created).toBe(true);
    const [message] = res.body.messages;
    expect(message).toMatchObject({
      ticketId: t.ticketId,
      fromMe: true,
      mediaType: 'template',
      body: 'Pedido #123\n\nOlá Ana, seu pedido saiu para entrega em São Paulo.\n\nLoja Teste',
    });
    const row = await waitForMessage(server, message.id, (r) => r.status === 'sent');
    expect(row.dataJson.template).toMatchObject({ name: 'pedido_enviado', language: 'pt_BR', buttonIndexes: [0] });
    expect(sentTo(graph, t.contact.number)).toEqual([
      expect.objectContaining({
        type: 'template',
        template: {
          name: 'pedido_enviado',
          language: { code: 'pt_BR' },
          components: [
            { type: 'header', parameters: [{ type: 'text', text: '#123' }] },
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ana' },
                { type: 'text', text: 'São Paulo' },
              ],
            },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'ABC123' }] },
          ],
        },
      }),
    ]);
  });

  it('an IMAGE header: the thread shows [imagem], the delivery sends the header as an image parameter with the link', async () => {
    const t = await tenantWithTemplates();
    const link = 'https://cdn.example.com/ofertas/semana.png';
    const res = await sendTemplate(t, {
      name: 'oferta_imagem',
      language: 'pt_BR',
      variables: { body: ['Ana'], headerMedia: { link } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [message] = res.body.messages;
    expect(message).toMatchObject({ mediaType: 'template', body: '[imagem]\n\nOi Ana, confira a oferta da semana.' });
    const row = await waitForMessage(server, message.id, (r) => r.status === 'sent');
    expect(row.dataJson.template.headerMedia).toEqual({ format: 'IMAGE', link });
    expect(sentTo(graph, t.contact.number).map((m) => m.template)).toEqual([
      {
        name: 'oferta_imagem',
        language: { code: 'pt_BR' },
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link } }] },
          { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
        ],
      },
    ]);
  });

  it('a DOCUMENT header is sent as a document parameter with its link and file name', async () => {
    const t = await tenantWithTemplates();
    const link = 'https://cdn.example.com/boletos/123.pdf';
    const res = await sendTemplate(t, {
      name: 'boleto_documento',
      language: 'pt_BR',
      variables: { headerMedia: { link, filename: 'Boleto 123.pdf' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.messages[0].body).toBe('[documento]\n\nSegue o seu boleto.');
    await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'sent');
    expect(sentTo(graph, t.contact.number).map((m) => m.template.components)).toEqual([
      [{ type: 'header', parameters: [{ type: 'document', document: { link, filename: 'Boleto 123.pdf' } }] }],
    ]);
  });

  it('a media header without its link, a link that is not https and a link for a text header are 400 naming variables.headerMedia; nothing is written', async () => {
    const t = await tenantWithTemplates();
    const missing = await sendTemplate(t, { name: 'oferta_imagem', language: 'pt_BR', variables: { body: ['Ana'] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_VALIDATION');
    expect(missing.body.fields).toEqual([
      { path: 'variables.headerMedia', message: 'o modelo tem uma imagem no cabeçalho: informe o link https:// da imagem' },
    ]);
    for (const link of ['http://cdn.example.com/a.png', 'ftp://cdn.example.com/a.png', 'não é link']) {
      const insecure = await sendTemplate(t, {
        name: 'oferta_imagem',
        language: 'pt_BR',
        variables: { body: ['Ana'], headerMedia: { link } },
      });
      expect(insecure.status).toBe(400);
      expect(insecure.body.fields).toEqual([{ path: 'variables.headerMedia.link', message: 'deve ser um link https:// válido' }]);
    }
    const unwanted = await sendTemplate(t, {
      name: 'boas_vindas',
      language: 'pt_BR',
      variables: { body: ['Ana', '#7'], headerMedia: { link: 'https://cdn.example.com/a.png' } },
    });
    expect(unwanted.status).toBe(400);
    expect(unwanted.body.fields).toEqual([
      { path: 'variables.headerMedia', message: 'o cabeçalho do modelo não é imagem, vídeo nem documento: não envie mídia' },
    ]);
    const rows = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE "ticketId" = $1`, [
      t.ticketId,
    ]);
    expect(rows[0].n).toBe(0);
    expect(sentTo(graph, t.contact.number)).toEqual([]);
  });

  it('a template without variables is sent without components; a retry with the same clientId answers the stored message (200)', async () => {
    const t = await tenantWithTemplates();
    const body = { name: 'hello_world', language: 'en_US', clientId: 'tpl-retry-1' };
    const first = await sendTemplate(t, body);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await sendTemplate(t, body);
    expect(again.status).toBe(200);
    expect(again.body.messages[0].id).toBe(first.body.messages[0].id);
    await waitForMessage(server, first.body.messages[0].id, (r) => r.status === 'sent');
    const sent = sentTo(graph, t.contact.number);
    expect(sent).toHaveLength(1);
    expect(sent[0].template).toEqual({ name: 'hello_world', language: { code: 'en_US' } });
  });

  it('missing or extra variables, an unknown template and a malformed body are 400 ERR_VALIDATION naming the fields; nothing is written', async () => {
    const t = await tenantWithTemplates();
    const missing = await sendTemplate(t, { name: 'pedido_enviado', language: 'pt_BR', variables: { body: ['Ana'] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_VALIDATION');
    expect(missing.body.fields.map((f: any) => f.path)).toEqual(['variables.header.0', 'variables.body.1', 'variables.buttons.0']);
    const extra = await sendTemplate(t, { name: 'boas_vindas', language: 'pt_BR', variables: { body: ['a', 'b', 'c'], header: ['x'] } });
    expect(extra.status).toBe(400);
    expect(extra.body.fields.map((f: any) => f.path)).toEqual(['variables.header', 'variables.body']);
    const unknown = await sendTemplate(t, { name: 'nao_existe', language: 'pt_BR' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual([expect.objectContaining({ path: 'name' })]);
    const malformed = await sendTemplate(t, { language: 42, variables: { body: 'Ana', footer: [] } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('ERR_VALIDATION');
    const paths = malformed.body.fields.map((f: any) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'language']));
    const empty = await sendTemplate(t, { name: 'boas_vindas', language: 'pt_BR', variables: { body: ['Ana', '  '] } });
    expect(empty.status).toBe(400);
    expect(empty.body.fields.map((f: any) => f.path)).toEqual(['variables.body.1']);
    const rows = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE "ticketId" = $1`, [t.ticketId]);
    expect(rows[0].n).toBe(0);
    expect(sentTo(graph, t.contact.number)).toEqual([]);
  });

  it('a paused or rejected template fails the message with the Portuguese reason (never a 500, never retried)', async () => {
    const t = await tenantWithTemplates();
    for (const [name, reason] of [
      ['promo_pausada', 'Mensagem não entregue: Modelo pausado pela Meta.'],
      ['aviso_rejeitado', 'Mensagem não entregue: Modelo não encontrado ou não aprovado.'],
    ] as const) {
      const res = await sendTemplate(t, { name, language: 'pt_BR' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const row = await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'failed');
      expect(row.lastError).toBe(reason);
      expect(row.sendAttempts).toBe(1);
    }
  });

  it('another tenant 404, no token 401, a channel that is not WABA 400', async () => {
    const t = await tenantWithTemplates();
    const other = await createMessagingTenant(server, graph, { channel: false });
    const body = { name: 'hello_world', language: 'en_US' };
    expect((await sendTemplate(t, body, other.users.admin.token)).status).toBe(404);
    expect((await server.request('POST', `/messages/${t.ticketId}/template`, { body })).status).toBe(401);
    const [telegram] = await server.deps.dataSource.query(
      `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'Telegram', 'telegram', 'CONNECTED') RETURNING id`,
      [t.tenant.id],
    );
    const contact = await createContact(server, t.tenant.id);
    const ticketId = await createTicket(server, { tenantId: t.tenant.id, contactId: contact.id, channelId: telegram.id, userId: t.users.user.id });
    const refused = await sendTemplate(t, body, t.users.user.token, ticketId);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
    expect(refused.body.message).toContain('apenas em conexões WABA');
  });
});

/** A message from the customer on the ticket, `hoursAgo` hours ago. */
async function inbound(t: MessagingTenant, hoursAgo: number): Promise<void> {
  await server.deps.dataSource.query(
    `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", read, status, "whatsappId", timestamp)
     VALUES ($1, $2, $3, 'Oi', false, true, 'received', $4, extract(epoch FROM now() - make_interval(hours => $5))::bigint)`,
    [t.tenant.id, t.ticketId, t.contact.id, t.channelId, hoursAgo],
  );
}

describe('GET /tickets/{ticketId}/templates', () => {
  it('lists the approved templates of the ticket channel to the agent who sees the ticket; 404 another tenant, 400 another channel type', async () => {
    const t = await tenantWithTemplates();
    const res = await server.request('GET', `/tickets/${t.ticketId}/templates`, { token: t.users.user.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.map((x: any) => x.name)).toEqual([
      'boas_vindas',
      'boleto_documento',
      'hello_world',
      'oferta_imagem',
      'pedido_enviado',
    ]);
    expect(res.body.find((x: any) => x.name === 'oferta_imagem').variables).toEqual({
      header: 0,
      body: 1,
      buttons: 0,
      headerMedia: 'IMAGE',
    });
    const other = await createMessagingTenant(server, graph, { channel: false });
    expect((await server.request('GET', `/tickets/${t.ticketId}/templates`, { token: other.users.admin.token })).status).toBe(404);
    const [telegram] = await server.deps.dataSource.query(
      `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'Telegram', 'telegram', 'CONNECTED') RETURNING id`,
      [t.tenant.id],
    );
    const contact = await createContact(server, t.tenant.id);
    const ticketId = await createTicket(server, { tenantId: t.tenant.id, contactId: contact.id, channelId: telegram.id, userId: t.users.user.id });
    const refused = await server.request('GET', `/tickets/${ticketId}/templates`, { token: t.users.user.token });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
  });
});

describe('the WABA 24-hour window', () => {
  it('GET /tickets/{id}/messaging-window: closed before the customer writes, open for 24 hours after; another tenant 404; other channel types always open', async () => {
    const t = await createMessagingTenant(server, graph);
    const url = `/tickets/${t.ticketId}/messaging-window`;
    const before = await server.request('GET', url, { token: t.users.user.token });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ channelType: 'waba', windowOpen: false, lastInboundAt: null, closesAt: null });
    await inbound(t, 2);
    const open = (await server.request('GET', url, { token: t.users.user.token })).body;
    expect(open).toMatchObject({ channelType: 'waba', windowOpen: true });
    const left = new Date(open.closesAt).getTime() - Date.now();
    expect(left).toBeGreaterThan(21.9 * 3600_000);
    // The stored timestamp is in whole seconds (rounded), so up to a second past 22 h.
    expect(left).toBeLessThanOrEqual(22 * 3600_000 + 1000);
    const other = await createMessagingTenant(server, graph, { channel: false });
    expect((await server.request('GET', url, { token: other.users.admin.token })).status).toBe(404);
    expect((await server.request('GET', url)).status).toBe(401);
    const [telegram] = await server.deps.dataSource.query(
      `INSERT INTO channels ("tenantId", name, type, status) VALUES ($1, 'Telegram', 'telegram', 'CONNECTED') RETURNING id`,
      [t.tenant.id],
    );
    const contact = await createContact(server, t.tenant.id);
    const ticketId = await createTicket(server, { tenantId: t.tenant.id, contactId: contact.id, channelId: telegram.id, userId: t.users.user.id });
    const tg = await server.request('GET', `/tickets/${ticketId}/messaging-window`, { token: t.users.user.token });
    expect(tg.body).toEqual({ channelType: 'telegram', windowOpen: true, lastInboundAt: null, closesAt: null });
  });

  it('a free-form text after the window closed is refused up front (400 ERR_WABA_WINDOW_CLOSED); a template goes out', async () => {
    const t = await tenantWithTemplates();
    await inbound(t, 25);
    const window = await server.request('GET', `/tickets/${t.ticketId}/messaging-window`, { token: t.users.user.token });
    expect(window.body).toMatchObject({ windowOpen: false, closesAt: null, lastInboundAt: expect.any(String) });
    for (const [url, body] of [
      [`/messages/${t.ticketId}`, { body: 'Oi, tudo bem?' }],
      ['/sendButton', { ticketId: t.ticketId, body: 'Escolha', buttons: [{ title: 'Sim' }] }],
    ] as const) {
      const refused = await server.request('POST', url, { token: t.users.user.token, body });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.error).toBe('ERR_WABA_WINDOW_CLOSED');
      expect(refused.body.message).toContain('Envie um modelo');
    }
    const note = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: 'nota', isPrivate: true } });
    expect(note.status).toBe(201);
    const template = await sendTemplate(t, { name: 'boas_vindas', language: 'pt_BR', variables: { body: ['Ana', '#7'] } });
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    await waitForMessage(server, template.body.messages[0].id, (r) => r.status === 'sent');
    expect(sentTo(graph, t.contact.number).map((m) => m.type)).toEqual(['template']);
  });

  it('inside the window a text goes out; when Meta says the window is closed (131047) the message fails with the Portuguese reason', async () => {
    const t = await tenantWithTemplates();
    await inbound(t, 1);
    const ok = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: 'Dentro da janela' } });
    expect(ok.status).toBe(201);
    await waitForMessage(server, ok.body.messages[0].id, (r) => r.status === 'sent');
    graph.closedWindows.add(t.contact.number);
    try {
      const res = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: 'Recusada' } });
      expect(res.status).toBe(201);
      const row = await waitForMessage(server, res.body.messages[0].id, (r) => r.status === 'failed');
      expect(row.lastError).toBe(
        'Mensagem não entregue: Fora da janela de 24 horas: o cliente não escreve há mais de 24 horas; envie um modelo.',
      );
    } finally {
      graph.closedWindows.delete(t.contact.number);
    }
  });
});
