import { describe, expect, it } from 'vitest';
import {
  CreateChannelSchema,
  INVALID_JSON_MESSAGE,
  UpdateChannelSchema,
  evolutionInstanceName,
  providerFieldNames,
} from './channels';

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`).sort();

describe('channel provider fields', () => {
  it('requires every field of a generic type on creation, and nothing of another type', () => {
    expect(issues(CreateChannelSchema.safeParse({ type: 'instagram', name: 'Insta' }))).toEqual([
      'fbAppSecret: é obrigatório',
      'fbPageAccessToken: é obrigatório',
      'fbPageId: é obrigatório',
      'fbVerifyToken: é obrigatório',
      'instagramBusinessId: é obrigatório',
    ]);
    const evo = CreateChannelSchema.safeParse({
      type: 'evo',
      name: 'Loja',
      evolutionUrl: 'https://evo.example.com/',
      evolutionApiKey: 'k',
      fbPageId: '123456',
    });
    expect(issues(evo)).toEqual(['fbPageId: não se aplica a conexões evo']);
  });

  it('accepts a complete gateway channel and trims the trailing slash of its URL', () => {
    const r = CreateChannelSchema.safeParse({ type: 'wuzapi', name: 'W', wuzapiUrl: 'http://10.0.0.5:8080//', wuzapiToken: 't' });
    expect(r.success).toBe(true);
    expect((r.data as Record<string, unknown>).wuzapiUrl).toBe('http://10.0.0.5:8080');
    expect(issues(CreateChannelSchema.safeParse({ type: 'meow', name: 'M', meowUrl: 'ftp://x', meowToken: 't' }))).toEqual([
      'meowUrl: deve ser um endereço http(s)',
    ]);
  });

  it('lets QR-code channels be created with no provider field, the pairing number and proxy being optional', () => {
    expect(CreateChannelSchema.safeParse({ type: 'baileys', name: 'Celular' }).success).toBe(true);
    expect(issues(CreateChannelSchema.safeParse({ type: 'baileys', name: 'C', pairingNumber: '12ab', proxyUrl: 'nope' }))).toEqual([
      'pairingNumber: deve ter de 8 a 15 dígitos, com o código do país',
      'proxyUrl: deve ser um endereço de proxy (http://, https:// ou socks5://)',
    ]);
  });

  it("refuses options that are not a JSON object with 'Invalid JSON format'", () => {
    for (const options of ['{', '[1,2]', '"text"', 'null']) {
      expect(issues(CreateChannelSchema.safeParse({ type: 'baileys', name: 'C', options }))).toEqual([
        `options: ${INVALID_JSON_MESSAGE}`,
      ]);
    }
    expect(CreateChannelSchema.safeParse({ type: 'baileys', name: 'C', options: '{"browser":"Atende"}' }).success).toBe(true);
    expect(UpdateChannelSchema.safeParse({ options: '' }).success).toBe(true);
    expect(issues(UpdateChannelSchema.safeParse({ options: '{x' }))).toEqual([`options: ${INVALID_JSON_MESSAGE}`]);
  });

  it('keeps a stored secret when an update sends it empty', () => {
    const r = UpdateChannelSchema.safeParse({ name: 'X', evolutionApiKey: '', fbPageAccessToken: null });
    expect(r.success).toBe(true);
    expect((r.data as Record<string, unknown>).evolutionApiKey).toBeUndefined();
    expect((r.data as Record<string, unknown>).fbPageAccessToken).toBeUndefined();
  });

  it('splits settings from write-only secrets per type', () => {
    expect(providerFieldNames('messenger')).toEqual({
      config: ['fbPageId'],
      secrets: ['fbPageAccessToken', 'fbAppSecret', 'fbVerifyToken'],
      optional: [],
    });
    expect(providerFieldNames('waba')).toEqual({ config: [], secrets: [], optional: [] });
  });

  it('strips spaces, accents and special characters from an Evolution instance name', () => {
    expect(evolutionInstanceName('Loja Central - São Paulo!')).toBe('LojaCentral-SaoPaulo');
    expect(evolutionInstanceName('  @#$ ')).toBe('');
  });
});
