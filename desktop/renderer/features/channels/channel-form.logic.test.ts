import { describe, expect, it } from 'vitest';
import { INVALID_JSON_MESSAGE, TELEGRAM_TOKEN_REQUIRED_MESSAGE, type ChannelDto } from '@shared/schemas/channels';
import enUs from '@shared/i18n/locales/en-us.json';
import ptBr from '@shared/i18n/locales/pt-br.json';
import {
  CHANNEL_TYPES,
  allProviderFieldNames,
  buildCreateBody,
  buildUpdateBody,
  changeFormType,
  evolutionNamePreview,
  initialChannelForm,
  isSecretStored,
  providerFieldsFor,
  validateOptionsJson,
  type ChannelFormState,
} from './channel-form.logic';

const channel = (over: Partial<ChannelDto> = {}): ChannelDto => ({
  id: 7,
  name: 'Atendimento',
  type: 'waba',
  status: 'CONNECTED',
  statusReason: null,
  qrcode: null,
  retries: 0,
  number: '5511999999999',
  isDefault: false,
  queueId: null,
  userId: null,
  chatFlowId: null,
  farewellMessage: null,
  birthdayMessage: null,
  birthdayHour: null,
  closingKeyword: null,
  autoDistribution: 'none',
  wabaPhoneNumberId: '123456789',
  wabaBusinessAccountId: '987654321',
  wabaApiVersion: 'v21.0',
  hasManagerToken: true,
  hasAppSecret: true,
  hasVerifyToken: false,
  webhookUrl: 'http://x/webhooks/waba/7',
  providerSettings: {},
  storedSecrets: [],
  options: null,
  pairingCode: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...over,
});

const form = (over: Partial<ChannelFormState> & { type: ChannelFormState['type'] }): ChannelFormState => ({
  ...initialChannelForm(null, over.type),
  ...over,
});

describe('provider fields per type', () => {
  const names = (type: ChannelFormState['type']) => providerFieldsFor(type).map((f) => f.name);

  it('shows only the fields of the chosen type', () => {
    expect(names('waba')).toEqual([
      'wabaPhoneNumberId',
      'wabaBusinessAccountId',
      'wabaApiVersion',
      'wabaManagerToken',
      'wabaAppSecret',
      'wabaVerifyToken',
    ]);
    expect(names('telegram')).toEqual(['tokenTelegram']);
    expect(names('instagram')).toEqual(['fbPageId', 'instagramBusinessId', 'fbPageAccessToken', 'fbAppSecret', 'fbVerifyToken']);
    expect(names('messenger')).toEqual(['fbPageId', 'fbPageAccessToken', 'fbAppSecret', 'fbVerifyToken']);
    expect(names('hub')).toEqual(['hubChannelId', 'hubToken']);
    expect(names('evo')).toEqual(['evolutionUrl', 'evolutionApiKey']);
    expect(names('wuzapi')).toEqual(['wuzapiUrl', 'wuzapiToken']);
    expect(names('meow')).toEqual(['meowUrl', 'meowToken']);
    expect(names('baileys')).toEqual(['pairingNumber', 'proxyUrl']);
    expect(names('whatsapp')).toEqual(['pairingNumber', 'proxyUrl']);
  });

  it('marks secrets write-only and optional Baileys fields', () => {
    const evo = providerFieldsFor('evo');
    expect(evo.find((f) => f.name === 'evolutionApiKey')).toMatchObject({ secret: true, required: true, input: 'secret' });
    expect(evo.find((f) => f.name === 'evolutionUrl')).toMatchObject({ secret: false, input: 'url' });
    expect(providerFieldsFor('baileys').every((f) => !f.required && !f.secret)).toBe(true);
  });

  it('has a label in pt-br and en-us for every field and type', () => {
    for (const locale of [ptBr, enUs] as unknown as { channels: { fields: Record<string, string>; types: Record<string, string> } }[]) {
      for (const name of allProviderFieldNames()) expect(locale.channels.fields[name], name).toBeTruthy();
      for (const type of CHANNEL_TYPES) expect(locale.channels.types[type], type).toBeTruthy();
    }
  });

  it('knows which secrets are stored', () => {
    const waba = channel();
    expect(isSecretStored(waba, 'wabaManagerToken')).toBe(true);
    expect(isSecretStored(waba, 'wabaVerifyToken')).toBe(false);
    expect(isSecretStored(channel({ type: 'telegram', hasTelegramToken: true }), 'tokenTelegram')).toBe(true);
    expect(isSecretStored(channel({ type: 'evo', storedSecrets: ['evolutionApiKey'] }), 'evolutionApiKey')).toBe(true);
    expect(isSecretStored(null, 'evolutionApiKey')).toBe(false);
  });

  it('a new type starts its own provider fields empty', () => {
    const next = changeFormType(form({ type: 'telegram', name: 'Bot', provider: { tokenTelegram: 'x' } }), 'hub');
    expect(next).toMatchObject({ type: 'hub', name: 'Bot', provider: { hubChannelId: '', hubToken: '' } });
  });
});

describe('advanced options JSON', () => {
  it('accepts an object or nothing', () => {
    expect(validateOptionsJson('')).toBeNull();
    expect(validateOptionsJson('  ')).toBeNull();
    expect(validateOptionsJson('{"markOnline": false}')).toBeNull();
  });
  it("refuses anything else with 'Invalid JSON format'", () => {
    for (const text of ['{', '{markOnline: false}', '[1,2]', '"x"', '42', 'null']) {
      expect(validateOptionsJson(text), text).toBe(INVALID_JSON_MESSAGE);
    }
  });
});

describe('create body', () => {
  it('maps a Telegram channel', () => {
    const { body, errors } = buildCreateBody(
      form({ type: 'telegram', name: ' Bot Loja ', provider: { tokenTelegram: ' 123:abc ' }, birthdayHour: '9', closingKeyword: ' tchau ' }),
    );
    expect(errors).toEqual({});
    expect(body).toEqual({ type: 'telegram', name: 'Bot Loja', tokenTelegram: '123:abc', birthdayHour: 9, closingKeyword: 'tchau' });
  });

  it('requires the Telegram token with the spec sentence', () => {
    expect(buildCreateBody(form({ type: 'telegram', name: 'Bot' })).errors).toEqual({ tokenTelegram: TELEGRAM_TOKEN_REQUIRED_MESSAGE });
  });

  it('names each missing WABA field and refuses bad options', () => {
    const { errors } = buildCreateBody(form({ type: 'waba', name: 'Oficial', options: '{oops' }));
    expect(Object.keys(errors).sort()).toEqual(
      ['options', 'wabaAppSecret', 'wabaBusinessAccountId', 'wabaManagerToken', 'wabaPhoneNumberId', 'wabaVerifyToken'].sort(),
    );
    expect(errors.options).toBe(INVALID_JSON_MESSAGE);
  });

  it('maps gateway URL and key, behaviour fields and options', () => {
    const { body, errors } = buildCreateBody(
      form({
        type: 'evo',
        name: 'Loja Centro',
        provider: { evolutionUrl: 'https://evo.example.com/', evolutionApiKey: 'k' },
        queueId: 3,
        userId: 4,
        farewellMessage: 'Até logo',
        autoDistribution: 'balanced',
        isDefault: true,
        options: '{"rejectCall": true}',
      }),
    );
    expect(errors).toEqual({});
    expect(body).toEqual({
      type: 'evo',
      name: 'Loja Centro',
      evolutionUrl: 'https://evo.example.com/',
      evolutionApiKey: 'k',
      queueId: 3,
      userId: 4,
      farewellMessage: 'Até logo',
      autoDistribution: 'balanced',
      isDefault: true,
      options: '{"rejectCall": true}',
    });
    expect(evolutionNamePreview('Loja Centro!')).toBe('LojaCentro');
  });

  it('leaves optional Baileys fields out and checks their format', () => {
    expect(buildCreateBody(form({ type: 'baileys', name: 'Celular' }))).toEqual({ body: { type: 'baileys', name: 'Celular' }, errors: {} });
    const bad = buildCreateBody(form({ type: 'baileys', name: 'Celular', provider: { pairingNumber: '12', proxyUrl: 'ftp://x' } }));
    expect(Object.keys(bad.errors).sort()).toEqual(['pairingNumber', 'proxyUrl']);
  });

  it('refuses a birthday hour outside 0-23 and an Evolution name without letters', () => {
    expect(buildCreateBody(form({ type: 'baileys', name: 'A', birthdayHour: '24' })).errors).toHaveProperty('birthdayHour');
    expect(
      buildCreateBody(form({ type: 'evo', name: '!!!', provider: { evolutionUrl: 'https://e.x', evolutionApiKey: 'k' } })).errors,
    ).toHaveProperty('name');
  });
});

describe('update body', () => {
  it('is null when nothing changed', () => {
    const waba = channel();
    expect(buildUpdateBody(waba, initialChannelForm(waba))).toEqual({ body: null, errors: {} });
  });

  it('sends only what changed, secrets only when typed, cleared texts as null', () => {
    const waba = channel({ farewellMessage: 'Tchau', birthdayHour: 8 });
    const edited: ChannelFormState = {
      ...initialChannelForm(waba),
      name: 'Atendimento 2',
      farewellMessage: '',
      birthdayHour: '',
      options: '{"a":1}',
    };
    edited.provider = { ...edited.provider, wabaVerifyToken: 'novo-verify', wabaApiVersion: 'v22.0' };
    const { body, errors } = buildUpdateBody(waba, edited);
    expect(errors).toEqual({});
    expect(body).toEqual({
      name: 'Atendimento 2',
      wabaApiVersion: 'v22.0',
      wabaVerifyToken: 'novo-verify',
      farewellMessage: null,
      birthdayHour: null,
      options: '{"a":1}',
    });
  });

  it('never sends the name of an Evolution channel', () => {
    const evo = channel({ type: 'evo', name: 'LojaCentro', providerSettings: { evolutionUrl: 'https://e.x' }, storedSecrets: ['evolutionApiKey'] });
    const edited = { ...initialChannelForm(evo), name: 'Outro nome', closingKeyword: 'fim' };
    expect(buildUpdateBody(evo, edited)).toEqual({ body: { closingKeyword: 'fim' }, errors: {} });
  });

  it('keeps a stored Telegram token when left empty, and refuses invalid options', () => {
    const tg = channel({ type: 'telegram', hasTelegramToken: true });
    expect(buildUpdateBody(tg, { ...initialChannelForm(tg), queueId: 2 })).toEqual({ body: { queueId: 2 }, errors: {} });
    expect(buildUpdateBody(tg, { ...initialChannelForm(tg), options: '[' }).errors).toEqual({ options: INVALID_JSON_MESSAGE });
  });

  it('sends the chatbot flow when it changes (null clears it), and nothing when it did not', () => {
    const tg = channel({ type: 'telegram', hasTelegramToken: true, chatFlowId: 4 });
    expect(initialChannelForm(tg).chatFlowId).toBe(4);
    expect(buildUpdateBody(tg, initialChannelForm(tg)).body).toBeNull();
    expect(buildUpdateBody(tg, { ...initialChannelForm(tg), chatFlowId: 7 })).toEqual({ body: { chatFlowId: 7 }, errors: {} });
    expect(buildUpdateBody(tg, { ...initialChannelForm(tg), chatFlowId: null })).toEqual({ body: { chatFlowId: null }, errors: {} });
  });

  it('clears an optional provider setting with null and refuses clearing a required one', () => {
    const baileys = channel({ type: 'baileys', providerSettings: { pairingNumber: '5511999999999', proxyUrl: null } });
    const cleared = { ...initialChannelForm(baileys), provider: { pairingNumber: '', proxyUrl: '' } };
    expect(buildUpdateBody(baileys, cleared).body).toEqual({ pairingNumber: null });
    const hub = channel({ type: 'hub', providerSettings: { hubChannelId: 'abc' }, storedSecrets: ['hubToken'] });
    expect(buildUpdateBody(hub, { ...initialChannelForm(hub), provider: { hubChannelId: '', hubToken: '' } }).errors).toEqual({
      hubChannelId: 'é obrigatório',
    });
  });
});
