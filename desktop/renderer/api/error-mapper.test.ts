import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@shared/errors';
import { createI18n } from '../i18n/i18n';
import { describeError, errorCodeOf, readRawError, type Translate } from './error-mapper';

let t: Translate;

beforeAll(async () => {
  const i18n = await createI18n('pt-br');
  t = (key, options) => i18n.t(key, options);
});

describe('readRawError', () => {
  it('reads error, then msg, then message, else "Não identificado"', () => {
    expect(readRawError({ error: 'ERR_X', msg: 'm', message: 'mm' })).toBe('ERR_X');
    expect(readRawError({ msg: 'falhou', message: 'mm' })).toBe('falhou');
    expect(readRawError({ message: 'texto' })).toBe('texto');
    expect(readRawError({})).toBe('Não identificado');
    expect(readRawError(null)).toBe('Não identificado');
    expect(readRawError('  ')).toBe('Não identificado');
    expect(readRawError({ error: 42 })).toBe('Não identificado');
  });
});

describe('describeError (pt-br)', () => {
  it('maps every server code to its Portuguese text from shared/errors', () => {
    for (const [code, { message }] of Object.entries(ERROR_CODES)) {
      expect(describeError({ status: 400, data: { error: code, message: 'ignored' } }, t)).toBe(message);
    }
  });

  it('uses the section 8 texts for the login codes', () => {
    const text = (error: string) => describeError({ status: 401, data: { error } }, t);
    expect(text('ERR_INVALID_CREDENTIALS')).toBe('Informe usuário e senha corretamente.');
    expect(text('ERR_LIMIT_MAX')).toBe('Foram realizadas muitas tentativas de login. Tente novamente em 1 minuto');
    expect(text('ERR_NO_PERMISSION_API_ADMIN')).toBe('Instalação não AUTORIZADA');
    expect(text('ERROR_NO_PERMISSION_API_ADMIN')).toBe('Instalação não AUTORIZADA');
    expect(text('ERR_SESSION_EXPIRED')).toBe('A sessão expirou, você será redirecionado para o login.');
  });

  it('falls back to the raw error, preferring a sentence over an unknown code', () => {
    expect(describeError({ status: 400, data: { error: 'Falha no gateway' } }, t)).toBe('Falha no gateway');
    expect(describeError({ status: 400, data: { error: 'ERR_SOMETHING_NEW', message: 'Algo novo falhou.' } }, t)).toBe(
      'Algo novo falhou.',
    );
    expect(describeError({ status: 400, data: { error: 'ERR_SOMETHING_NEW' } }, t)).toBe('ERR_SOMETHING_NEW');
    expect(describeError({ status: 400, data: { msg: 'msg antiga' } }, t)).toBe('msg antiga');
  });

  it('says "Ocorreu um erro não identificado." when nothing is readable', () => {
    expect(describeError({ status: 500, data: {} }, t)).toBe('Ocorreu um erro não identificado.');
    expect(describeError({ status: 502, data: '' }, t)).toBe('Ocorreu um erro não identificado.');
    expect(describeError(undefined, t)).toBe('Ocorreu um erro não identificado.');
  });

  it('names network failures and timeouts', () => {
    expect(describeError({ status: 'TIMEOUT_ERROR', error: 'AbortError' }, t)).toBe(
      'O servidor demorou demais para responder. Tente novamente.',
    );
    expect(describeError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' }, t)).toBe(
      'Não foi possível falar com o servidor. Verifique a sua conexão.',
    );
  });

  it('shows the Portuguese text of a code that has no translation yet', async () => {
    const english = await createI18n('en-us');
    const code = Object.keys(ERROR_CODES)[0] as keyof typeof ERROR_CODES;
    const bare: Translate = (key, options) =>
      key === `errors.${code}` ? (options?.defaultValue ?? key) : english.t(key, options);
    expect(describeError({ status: 400, data: { error: code } }, bare)).toBe(ERROR_CODES[code].message);
    expect(
      describeError({ status: 401, data: { error: 'ERR_INVALID_CREDENTIALS' } }, (key, options) => english.t(key, options)),
    ).toBe('Enter your user and password correctly.');
  });

  it('recognises codes', () => {
    expect(errorCodeOf({ error: 'ERR_NO_PERMISSION' })).toBe('ERR_NO_PERMISSION');
    expect(errorCodeOf({ error: 'whatever' })).toBeNull();
  });
});
