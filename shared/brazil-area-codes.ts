import type { BrazilUf } from './schemas/reports';

/**
 * Brazilian area codes (DDD) by state (UF): the 67 codes of Anatel's national numbering plan.
 * Used by the contatos-por-estado report (issue #13) to place a contact in a state from its number.
 * A code serves one state only (61 is the Federal District, 64 Goiás, 24 Rio de Janeiro ...).
 */
export const AREA_CODES_BY_UF: Readonly<Record<BrazilUf, readonly string[]>> = {
  AC: ['68'],
  AL: ['82'],
  AM: ['92', '97'],
  AP: ['96'],
  BA: ['71', '73', '74', '75', '77'],
  CE: ['85', '88'],
  DF: ['61'],
  ES: ['27', '28'],
  GO: ['62', '64'],
  MA: ['98', '99'],
  MG: ['31', '32', '33', '34', '35', '37', '38'],
  MS: ['67'],
  MT: ['65', '66'],
  PA: ['91', '93', '94'],
  PB: ['83'],
  PE: ['81', '87'],
  PI: ['86', '89'],
  PR: ['41', '42', '43', '44', '45', '46'],
  RJ: ['21', '22', '24'],
  RN: ['84'],
  RO: ['69'],
  RR: ['95'],
  RS: ['51', '53', '54', '55'],
  SC: ['47', '48', '49'],
  SE: ['79'],
  SP: ['11', '12', '13', '14', '15', '16', '17', '18', '19'],
  TO: ['63'],
};

/** The same table by code: '11' -> 'SP'. */
export const UF_BY_AREA_CODE: ReadonlyMap<string, BrazilUf> = new Map(
  (Object.entries(AREA_CODES_BY_UF) as [BrazilUf, readonly string[]][]).flatMap(([uf, codes]) => codes.map((code) => [code, uf] as const)),
);

/** Brazil's country calling code; stored numbers are E.164 digits without '+' (5511987654321). */
export const BRAZIL_COUNTRY_CODE = '55';

/**
 * A stored Brazilian number: 55, a two-digit area code (no zero), then 8 digits (landline) or 9
 * (mobile). The same test is written in SQL by the report (`BRAZIL_NUMBER_SQL_PATTERN`).
 */
const BRAZIL_NUMBER = /^55([1-9][1-9])\d{8,9}$/;
export const BRAZIL_NUMBER_SQL_PATTERN = '^55[1-9][1-9][0-9]{8,9}$';

/** The area code of a stored Brazilian number, or null for another country or a malformed number. */
export function areaCodeOf(number: string | null | undefined): string | null {
  const match = number ? BRAZIL_NUMBER.exec(number) : null;
  return match ? match[1] : null;
}

/** The state of a stored number, or null (another country, an area code that does not exist). */
export function ufOfNumber(number: string | null | undefined): BrazilUf | null {
  const code = areaCodeOf(number);
  return code ? (UF_BY_AREA_CODE.get(code) ?? null) : null;
}
