import { describe, expect, it } from 'vitest';
import { headerKey, mapHeader, parseImportRow } from './contact-import.rows';

describe('mapHeader', () => {
  it('matches the template and the English columns without case, accents or punctuation', () => {
    expect(mapHeader(['Nome', 'Número', 'E-mail', 'CPF', 'DataNascimento', 'PrimeiroNome', 'ÚltimoNome', 'Empresa'])).toEqual({
      columns: { name: 0, number: 1, email: 2, cpfCnpj: 3, birthday: 4, firstName: 5, lastName: 6, businessName: 7 },
    });
    expect(mapHeader(['  NAME ', 'number'])).toEqual({ columns: { name: 0, number: 1 } });
    expect(mapHeader(['numero', 'NOME', 'nome'])).toEqual({ columns: { number: 0, name: 1 } });
    expect(headerKey('Último Nome')).toBe('ultimonome');
  });

  it('explains a header without name or number', () => {
    expect(mapHeader(['Nome', 'Telefone fixo'])).toEqual({ error: expect.stringContaining('name e number') });
  });
});

describe('parseImportRow', () => {
  const columns = { name: 0, number: 1, email: 2, cpfCnpj: 3, birthday: 4 };

  it('normalises a good row', () => {
    expect(
      parseImportRow(2, [' Ana ', '(11) 98765-4321', 'ANA@X.COM', '529.982.247-25', '17/05/1990'], columns, 'dd/MM/yyyy'),
    ).toEqual({
      ok: true,
      contact: {
        line: 2,
        name: 'Ana',
        number: '5511987654321',
        email: 'ana@x.com',
        cpfCnpj: '52998224725',
        birthday: '1990-05-17',
        firstName: null,
        lastName: null,
        businessName: null,
      },
    });
  });

  it('lists every problem of a row', () => {
    expect(parseImportRow(9, ['', 'abc', 'x@', '123', '99/99/1990'], columns, 'dd/MM/yyyy')).toEqual({
      ok: false,
      reason:
        'Nome ausente; Número inválido: abc; E-mail inválido: x@; CPF/CNPJ inválido: 123; Data de nascimento inválida: 99/99/1990 (formato dd/MM/yyyy)',
    });
    expect(parseImportRow(3, ['x'.repeat(201), '11987654321'], columns, 'dd/MM/yyyy')).toEqual({
      ok: false,
      reason: 'Nome com mais de 200 caracteres',
    });
  });

  it('reads spreadsheet cells: numbers, dates, a CPF that lost its leading zero', () => {
    const result = parseImportRow(
      4,
      ['Ana', 5511987654321, null, 3989453068, new Date(Date.UTC(1990, 4, 17))],
      columns,
      'MM/dd/yyyy',
    );
    expect(result).toMatchObject({
      ok: true,
      contact: { number: '5511987654321', cpfCnpj: '03989453068', birthday: '1990-05-17' },
    });
  });
});
