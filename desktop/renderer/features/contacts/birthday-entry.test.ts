import { describe, expect, it } from 'vitest';
import { birthdayToInput, maskBirthdayInput, readBirthday } from './birthday-entry';

/** Types `text` one character at a time through the mask, as the field does. */
const typeInto = (text: string, start = '') => [...text].reduce((shown, char) => maskBirthdayInput(shown + char), start);

describe('maskBirthdayInput', () => {
  it('puts the slashes in while digits are typed', () => {
    expect(typeInto('2')).toBe('2');
    expect(typeInto('25')).toBe('25');
    expect(typeInto('251')).toBe('25/1');
    expect(typeInto('2512')).toBe('25/12');
    expect(typeInto('25121')).toBe('25/12/1');
    expect(typeInto('25121990')).toBe('25/12/1990');
  });

  it('stops at a full date and drops letters', () => {
    expect(typeInto('251219901')).toBe('25/12/1990');
    expect(maskBirthdayInput('25a12b1990')).toBe('25/12/1990');
    expect(maskBirthdayInput('')).toBe('');
    expect(maskBirthdayInput('/')).toBe('');
  });

  it('keeps separators the person typed, short parts included', () => {
    expect(typeInto('1/2/1990')).toBe('1/2/1990');
    expect(maskBirthdayInput('01.02.1990')).toBe('01/02/1990');
    expect(maskBirthdayInput('1-2-1990')).toBe('1/2/1990');
    expect(typeInto('25/')).toBe('25/');
    expect(typeInto('25/12/')).toBe('25/12/');
    expect(maskBirthdayInput('25//')).toBe('25/');
  });

  it('moves digits beyond a part into the next one (pasting, typing past a slash)', () => {
    expect(maskBirthdayInput('25/121990')).toBe('25/12/1990');
    expect(maskBirthdayInput('251/')).toBe('25/1/');
  });

  it('lets the person delete back through the slashes', () => {
    expect(maskBirthdayInput('25/1')).toBe('25/1');
    expect(maskBirthdayInput('25/')).toBe('25/');
    expect(maskBirthdayInput('25')).toBe('25');
  });
});

describe('readBirthday', () => {
  it('reads dd/mm/yyyy (and ISO) as an ISO date', () => {
    expect(readBirthday('25/12/1990')).toEqual({ kind: 'date', iso: '1990-12-25' });
    expect(readBirthday(' 1/2/2001 ')).toEqual({ kind: 'date', iso: '2001-02-01' });
    expect(readBirthday('1990-12-25')).toEqual({ kind: 'date', iso: '1990-12-25' });
  });

  it('tells empty from invalid', () => {
    expect(readBirthday('  ')).toEqual({ kind: 'empty' });
    for (const bad of ['31/02/1990', '12/25/1990', '25/12/90', '25/12', 'amanhã'])
      expect(readBirthday(bad), bad).toEqual({ kind: 'invalid' });
  });

  it('shows a stored date the Portuguese way', () => {
    expect(birthdayToInput('1990-12-25')).toBe('25/12/1990');
    expect(birthdayToInput(null)).toBe('');
  });
});
