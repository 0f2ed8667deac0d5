import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../core/app-error';
import { ChannelSendError, type ChannelRecord, type SessionStatus } from '../channel-adapter';
import type { SessionChange } from '../adapter-context';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { WabaAdapter } from './waba-adapter';

let fake: FakeGraphApi;
let dir: string;
beforeAll(async () => {
  fake = await new FakeGraphApi().start();
  dir = mkdtempSync(path.join(tmpdir(), 'waba-adapter-'));
});
afterAll(async () => fake?.stop());
beforeEach(() => {
  fake.clearFailures();
  fake.requests.length = 0;
});

const target = { to: '5511987654321', isGroup: false };

function adapter(opts: { token?: string; timeoutMs?: number; baseUrl?: string; status?: SessionStatus } = {}) {
  const transitions: [SessionStatus, SessionChange | undefined][] = [];
  const record: ChannelRecord = {
    id: 1,
    tenantId: 1,
    type: 'waba',
    name: 'WABA',
    status: opts.status ?? 'DISCONNECTED',
    number: null,
    providerConfig: {
      wabaPhoneNumberId: fake.phoneNumberId,
      wabaBusinessAccountId: fake.businessAccountId,
      wabaApiVersion: 'v21.0',
    },
    secrets: { wabaManagerToken: opts.token ?? fake.token, wabaAppSecret: 'secret', wabaVerifyToken: 'verify' },
  };
  const a = new WabaAdapter(
    {
      record,
      logger: pino({ level: 'silent' }),
      setStatus: async (next, change) => {
        transitions.push([next, change]);
        return next;
      },
    },
    { baseUrl: opts.baseUrl ?? fake.url, timeoutMs: opts.timeoutMs },
  );
  return { a, transitions };
}

async function sendError(p: Promise<unknown>): Promise<ChannelSendError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelSendError);
  return err as ChannelSendError;
}

describe('WabaAdapter sends against the Graph API', () => {
  it('sendText posts a text message with the bearer token and answers the wamid; a quote becomes context', async () => {
    const { a } = adapter();
    const result = await a.sendText(target, 'Olá, veja https://exemplo.com', { quotedProviderMessageId: 'wamid.QUOTED' });
    expect(result.providerMessageId).toMatch(/^wamid\.FAKE/);
    const [req] = fake.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/v21.0/${fake.phoneNumberId}/messages`);
    expect(req.headers.authorization).toBe(`Bearer ${fake.token}`);
    expect(req.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: target.to,
      context: { message_id: 'wamid.QUOTED' },
      type: 'text',
      text: { preview_url: true, body: 'Olá, veja https://exemplo.com' },
    });
  });

  it('sendMedia uploads the file (multipart) and sends it by media id, with caption; documents keep their name, audio has no caption', async () => {
    const { a } = adapter();
    const file = path.join(dir, 'foto.jpg');
    const bytes = Buffer.from('fake-jpeg-bytes-0123456789');
    writeFileSync(file, bytes);
    const result = await a.sendMedia(target, {
      path: file,
      fileName: 'foto.jpg',
      mimeType: 'image/jpeg',
      caption: 'Segue a foto',
    });
    expect(result.providerMessageId).toMatch(/^wamid\./);
    const [upload, send] = fake.requests;
    expect(upload.path).toBe(`/v21.0/${fake.phoneNumberId}/media`);
    expect(upload.form?.messaging_product).toBe('whatsapp');
    expect(upload.form?.type).toBe('image/jpeg');
    const uploaded = upload.form?.file as { name: string; type: string; bytes: Buffer };
    expect(uploaded.name).toBe('foto.jpg');
    expect(uploaded.bytes.equals(bytes)).toBe(true);
    const mediaId = send.json.image.id;
    expect(typeof mediaId).toBe('string');
    expect(send.json).toMatchObject({ type: 'image', image: { id: mediaId, caption: 'Segue a foto' } });

    const pdf = path.join(dir, 'contrato.pdf');
    writeFileSync(pdf, Buffer.from('%PDF-1.4'));
    await a.sendMedia(target, { path: pdf, fileName: 'contrato.pdf', mimeType: 'application/pdf', caption: 'Contrato' });
    expect(fake.sentMessages().at(-1)).toMatchObject({
      type: 'document',
      document: { filename: 'contrato.pdf', caption: 'Contrato' },
    });

    const ogg = path.join(dir, 'voz.ogg');
    writeFileSync(ogg, Buffer.from('OggS'));
    await a.sendMedia(target, { path: ogg, fileName: 'voz.ogg', mimeType: 'audio/ogg', caption: 'ignorada', sendAsVoice: true });
    const audio = fake.sentMessages().at(-1);
    expect(audio.type).toBe('audio');
    expect(audio.audio.caption).toBeUndefined();
  });

  it('sendButtons sends interactive reply buttons and refuses more than 3, long titles or repeated ids before calling', async () => {
    const { a } = adapter();
    await a.sendButtons(target, 'Escolha uma opção', [
      { id: 'sim', title: 'Sim' },
      { id: 'nao', title: 'Não' },
    ]);
    expect(fake.sentMessages().at(-1)).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Escolha uma opção' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'sim', title: 'Sim' } },
            { type: 'reply', reply: { id: 'nao', title: 'Não' } },
          ],
        },
      },
    });
    const calls = fake.requests.length;
    const four = Array.from({ length: 4 }, (_, i) => ({ id: `b${i}`, title: `Botão ${i}` }));
    for (const buttons of [
      four,
      [{ id: 'x', title: 'Um título longo demais para o botão' }],
      [
        { id: 'a', title: 'A' },
        { id: 'a', title: 'B' },
      ],
    ]) {
      const err = await a.sendButtons(target, 'Texto', buttons).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('ERR_VALIDATION');
    }
    expect(fake.requests.length).toBe(calls);
  });

  it('sendTemplate sends the body variables as components (none without variables)', async () => {
    const { a } = adapter();
    await a.sendTemplate(target, { name: 'boas_vindas', language: 'pt_BR', variables: ['Ana', '#123'] });
    expect(fake.sentMessages().at(-1)).toMatchObject({
      type: 'template',
      template: {
        name: 'boas_vindas',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana' },
              { type: 'text', text: '#123' },
            ],
          },
        ],
      },
    });
    await a.sendTemplate(target, { name: 'hello_world', language: 'en_US', variables: [] });
    expect(fake.sentMessages().at(-1).template.components).toBeUndefined();
  });

  it('sendTemplate sends header and URL button variables; paused, unknown and closed-window refusals are final, in Portuguese', async () => {
    const { a } = adapter();
    await a.sendTemplate(target, {
      name: 'pedido_enviado',
      language: 'pt_BR',
      header: ['#9'],
      variables: ['Ana', 'Recife'],
      buttons: [{ index: 0, text: 'XYZ' }],
    });
    expect(fake.sentMessages().at(-1).template.components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: '#9' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ana' },
          { type: 'text', text: 'Recife' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'XYZ' }] },
    ]);
    for (const [name, reason, code] of [
      ['promo_pausada', 'Modelo pausado pela Meta.', '132015'],
      ['aviso_rejeitado', 'Modelo não encontrado ou não aprovado.', '132001'],
      ['nao_existe', 'Modelo não encontrado ou não aprovado.', '132001'],
    ]) {
      const err = await a.sendTemplate(target, { name, language: 'pt_BR', variables: [] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ChannelSendError);
      expect(err).toMatchObject({ message: reason, retryable: false, providerCode: code, providerStatus: 400 });
    }
    fake.closedWindows.add(target.to);
    try {
      const err = await a.sendText(target, 'Oi').catch((e: unknown) => e);
      expect(err).toMatchObject({ retryable: false, providerCode: '131047' });
      expect((err as Error).message).toContain('janela de 24 horas');
      await a.sendTemplate(target, { name: 'hello_world', language: 'en_US', variables: [] });
    } finally {
      fake.closedWindows.delete(target.to);
    }
  });

  it('sendTemplate sends a media header as its image, video or document parameter; without it Meta refuses (132012), in Portuguese', async () => {
    const { a } = adapter();
    const link = 'https://cdn.example.com/oferta.png';
    await a.sendTemplate(target, {
      name: 'oferta_imagem',
      language: 'pt_BR',
      variables: ['Ana'],
      headerMedia: { format: 'IMAGE', link },
    });
    expect(fake.sentMessages().at(-1).template.components).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link } }] },
      { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
    ]);
    await a.sendTemplate(target, {
      name: 'boleto_documento',
      language: 'pt_BR',
      variables: [],
      headerMedia: { format: 'DOCUMENT', link: 'https://cdn.example.com/b.pdf', filename: 'b.pdf' },
    });
    expect(fake.sentMessages().at(-1).template.components).toEqual([
      {
        type: 'header',
        parameters: [{ type: 'document', document: { link: 'https://cdn.example.com/b.pdf', filename: 'b.pdf' } }],
      },
    ]);
    const err = await a
      .sendTemplate(target, { name: 'oferta_imagem', language: 'pt_BR', variables: ['Ana'] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChannelSendError);
    expect(err).toMatchObject({ retryable: false, providerCode: '132012', providerStatus: 400 });
    expect((err as Error).message).toContain('mídia do cabeçalho');
  });

  it('sendReaction reacts to a message id', async () => {
    const { a } = adapter();
    await a.sendReaction(target, 'wamid.TARGET', '👍');
    expect(fake.sentMessages().at(-1)).toMatchObject({ type: 'reaction', reaction: { message_id: 'wamid.TARGET', emoji: '👍' } });
  });

  it('edit and delete are refused clearly (the Cloud API cannot)', async () => {
    const { a } = adapter();
    for (const call of [() => a.editMessage(), () => a.deleteMessage()]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('ERR_CHANNEL_OPERATION_UNSUPPORTED');
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('lists templates and downloads media with the bearer token', async () => {
    const { a } = adapter();
    const templates = await a.listTemplates();
    expect(templates.map((t) => t.name)).toEqual(fake.templates.map((t) => t.name));
    const id = fake.addMedia(Buffer.from('imagem'), 'image/png');
    const media = await a.downloadMedia(id);
    expect(media.buffer.toString()).toBe('imagem');
    expect(media.mimeType).toBe('image/png');
    expect(
      fake.requests
        .filter((r) => r.path.startsWith('/media-bytes/'))
        .every((r) => r.headers.authorization === `Bearer ${fake.token}`),
    ).toBe(true);
  });
});

describe('WabaAdapter failures', () => {
  it('5xx and 429 are retryable', async () => {
    const { a } = adapter();
    fake.failNext({ status: 500 });
    const e500 = await sendError(a.sendText(target, 'oi'));
    expect(e500.retryable).toBe(true);
    expect(e500.providerStatus).toBe(500);
    fake.failNext({ status: 429 });
    const e429 = await sendError(a.sendText(target, 'oi'));
    expect(e429.retryable).toBe(true);
    expect(e429.providerCode).toBe('130429');
  });

  it("4xx is final, with Graph's message", async () => {
    const { a } = adapter();
    fake.failNext({ status: 400, error: { message: '(#131030) Recipient phone number not in allowed list', code: 131030 } });
    const err = await sendError(a.sendText(target, 'oi'));
    expect(err.retryable).toBe(false);
    expect(err.providerStatus).toBe(400);
    expect(err.message).toContain('Recipient phone number not in allowed list');
    expect(err.providerCode).toBe('131030');
    const wrongToken = adapter({ token: 'EAAG-revoked' }).a;
    const auth = await sendError(wrongToken.sendText(target, 'oi'));
    expect(auth.retryable).toBe(false);
    expect(auth.message).toContain('#190');
  });

  it('Graph throttling codes answered as 400 are retryable', async () => {
    const { a } = adapter();
    fake.failNext({ status: 400, error: { message: '(#80007) Rate limit issues', code: 80007 } });
    expect((await sendError(a.sendText(target, 'oi'))).retryable).toBe(true);
  });

  it('a timeout and a refused connection are retryable', async () => {
    const { a } = adapter({ timeoutMs: 200 });
    fake.failNext({ hang: true });
    const started = Date.now();
    const timeout = await sendError(a.sendText(target, 'oi'));
    expect(timeout.retryable).toBe(true);
    expect(timeout.message).toContain('200 ms');
    expect(Date.now() - started).toBeLessThan(2000);
    const closed = adapter({ baseUrl: 'http://127.0.0.1:1' }).a;
    expect((await sendError(closed.sendText(target, 'oi'))).retryable).toBe(true);
  });

  it('a failed upload stops sendMedia before any send', async () => {
    const { a } = adapter();
    const file = path.join(dir, 'x.png');
    writeFileSync(file, Buffer.from('png'));
    fake.failNext({ status: 503 }, { path: '/media' });
    const err = await sendError(a.sendMedia(target, { path: file, fileName: 'x.png', mimeType: 'image/png' }));
    expect(err.retryable).toBe(true);
    expect(fake.sentMessages()).toHaveLength(0);
  });
});

describe('WabaAdapter.connect', () => {
  it('verifies the credentials by reading the phone number: OPENING then CONNECTED with the number', async () => {
    const { a, transitions } = adapter();
    await a.connect();
    expect(transitions.map(([s]) => s)).toEqual(['OPENING', 'CONNECTED']);
    expect(transitions[1][1]).toMatchObject({ number: '551140000000', reason: null });
    expect(a.status()).toBe('CONNECTED');
    expect(fake.requests[0].query.fields).toContain('display_phone_number');
  });

  it('a refused token ends DISCONNECTED with the reason', async () => {
    const { a, transitions } = adapter({ token: 'EAAG-bad' });
    await a.connect();
    expect(transitions.map(([s]) => s)).toEqual(['OPENING', 'DISCONNECTED']);
    expect(transitions[1][1]?.reason).toContain('Error validating access token');
    expect(a.status()).toBe('DISCONNECTED');
  });
});
