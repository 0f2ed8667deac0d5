import { describe, expect, it } from 'vitest';
import { isValidCnpj, isValidCpf, isValidCpfOrCnpj, normalizeTaxId } from './cpf-cnpj';

describe('normalizeTaxId', () => {
  it('strips dots, dashes, slashes and spaces', () => {
    expect(normalizeTaxId(' 529.982.247-25 ')).toBe('52998224725');
    expect(normalizeTaxId('11.222.333/0001-81')).toBe('11222333000181');
  });
  it('refuses letters and other symbols', () => {
    expect(normalizeTaxId('529.982.247-2X')).toBeNull();
    expect(normalizeTaxId('529_982_247_25')).toBeNull();
    expect(normalizeTaxId('')).toBeNull();
  });
});

describe('isValidCpf', () => {
  it('accepts valid CPFs with or without punctuation', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('111.444.777-35')).toBe(true);
    // first check digit computes to 0 (remainder below 2)
    expect(isValidCpf('000.000.001-91')).toBe(true);
  });
  it('rejects a wrong check digit', () => {
    expect(isValidCpf('529.982.247-24')).toBe(false);
    expect(isValidCpf('529.982.247-15')).toBe(false);
  });
  it('rejects repeated digits, wrong lengths and garbage', () => {
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('000.000.000-00')).toBe(false);
    expect(isValidCpf('5299822472')).toBe(false);
    expect(isValidCpf('529982247250')).toBe(false);
    expect(isValidCpf('abc')).toBe(false);
  });
});

describe('isValidCnpj', () => {
  it('accepts valid CNPJs with or without punctuation', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('04.252.011/0001-10')).toBe(true);
  });
  it('rejects a wrong check digit', () => {
    expect(isValidCnpj('11.222.333/0001-80')).toBe(false);
    expect(isValidCnpj('11.222.333/0001-91')).toBe(false);
  });
  it('rejects repeated digits and wrong lengths', () => {
    expect(isValidCnpj('11.111.111/1111-11')).toBe(false);
    expect(isValidCnpj('1122233300018')).toBe(false);
  });
});

describe('isValidCpfOrCnpj', () => {
  it('decides by digit count', () => {
    expect(isValidCpfOrCnpj('529.982.247-25')).toBe(true);
    expect(isValidCpfOrCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCpfOrCnpj('123456789012')).toBe(false);
    expect(isValidCpfOrCnpj('')).toBe(false);
  });
});
