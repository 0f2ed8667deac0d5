import type { ContactImportDateFormat } from '@shared/schemas/contacts';
import { calendarDateOfUtc, parseCalendarDate } from '@shared/validation/calendar-date';
import { normalizeContactNumber } from '@shared/validation/contact-number';
import { isValidCpfOrCnpj, normalizeTaxId } from '@shared/validation/cpf-cnpj';
import { hasUnsafeText, UNSAFE_TEXT_MESSAGE } from '@shared/validation/safe-text';
import type { CellValue } from './contact-import.reader';

/**
 * From a file row to a contact: the header decides which column is which field, each row is
 * checked, and every reason a row is refused is written in Portuguese for the person importing.
 */

export const IMPORT_FIELDS = ['name', 'number', 'email', 'cpfCnpj', 'birthday', 'firstName', 'lastName', 'businessName'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/**
 * Header titles accepted for each field, compared without case, accents, spaces or punctuation:
 * the English columns of the anchor (name, number), the template's Portuguese titles
 * (Nome;Número;E-mail;CPF;DataNascimento;PrimeiroNome;ÚltimoNome;Empresa) and common synonyms.
 */
const HEADER_ALIASES: Record<string, ImportField> = {
  name: 'name',
  nome: 'name',
  number: 'number',
  numero: 'number',
  phone: 'number',
  telefone: 'number',
  celular: 'number',
  whatsapp: 'number',
  email: 'email',
  cpf: 'cpfCnpj',
  cnpj: 'cpfCnpj',
  cpfcnpj: 'cpfCnpj',
  datanascimento: 'birthday',
  datadenascimento: 'birthday',
  nascimento: 'birthday',
  aniversario: 'birthday',
  birthday: 'birthday',
  primeironome: 'firstName',
  firstname: 'firstName',
  ultimonome: 'lastName',
  sobrenome: 'lastName',
  lastname: 'lastName',
  empresa: 'businessName',
  businessname: 'businessName',
  company: 'businessName',
};

const MAX_LENGTH: Record<ImportField, number> = {
  name: 200,
  number: 40,
  email: 254,
  cpfCnpj: 30,
  birthday: 40,
  firstName: 120,
  lastName: 120,
  businessName: 200,
};

const FIELD_LABEL: Record<ImportField, string> = {
  name: 'Nome',
  number: 'Número',
  email: 'E-mail',
  cpfCnpj: 'CPF/CNPJ',
  birthday: 'Data de nascimento',
  firstName: 'Primeiro nome',
  lastName: 'Último nome',
  businessName: 'Empresa',
};

export const headerKey = (title: string): string =>
  title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

export type ColumnMap = Partial<Record<ImportField, number>>;

/** The column of each known field the header names (the first column of a field wins). */
export function headerColumns(cells: CellValue[]): ColumnMap {
  const columns: ColumnMap = {};
  cells.forEach((cell, index) => {
    const field = typeof cell === 'string' ? HEADER_ALIASES[headerKey(cell)] : undefined;
    if (field && columns[field] === undefined) columns[field] = index;
  });
  return columns;
}

/** The column of each known field, or the reason the header cannot be used. */
export function mapHeader(cells: CellValue[]): { columns: ColumnMap } | { error: string } {
  const columns = headerColumns(cells);
  if (columns.name === undefined || columns.number === undefined) {
    return {
      error:
        'O arquivo precisa das colunas name e number (ou as colunas do modelo: Nome;Número;E-mail;CPF;DataNascimento;PrimeiroNome;ÚltimoNome;Empresa).',
    };
  }
  return { columns };
}

export interface ImportedContact {
  line: number;
  name: string;
  number: string;
  email: string | null;
  cpfCnpj: string | null;
  birthday: string | null;
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
}

export type ImportRowResult = { ok: true; contact: ImportedContact } | { ok: false; reason: string };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

const text = (cell: CellValue | undefined): string => {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return calendarDateOfUtc(cell) ?? '';
  return String(cell).trim();
};

/** Spreadsheets drop the leading zeros of a CPF/CNPJ typed as a number; put them back. */
function taxIdText(cell: CellValue | undefined): string {
  if (typeof cell !== 'number' || !Number.isInteger(cell)) return text(cell);
  const digits = String(cell);
  return digits.length <= 11 ? digits.padStart(11, '0') : digits.padStart(14, '0');
}

function birthdayOf(cell: CellValue | undefined, format: ContactImportDateFormat): string | null {
  if (cell instanceof Date) return calendarDateOfUtc(cell);
  return parseCalendarDate(text(cell), format);
}

/** Checks one data row. Every problem of the row is listed, separated by "; ". */
export function parseImportRow(
  line: number,
  cells: CellValue[],
  columns: ColumnMap,
  dateFormat: ContactImportDateFormat,
): ImportRowResult {
  const cell = (field: ImportField) => (columns[field] === undefined ? undefined : cells[columns[field]!]);
  // Text the database cannot hold (NUL, control characters) refuses the line on its own, and the
  // reason does not quote it: the reason is stored too.
  const unsafe = IMPORT_FIELDS.filter((field) => hasUnsafeText(text(cell(field))));
  if (unsafe.length > 0) {
    return { ok: false, reason: unsafe.map((field) => `${FIELD_LABEL[field]} ${UNSAFE_TEXT_MESSAGE}`).join('; ') };
  }
  const reasons: string[] = [];
  for (const field of IMPORT_FIELDS) {
    const value = text(cell(field));
    if (value.length > MAX_LENGTH[field]) reasons.push(`${FIELD_LABEL[field]} com mais de ${MAX_LENGTH[field]} caracteres`);
  }

  const name = text(cell('name'));
  if (!name) reasons.push('Nome ausente');

  const rawNumber = text(cell('number'));
  const number = rawNumber ? normalizeContactNumber(rawNumber) : null;
  if (!rawNumber) reasons.push('Número ausente');
  else if (!number) reasons.push(`Número inválido: ${rawNumber}`);

  const email = text(cell('email')).toLowerCase() || null;
  if (email && !EMAIL.test(email)) reasons.push(`E-mail inválido: ${email}`);

  const rawTaxId = taxIdText(cell('cpfCnpj'));
  const cpfCnpj = rawTaxId ? normalizeTaxId(rawTaxId) : null;
  if (rawTaxId && !isValidCpfOrCnpj(rawTaxId)) reasons.push(`CPF/CNPJ inválido: ${rawTaxId}`);

  const rawBirthday = cell('birthday');
  const birthdayText = text(rawBirthday);
  const birthday = birthdayText ? birthdayOf(rawBirthday, dateFormat) : null;
  if (birthdayText && !birthday) reasons.push(`Data de nascimento inválida: ${birthdayText} (formato ${dateFormat})`);

  if (reasons.length > 0 || !number) return { ok: false, reason: reasons.join('; ') };
  return {
    ok: true,
    contact: {
      line,
      name,
      number,
      email,
      cpfCnpj,
      birthday,
      firstName: text(cell('firstName')) || null,
      lastName: text(cell('lastName')) || null,
      businessName: text(cell('businessName')) || null,
    },
  };
}
