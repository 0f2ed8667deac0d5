import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import {
  BULK_AUDIO_OGG,
  BULK_MAX_DELAY_INVALID,
  BULK_MAX_NOT_GREATER,
  BULK_MESSAGE_OR_MEDIA_REQUIRED,
  BULK_MIN_DELAY_INVALID,
} from '@shared/schemas/bulk-sends';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { campaignRow, contactStatusCounts } from '../campaigns/campaigns.test-support';
import { createMessagingTenant, isolatedDatabase, sentTo, waitFor, type MessagingTenant } from '../messages/messages.test-support';

/**
 * Bulk sends (/massa/*, POST /bulk-sends ...) through the real app: the campaign sender sends
 * them to the fake Cloud API. Text with variables from each line (invalid lines reported, never
 * a 500), templates with line variables (header and URL-button variables from the form), media by URL (an audio must be .ogg), min/max seconds,
 * SMS refused (no provider), tenancy and roles on every route.
 */

let server: TestServer;
let graph: FakeGraphApi;
let media: Server;
let mediaUrl: string;
let dropDb: () => Promise<void>;
const OGG = Buffer.from('OggS\u0000\u0002fake-ogg-audio');

beforeAll(async () => {
  media = createServer((req, res) => {
    if (req.url === '/audio/aviso.ogg') {
      res.writeHead(200, { 'content-type': 'audio/ogg' });
      res.end(OGG);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  const host = `127.0.0.1:${(media.address() as AddressInfo).port}`;
  mediaUrl = `http://${host}`;
  graph = await new FakeGraphApi().start();
  const db = await isolatedDatabase();
  dropDb = db.drop;
  server = await startTestServer({
    WABA_GRAPH_BASE_URL: graph.url,
    CHATFLOW_HTTP_ALLOW_HOSTS: host,
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await dropDb?.();
  await graph?.stop();
  await new Promise((r) => media?.close(r));
});

let seq = 0;
/** A distinct valid Brazilian mobile (canonical form). */
const mobile = () => `5511${String(97_000_000 + Math.floor(Math.random() * 900_000) * 3 + (seq++ % 3)).padStart(9, '9')}`;

const send = (t: MessagingTenant, body: unknown, token = t.users.admin.token) => server.request('POST', '/bulk-sends', { token, body });

const base = (t: MessagingTenant, fields: Record<string, unknown> = {}) => ({
  kind: 'texto',
  channelId: t.channelId,
  destinations: mobile(),
  message: 'Olá!',
  minDelay: 0,
  maxDelay: 1,
  ...fields,
});

const fieldsOf = (body: any) => (body.fields ?? []).map((f: { path: string; message: string }) => `${f.path}: ${f.message}`);

describe('bulk text with variables', () => {
  it('sends each valid line with its values; invalid lines are reported with line and reason; results and live events; hidden from /campaigns', async () => {
    const t = await createMessagingTenant(server, graph);
    const [a, b] = [mobile(), mobile()];
    const destinations = [
      `${t.contact.number},Ana,A-1`, // an existing contact
      `+${a.slice(0, 2)} ${a.slice(2, 4)} ${a.slice(4)}, Bruno , B-2`, // formatted, spaces around the values
      'abc,x,y', // not a number
      `${mobile()}`, // no variables
      `${mobile()},só um`, // fewer values than the message uses
      '',
      `${b},Carla,C-3,extra`, // extra values are ignored
      `${a},Repetido,R-1`, // repeated number
    ].join('\n');
    const res = await send(t, { kind: 'textovariavel', channelId: t.channelId, destinations, message: 'Olá {{1}}, código {{2}} ({{name}})', minDelay: 0, maxDelay: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ kind: 'textovariavel', status: 'processing', minDelay: 0, maxDelay: 1, invalidCount: 4 });
    expect(res.body.counts.contacts).toBe(3);
    expect(res.body.complaintWarning).toMatchObject({ percent: 2, recipients: 3, complaintsToBlock: 1 });
    expect(res.body.invalidLines.map((l: any) => [l.line, l.reason])).toEqual([
      [3, 'número inválido'],
      [4, 'a linha deve ter o formato numero,var1,var2'],
      [5, 'faltam variáveis: a mensagem usa {{2}} e a linha tem 1'],
      [8, 'número repetido (linha 2)'],
    ]);
    const id = res.body.id as number;
    await waitFor(async () => (await campaignRow(server, id)).status === 'finished', 'bulk send finished', 30_000);
    expect(await contactStatusCounts(server, id)).toEqual({ delivered: 3 });
    expect(sentTo(graph, t.contact.number).map((m) => m.text?.body)).toEqual([`Olá Ana, código A-1 (${t.contact.name})`]);
    // A number that was no contact became one, named by its number.
    expect(sentTo(graph, a).map((m) => m.text.body)).toEqual([`Olá Bruno, código B-2 (${a})`]);
    expect(sentTo(graph, b).map((m) => m.text.body)).toEqual([`Olá Carla, código C-3 (${b})`]);
    const [created] = await server.deps.dataSource.query(`SELECT name FROM contacts WHERE "tenantId" = $1 AND number = $2`, [t.tenant.id, a]);
    expect(created.name).toBe(a);

    const results = await server.request('GET', `/bulk-sends/${id}/results`, { token: t.users.super.token });
    expect(results.status).toBe(200);
    expect(results.body).toMatchObject({ count: 3, hasMore: false });
    expect(results.body.results.map((r: any) => [r.number, r.status, r.variables])).toEqual([
      [t.contact.number, 'delivered', ['Ana', 'A-1']],
      [a, 'delivered', ['Bruno', 'B-2']],
      [b, 'delivered', ['Carla', 'C-3', 'extra']],
    ]);
    expect(results.body.invalidLines).toHaveLength(4);
    const one = await server.request('GET', `/bulk-sends/${id}`, { token: t.users.admin.token });
    expect(one.body).toMatchObject({ id, status: 'finished', counts: { delivered: 3 }, invalidCount: 4 });
    const list = await server.request('GET', '/bulk-sends?kind=textovariavel', { token: t.users.admin.token });
    expect(list.body.map((x: any) => x.id)).toEqual([id]);
    expect((await server.request('GET', '/bulk-sends?kind=texto', { token: t.users.admin.token })).body).toEqual([]);

    // Not a campaign: not listed, not reachable under /campaigns.
    expect((await server.request('GET', '/campaigns', { token: t.users.admin.token })).body).toEqual([]);
    expect((await server.request('GET', `/campaigns/${id}`, { token: t.users.admin.token })).status).toBe(404);

    // Live progress as bulkSend:update (to supervisors and admins), never campaign:update.
    const events = (await server.deps.dataSource.query(
      `SELECT name, payload, audience FROM domain_events WHERE "tenantId" = $1 AND name IN ($2, $3) ORDER BY seq`,
      [t.tenant.id, SOCKET_EVENTS.bulkSendUpdate, SOCKET_EVENTS.campaignUpdate],
    )) as { name: string; payload: any; audience: any }[];
    expect(events.every((e) => e.name === SOCKET_EVENTS.bulkSendUpdate)).toBe(true);
    expect(events[0].payload.action).toBe('create');
    expect(events.at(-1)!.payload.bulkSend).toMatchObject({ id, status: 'finished', counts: { delivered: 3 } });
    expect(events.every((e) => e.audience.scope === 'tenant')).toBe(true); // every user of the tenant may follow a bulk send
  }, 60_000);

  it('only invalid lines: 400 naming destinations with the lines, nothing created', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await send(t, base(t, { kind: 'textovariavel', destinations: 'abc\n123', message: 'Oi {{1}}' }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.fields).toEqual([{ path: 'destinations', message: 'nenhum destino válido' }]);
    expect(res.body.invalidLines.map((l: any) => l.line)).toEqual([1, 2]);
    const [row] = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM campaigns WHERE "tenantId" = $1`, [t.tenant.id]);
    expect(row.n).toBe(0);
  });
});

describe('validation (spec section 5), never a 500', () => {
  it('min and max seconds, message or media, .ogg audio, connection and destinations', async () => {
    const t = await createMessagingTenant(server, graph);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ minDelay: 5, maxDelay: 5 }, [`maxDelay: ${BULK_MAX_NOT_GREATER}`]],
      [{ minDelay: 10, maxDelay: 3 }, [`maxDelay: ${BULK_MAX_NOT_GREATER}`]],
      [{ minDelay: 'x' }, [`minDelay: ${BULK_MIN_DELAY_INVALID}`]],
      [{ maxDelay: -2 }, [`maxDelay: ${BULK_MAX_DELAY_INVALID}: não pode ser negativo`]],
      [{ minDelay: 1.5 }, [`minDelay: ${BULK_MIN_DELAY_INVALID}: use segundos inteiros`]],
      [{ message: '', mediaUrl: '' }, [`message: ${BULK_MESSAGE_OR_MEDIA_REQUIRED}`]],
      [{ mediaUrl: 'https://cdn.example.com/audio/aviso.mp3' }, [`mediaUrl: ${BULK_AUDIO_OGG}`]],
      [{ mediaUrl: 'https://cdn.example.com/a/arquivo', mediaType: 'audio' }, [`mediaUrl: ${BULK_AUDIO_OGG}`]],
      [{ mediaUrl: 'ftp://cdn.example.com/x.ogg' }, ['mediaUrl: URL inválida (use http:// ou https://)']],
      [{ channelId: undefined }, ['channelId: Conexão é obrigatório']],
      [{ destinations: '   ' }, ['destinations: Destinos é obrigatório']],
      [{ kind: 'template' }, ['templateName: Modelo é obrigatório']],
      [{ kind: 'massa' }, ['kind: deve ser um de texto, textovariavel, template, template-variavel, sms']],
      [{ extra: 1 }, ['extra: campo desconhecido']],
    ];
    for (const [fields, expected] of cases) {
      const res = await send(t, base(t, fields));
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldsOf(res.body), JSON.stringify(fields)).toEqual(expected.map((e) => expect.stringContaining(e.split(': ').slice(0, 2).join(': '))));
    }
    const notJson = await server.request('POST', '/bulk-sends', {
      token: t.users.admin.token,
      body: '{"kind":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    // Another tenant's channel.
    const other = await createMessagingTenant(server, graph);
    const foreign = await send(t, base(t, { channelId: other.channelId }));
    expect(foreign.status).toBe(400);
    expect(foreign.body.fields).toEqual([{ path: 'channelId', message: 'conexão não encontrada' }]);
  });

  it('an .ogg audio URL is downloaded once and sent as audio; an unreachable URL is 400 ERR_BULK_MEDIA_DOWNLOAD', async () => {
    const t = await createMessagingTenant(server, graph);
    const to = mobile();
    const res = await send(t, base(t, { destinations: to, message: '', mediaUrl: `${mediaUrl}/audio/aviso.ogg` }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ hasMedia: true, mediaName: 'aviso.ogg', mimeType: 'audio/ogg' });
    await waitFor(async () => (await campaignRow(server, res.body.id)).status === 'finished', 'audio sent', 30_000);
    expect(await contactStatusCounts(server, res.body.id)).toEqual({ delivered: 1 });
    expect(sentTo(graph, to).map((m) => m.type)).toEqual(['audio']);
    const missing = await send(t, base(t, { mediaUrl: `${mediaUrl}/audio/nao-existe.ogg` }));
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_BULK_MEDIA_DOWNLOAD');
    expect(missing.body.fields[0].path).toBe('mediaUrl');
    // A private address that is not allowed (SSRF guard).
    const blocked = await send(t, base(t, { mediaUrl: 'http://10.0.0.1/audio.ogg' }));
    expect(blocked.status).toBe(400);
    expect(blocked.body.error).toBe('ERR_BULK_MEDIA_DOWNLOAD');
  });

  it('SMS: no provider is configured, so a valid SMS send is refused with 422 ERR_SMS_PROVIDER_NOT_CONFIGURED', async () => {
    const t = await createMessagingTenant(server, graph);
    const res = await send(t, { kind: 'sms', destinations: mobile(), message: 'Promoção', minDelay: 1, maxDelay: 2 });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe('ERR_SMS_PROVIDER_NOT_CONFIGURED');
    const invalid = await send(t, { kind: 'sms', destinations: mobile(), minDelay: 1, maxDelay: 2 });
    expect(invalid.status).toBe(400);
    expect(fieldsOf(invalid.body)).toEqual(['message: Mensagem é obrigatório']);
  });
});

describe('bulk templates', () => {
  it('template-variavel fills the body variables from each line; template fills them from the fixed texts', async () => {
    const t = await createMessagingTenant(server, graph);
    expect((await server.request('POST', `/whatsapp/${t.channelId}/templates/sync`, { token: t.users.admin.token })).status).toBe(200);
    const [a, b] = [mobile(), mobile()];
    const res = await send(t, {
      kind: 'template-variavel',
      channelId: t.channelId,
      templateName: 'boas_vindas',
      templateLanguage: 'pt_BR',
      destinations: `${a},Ana,#1\n${b},Bia\n`,
      minDelay: 0,
      maxDelay: 1,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.invalidLines).toEqual([{ line: 2, text: `${b},Bia`, reason: 'faltam variáveis: a mensagem usa {{2}} e a linha tem 1' }]);
    await waitFor(async () => (await campaignRow(server, res.body.id)).status === 'finished', 'template bulk', 30_000);
    expect(sentTo(graph, a)[0].template).toEqual({
      name: 'boas_vindas',
      language: { code: 'pt_BR' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: '#1' }] }],
    });
    expect(sentTo(graph, b)).toEqual([]);

    const c = mobile();
    const fixed = await send(t, {
      kind: 'template',
      channelId: t.channelId,
      templateName: 'boas_vindas',
      templateLanguage: 'pt_BR',
      templateVariables: ['{{phoneNumber}}', 'X-9'],
      destinations: c,
      minDelay: 0,
      maxDelay: 1,
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(201);
    await waitFor(async () => (await campaignRow(server, fixed.body.id)).status === 'finished', 'fixed template bulk', 30_000);
    expect(sentTo(graph, c)[0].template.components[0].parameters.map((p: any) => p.text)).toEqual([c, 'X-9']);

    const paused = await send(t, { ...base(t), kind: 'template', templateName: 'promo_pausada', templateLanguage: 'pt_BR' });
    expect(paused.status).toBe(400);
    expect(paused.body.error).toBe('ERR_TEMPLATE_NOT_APPROVED');
  }, 60_000);
});

describe('bulk templates with header and button variables', () => {
  it('template: header, body and URL-button variables from the form, sent as header, body and button components', async () => {
    const t = await createMessagingTenant(server, graph);
    expect((await server.request('POST', `/whatsapp/${t.channelId}/templates/sync`, { token: t.users.admin.token })).status).toBe(200);
    const a = mobile();
    const variables = { header: ['#{{phoneNumber}}'], body: ['Ana', 'Curitiba'], buttons: ['RAST1'] };
    const res = await send(t, { ...base(t), kind: 'template', templateName: 'pedido_enviado', templateLanguage: 'pt_BR', templateVariables: variables, destinations: a });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.templateVariables).toEqual(variables);
    await waitFor(async () => (await campaignRow(server, res.body.id)).status === 'finished', 'template bulk', 30_000);
    expect(sentTo(graph, a)[0].template).toEqual({
      name: 'pedido_enviado',
      language: { code: 'pt_BR' },
      components: [
        { type: 'header', parameters: [{ type: 'text', text: `#${a}` }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ana' },
            { type: 'text', text: 'Curitiba' },
          ],
        },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'RAST1' }] },
      ],
    });
  }, 60_000);

  it('template-variavel: the lines fill the body, header and button texts are the form\'s (and may use a line value)', async () => {
    const t = await createMessagingTenant(server, graph);
    expect((await server.request('POST', `/whatsapp/${t.channelId}/templates/sync`, { token: t.users.admin.token })).status).toBe(200);
    const [a, b, c] = [mobile(), mobile(), mobile()];
    const res = await send(t, {
      ...base(t),
      kind: 'template-variavel',
      templateName: 'pedido_enviado',
      templateLanguage: 'pt_BR',
      // The header is the same for every line; the button's {{3}} is the line's third value.
      templateVariables: { header: ['Loja'], buttons: ['{{3}}'] },
      destinations: `${a},Ana,Curitiba,RA-1\n${b},Bia,Santos,RB-2\n${c},Caio,Recife`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.templateVariables).toEqual({ header: ['Loja'], body: ['{{1}}', '{{2}}'], buttons: ['{{3}}'] });
    expect(res.body.invalidLines).toEqual([{ line: 3, text: `${c},Caio,Recife`, reason: 'faltam variáveis: a mensagem usa {{3}} e a linha tem 2' }]);
    await waitFor(async () => (await campaignRow(server, res.body.id)).status === 'finished', 'template-variavel bulk', 30_000);
    for (const [to, name, city, code] of [
      [a, 'Ana', 'Curitiba', 'RA-1'],
      [b, 'Bia', 'Santos', 'RB-2'],
    ]) {
      expect(sentTo(graph, to)[0].template.components, to).toEqual([
        { type: 'header', parameters: [{ type: 'text', text: 'Loja' }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: name },
            { type: 'text', text: city },
          ],
        },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
      ]);
    }
    expect(sentTo(graph, c)).toEqual([]);
  }, 60_000);

  it('media headers: template-variavel with an IMAGE header (the lines fill the body) and template with a DOCUMENT header and its file name', async () => {
    const t = await createMessagingTenant(server, graph);
    expect((await server.request('POST', `/whatsapp/${t.channelId}/templates/sync`, { token: t.users.admin.token })).status).toBe(
      200,
    );
    const [a, b, c] = [mobile(), mobile(), mobile()];
    const image = 'https://cdn.example.com/massa/oferta.png';
    const lines = await send(t, {
      ...base(t),
      kind: 'template-variavel',
      templateName: 'oferta_imagem',
      templateLanguage: 'pt_BR',
      templateVariables: { headerMedia: { link: image } },
      destinations: `${a},Ana\n${b},Bia`,
    });
    expect(lines.status, JSON.stringify(lines.body)).toBe(201);
    expect(lines.body.templateVariables).toEqual({ header: [], body: ['{{1}}'], buttons: [], headerMedia: { link: image } });
    const document = 'https://cdn.example.com/massa/boleto.pdf';
    const fixed = await send(t, {
      ...base(t),
      kind: 'template',
      templateName: 'boleto_documento',
      templateLanguage: 'pt_BR',
      // As the multipart form sends it: JSON text.
      templateVariables: JSON.stringify({ headerMedia: { link: document, filename: 'Boleto.pdf' } }),
      destinations: c,
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(201);
    await waitFor(async () => (await campaignRow(server, lines.body.id)).status === 'finished', 'image bulk', 30_000);
    await waitFor(async () => (await campaignRow(server, fixed.body.id)).status === 'finished', 'document bulk', 30_000);
    for (const [to, name] of [
      [a, 'Ana'],
      [b, 'Bia'],
    ]) {
      expect(
        sentTo(graph, to).map((m) => m.template),
        to,
      ).toEqual([
        {
          name: 'oferta_imagem',
          language: { code: 'pt_BR' },
          components: [
            { type: 'header', parameters: [{ type: 'image', image: { link: image } }] },
            { type: 'body', parameters: [{ type: 'text', text: name }] },
          ],
        },
      ]);
    }
    expect(sentTo(graph, c).map((m) => m.template)).toEqual([
      {
        name: 'boleto_documento',
        language: { code: 'pt_BR' },
        components: [
          { type: 'header', parameters: [{ type: 'document', document: { link: document, filename: 'Boleto.pdf' } }] },
        ],
      },
    ]);
    const bodies = (await server.deps.dataSource.query(`SELECT body FROM campaign_contacts WHERE "campaignId" = $1 ORDER BY id`, [
      lines.body.id,
    ])) as { body: string }[];
    expect(bodies.map((r) => r.body)).toEqual([
      '[imagem]\n\nOi Ana, confira a oferta da semana.',
      '[imagem]\n\nOi Bia, confira a oferta da semana.',
    ]);
  }, 60_000);

  it('a media header without its link or with a link that is not https is refused at templateVariables.headerMedia', async () => {
    const t = await createMessagingTenant(server, graph);
    expect((await server.request('POST', `/whatsapp/${t.channelId}/templates/sync`, { token: t.users.admin.token })).status).toBe(
      200,
    );
    const template = { templateName: 'oferta_imagem', templateLanguage: 'pt_BR' };
    const missing = await send(t, { ...base(t), ...template, kind: 'template-variavel', destinations: `${mobile()},Ana` });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing.body)).toEqual([
      'templateVariables.headerMedia: o modelo tem uma imagem no cabeçalho: informe o link https:// da imagem',
    ]);
    const insecure = await send(t, {
      ...base(t),
      ...template,
      kind: 'template',
      templateVariables: { body: ['Ana'], headerMedia: { link: 'http://cdn.example.com/a.png' } },
    });
    expect(insecure.status).toBe(400);
    expect(fieldsOf(insecure.body)).toEqual(['templateVariables.headerMedia.link: deve ser um link https:// válido']);
    expect((await server.request('GET', '/bulk-sends', { token: t.users.admin.token })).body).toEqual([]);
  }, 60_000);

  it('counts refused per field: the header and button of template-variavel (the body is the lines\'), every part of template', async () => {
    const t = await createMessagingTenant(server, graph);
    expect((await server.request('POST', `/whatsapp/${t.channelId}/templates/sync`, { token: t.users.admin.token })).status).toBe(200);
    const template = { templateName: 'pedido_enviado', templateLanguage: 'pt_BR' };
    const lines = await send(t, { ...base(t), ...template, kind: 'template-variavel', destinations: `${mobile()},Ana,Curitiba` });
    expect(lines.status).toBe(400);
    expect(fieldsOf(lines.body)).toEqual(['templateVariables.header.0: é obrigatório', 'templateVariables.buttons.0: é obrigatório']);
    const fixed = await send(t, { ...base(t), ...template, kind: 'template', templateVariables: { header: ['x'], body: ['a', 'b', 'c'] } });
    expect(fixed.status).toBe(400);
    expect(fieldsOf(fixed.body)).toEqual([
      'templateVariables.body: o modelo tem 2 variável(is); foram enviadas 3',
      'templateVariables.buttons.0: é obrigatório',
    ]);
    const malformed = await send(t, { ...base(t), ...template, kind: 'template', templateVariables: { header: 'x' } });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['templateVariables.header: deve ser uma lista de textos']);
    // Nothing was created.
    expect((await server.request('GET', '/bulk-sends', { token: t.users.admin.token })).body).toEqual([]);
  }, 60_000);
});

describe('tenancy, roles and malformed input on every route', () => {
  it("another tenant's admin 404, an agent served (bulk sending is in the main menu for all), malformed 400; cancel stops a running send", async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const created = await send(t, base(t, { destinations: [mobile(), mobile(), mobile(), mobile()].join('\n'), minDelay: 3, maxDelay: 4 }));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const routes: [string, string][] = [
      ['GET', `/bulk-sends/${id}`],
      ['GET', `/bulk-sends/${id}/results`],
      ['POST', `/bulk-sends/${id}/cancel`],
    ];
    for (const [method, url] of routes) {
      const foreign = await server.request(method, url, { token: other.users.admin.token });
      expect(foreign.status, `${method} ${url}`).toBe(404);
      expect(foreign.body.error).toBe('ERR_NO_BULK_SEND_FOUND');
      if (method === 'GET') expect((await server.request(method, url, { token: t.users.user.token })).status, `${method} ${url}`).toBe(200);
      expect((await server.request(method, url)).status).toBe(401);
    }
    const listed = await server.request('GET', '/bulk-sends', { token: t.users.user.token });
    expect(listed.status).toBe(200);
    expect(listed.body.map((b: { id: number }) => b.id)).toContain(id);
    const byAgent = await send(t, base(t), t.users.user.token);
    expect(byAgent.status, JSON.stringify(byAgent.body)).toBe(201);
    expect((await server.request('GET', '/bulk-sends', { token: other.users.admin.token })).body).toEqual([]);
    for (const url of ['/bulk-sends/abc', `/bulk-sends/${id}/results?pageSize=100000`, `/bulk-sends/${id}/results?status=ok`, '/bulk-sends?kind=x']) {
      expect((await server.request('GET', url, { token: t.users.admin.token })).status, url).toBe(400);
    }
    expect((await server.request('POST', '/bulk-sends/0/cancel', { token: t.users.admin.token })).status).toBe(400);
    // A campaign id is not a bulk send.
    const campaign = await server.request('POST', '/campaigns', {
      token: t.users.admin.token,
      body: { name: 'C', start: new Date(Date.now() + 3600_000).toISOString(), message1: 'x', delay: 0, channelId: t.channelId },
    });
    expect((await server.request('GET', `/bulk-sends/${campaign.body.id}`, { token: t.users.admin.token })).status).toBe(404);

    const canceled = await server.request('POST', `/bulk-sends/${id}/cancel`, { token: t.users.super.token });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe('canceled');
    const atCancel = (await contactStatusCounts(server, id)).delivered ?? 0;
    await new Promise((r) => setTimeout(r, 1500));
    expect((await contactStatusCounts(server, id)).delivered ?? 0).toBeLessThanOrEqual(atCancel + 1);
    expect((await contactStatusCounts(server, id)).pending).toBeGreaterThan(0);
    const again = await server.request('POST', `/bulk-sends/${id}/cancel`, { token: t.users.super.token });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('ERR_BULK_SEND_CANCEL');
  }, 60_000);
});
