import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { readableTextColor } from '../../features/tags/readable-text-color';
import { checkColor, checkName, checkText, describeFieldFailure, fieldTexts } from './catalog-validation';
import { formFailureOf } from './form-errors';
import { canAdministrate, canWriteCatalogs } from './write-access';

/** A translator that shows the key and its options, so the tests read which text was chosen. */
const t = ((key: string, options?: Record<string, unknown>) =>
  options && 'max' in options ? `${key}(${String(options.max)})` : key) as unknown as TFunction;

describe('catalog field rules', () => {
  it('requires a name of at most 100 characters', () => {
    expect(checkName('  ')).toEqual({ kind: 'required' });
    expect(checkName('x'.repeat(101))).toEqual({ kind: 'tooLong', max: 100 });
    expect(checkName(' Suporte ')).toBeNull();
  });

  it('takes colours as #rgb or #rrggbb, like the server', () => {
    expect(checkColor('#1c7ed6')).toBeNull();
    expect(checkColor('#abc')).toBeNull();
    expect(checkColor('blue')).toEqual({ kind: 'invalidColor' });
    expect(checkColor('#12345')).toEqual({ kind: 'invalidColor' });
  });

  it('limits long texts', () => {
    expect(checkText('x'.repeat(4096))).toBeNull();
    expect(checkText('x'.repeat(4097))).toEqual({ kind: 'tooLong', max: 4096 });
  });

  it('turns failures into the texts of the form', () => {
    expect(describeFieldFailure({ kind: 'tooLong', max: 100 }, t)).toBe('crud.validation.tooLong(100)');
    expect(fieldTexts({ name: checkName(''), color: checkColor('#fff') }, t)).toEqual({ name: 'validation.required' });
  });
});

describe('formFailureOf', () => {
  it('puts a conflict under the field the server names, in its translated text', () => {
    const failure = formFailureOf(
      {
        status: 409,
        data: {
          error: 'ERR_QUEUE_EXISTS',
          message: 'Já existe uma fila com este nome.',
          fields: [{ path: 'name', message: 'x' }],
        },
      },
      t,
    );
    expect(failure).toEqual({
      message: 'errors.ERR_QUEUE_EXISTS',
      code: 'ERR_QUEUE_EXISTS',
      fields: { name: 'errors.ERR_QUEUE_EXISTS' },
    });
  });

  it('keeps the server sentence of each invalid field', () => {
    const failure = formFailureOf(
      {
        status: 400,
        data: {
          error: 'ERR_VALIDATION',
          message: 'Ops!',
          fields: [{ path: 'sendAsVoice', message: 'exige um arquivo de áudio' }, { path: '' }],
        },
      },
      t,
    );
    expect(failure.fields).toEqual({ sendAsVoice: 'exige um arquivo de áudio' });
  });

  it('reports a refusal without fields (ERR_USER_LIMIT) as the message only', () => {
    const failure = formFailureOf({ status: 400, data: { error: 'ERR_USER_LIMIT', message: 'Limite de usuários atingido.' } }, t);
    expect(failure).toEqual({ message: 'errors.ERR_USER_LIMIT', code: 'ERR_USER_LIMIT', fields: {} });
  });
});

describe('write access', () => {
  it('lets supervisors and administrators write catalogs, administrators settings and users', () => {
    expect([null, 'user', 'super', 'admin', 'superadmin'].map((p) => canWriteCatalogs(p as never))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
    expect([null, 'user', 'super', 'admin', 'superadmin'].map((p) => canAdministrate(p as never))).toEqual([
      false,
      false,
      false,
      true,
      true,
    ]);
  });
});

describe('readableTextColor', () => {
  it('picks the text colour that contrasts more with the chip', () => {
    expect(readableTextColor('#ffffff')).toBe('#111418');
    expect(readableTextColor('#fd0')).toBe('#111418');
    expect(readableTextColor('#1c2127')).toBe('#ffffff');
    expect(readableTextColor('#c2255c')).toBe('#ffffff');
    expect(readableTextColor('not a colour')).toBe('#111418');
  });
});
