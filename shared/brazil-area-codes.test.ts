import { describe, expect, it } from 'vitest';
import { AREA_CODES_BY_UF, UF_BY_AREA_CODE, areaCodeOf, ufOfNumber } from './brazil-area-codes';
import { BRAZIL_UFS } from './schemas/reports';

/**
 * Every area code of Anatel's plan (Plano de Numeração, códigos nacionais) with its state,
 * written out here independently of the table under test.
 */
const ANATEL: Record<string, string> = {
  '11': 'SP', '12': 'SP', '13': 'SP', '14': 'SP', '15': 'SP', '16': 'SP', '17': 'SP', '18': 'SP', '19': 'SP',
  '21': 'RJ', '22': 'RJ', '24': 'RJ',
  '27': 'ES', '28': 'ES',
  '31': 'MG', '32': 'MG', '33': 'MG', '34': 'MG', '35': 'MG', '37': 'MG', '38': 'MG',
  '41': 'PR', '42': 'PR', '43': 'PR', '44': 'PR', '45': 'PR', '46': 'PR',
  '47': 'SC', '48': 'SC', '49': 'SC',
  '51': 'RS', '53': 'RS', '54': 'RS', '55': 'RS',
  '61': 'DF',
  '62': 'GO', '64': 'GO',
  '63': 'TO',
  '65': 'MT', '66': 'MT',
  '67': 'MS',
  '68': 'AC',
  '69': 'RO',
  '71': 'BA', '73': 'BA', '74': 'BA', '75': 'BA', '77': 'BA',
  '79': 'SE',
  '81': 'PE', '87': 'PE',
  '82': 'AL',
  '83': 'PB',
  '84': 'RN',
  '85': 'CE', '88': 'CE',
  '86': 'PI', '89': 'PI',
  '91': 'PA', '93': 'PA', '94': 'PA',
  '92': 'AM', '97': 'AM',
  '95': 'RR',
  '96': 'AP',
  '98': 'MA', '99': 'MA',
};

describe('Brazilian area codes', () => {
  it('has the 67 codes of the plan', () => {
    expect(Object.keys(ANATEL)).toHaveLength(67);
    expect(UF_BY_AREA_CODE.size).toBe(67);
  });

  it.each(Object.entries(ANATEL))('area code %s is %s, for mobiles and landlines', (code, uf) => {
    expect(UF_BY_AREA_CODE.get(code)).toBe(uf);
    expect(ufOfNumber(`55${code}987654321`)).toBe(uf);
    expect(ufOfNumber(`55${code}32345678`)).toBe(uf);
    expect(areaCodeOf(`55${code}987654321`)).toBe(code);
  });

  it('every other two-digit code is no state', () => {
    for (let n = 0; n <= 99; n++) {
      const code = String(n).padStart(2, '0');
      if (ANATEL[code]) continue;
      expect(UF_BY_AREA_CODE.has(code), code).toBe(false);
      expect(ufOfNumber(`55${code}987654321`), code).toBeNull();
    }
  });

  it('every state has at least one code, and only the 27 states of the contract', () => {
    expect(Object.keys(AREA_CODES_BY_UF).sort()).toEqual([...BRAZIL_UFS].sort());
    for (const uf of BRAZIL_UFS) expect(AREA_CODES_BY_UF[uf].length, uf).toBeGreaterThan(0);
  });

  it('numbers of other countries or of the wrong length have no state', () => {
    expect(ufOfNumber('14155552671')).toBeNull(); // United States
    expect(ufOfNumber('351912345678')).toBeNull(); // Portugal
    expect(ufOfNumber('5511987654')).toBeNull(); // too short
    expect(ufOfNumber('55119876543210')).toBeNull(); // too long
    expect(ufOfNumber('11987654321')).toBeNull(); // without the country code
    expect(ufOfNumber(null)).toBeNull();
    expect(ufOfNumber('')).toBeNull();
  });
});
