import { describe, expect, it } from 'vitest';
import { normalizeContactNumber } from '@shared/validation/contact-number';
import { contactInitials, contactNumberToInput, formatContactNumber, formatTaxId } from './contact-display';

describe('formatContactNumber', () => {
  it('writes Brazilian numbers with area code in parentheses', () => {
    expect(formatContactNumber('5511987654321')).toBe('+55 (11) 98765-4321');
    expect(formatContactNumber('551133334444')).toBe('+55 (11) 3333-4444');
  });

  it('writes other countries in their international format', () => {
    expect(formatContactNumber('447911123456')).toBe('+44 7911 123456');
    expect(formatContactNumber('34912345678')).toBe('+34 912 34 56 78');
  });

  it('shows what it cannot read as stored', () => {
    expect(formatContactNumber('120363025246125486')).toBe('120363025246125486');
    expect(formatContactNumber(null)).toBe('');
  });
});

describe('contactNumberToInput', () => {
  it('reads back as the same stored number when the form is saved unchanged', () => {
    for (const stored of ['5511987654321', '34912345678', '447911123456', '551133334444']) {
      expect(normalizeContactNumber(contactNumberToInput(stored)), stored).toBe(stored);
    }
  });
});

describe('formatTaxId', () => {
  it('punctuates CPF and CNPJ', () => {
    expect(formatTaxId('12345678909')).toBe('123.456.789-09');
    expect(formatTaxId('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatTaxId('123')).toBe('123');
    expect(formatTaxId(null)).toBe('');
  });
});

describe('contactInitials', () => {
  it('takes the first and last words', () => {
    expect(contactInitials('maria da silva')).toBe('MS');
    expect(contactInitials('Élio')).toBe('É');
    expect(contactInitials('  ')).toBe('?');
    expect(contactInitials('João - Loja')).toBe('JL');
    expect(contactInitials('Lote 00003')).toBe('L');
    expect(contactInitials('5511 9876')).toBe('59');
  });
});
