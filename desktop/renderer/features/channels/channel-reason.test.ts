import { describe, expect, it } from 'vitest';
import { buildResources } from '../../i18n/i18n';
import { REASON_KINDS, classifyProviderError, explainChannelReason } from './channel-reason';

describe('channel reason explanations', () => {
  it('explains the issue’s raw DNS error and keeps it as the detail', () => {
    const raw = 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com) (408)';
    expect(explainChannelReason(raw)).toEqual({ own: null, kind: 'dns', detail: raw });
  });

  it.each([
    ['connect ECONNREFUSED 127.0.0.1:8080', 'network'],
    ['Telegram Bot API indisponível (getMe): fetch failed', 'providerDown'],
    ['fetch failed', 'network'],
    ['Connection Closed (428)', 'network'],
    ['Timed Out (408)', 'timeout'],
    ['connect ETIMEDOUT 157.240.0.1:443', 'timeout'],
    ['Unauthorized', 'auth'],
    ['Request failed with status code 403', 'auth'],
    ['(#190) Error validating access token: Session has expired', 'auth'],
    ['Invalid OAuth access token - Cannot parse access token', 'auth'],
    ['Too Many Requests: retry after 30', 'rateLimit'],
    ['Request failed with status code 502', 'providerDown'],
    ['QR refs attempts ended', 'qrTimeout'],
    ['Stream Errored (device_removed)', 'loggedOut'],
    ['Something odd happened', 'unknown'],
  ] as const)('classifies %s as %s', (raw, kind) => {
    expect(classifyProviderError(raw)).toBe(kind);
  });

  it('shows our own Portuguese sentences as they are, with nothing folded', () => {
    const own = 'O QR code não foi lido a tempo.';
    expect(explainChannelReason(own)).toEqual({ own, kind: null, detail: null });
    expect(explainChannelReason('Evolution API: conexão perdida (401)')).toEqual({
      own: null,
      kind: 'auth',
      detail: 'Evolution API: conexão perdida (401)',
    });
  });

  it('splits our sentence from the raw last error that the adapter appends', () => {
    const own = 'Não foi possível reconectar ao WhatsApp; use "Conectar" para tentar de novo.';
    expect(explainChannelReason(`${own} Último erro: getaddrinfo EAI_AGAIN web.whatsapp.com (408)`)).toEqual({
      own,
      kind: 'dns',
      detail: 'getaddrinfo EAI_AGAIN web.whatsapp.com (408)',
    });
  });

  it('has nothing to say without a reason', () => {
    expect(explainChannelReason(null)).toBeNull();
    expect(explainChannelReason('  ')).toBeNull();
  });
});

describe('channel reason texts', () => {
  it('has a Portuguese and an English explanation for every kind', async () => {
    const resources = await buildResources();
    for (const locale of ['pt-br', 'en-us'] as const) {
      const reason = (resources[locale]!.translation as { channels: { reason: Record<string, unknown> } }).channels.reason;
      for (const kind of [...REASON_KINDS, 'details']) expect(typeof reason[kind], `${locale} ${kind}`).toBe('string');
    }
  });
});
