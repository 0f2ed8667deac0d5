import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  CONTACT_TEMPLATE_COLUMNS,
  type ContactDto,
  type ContactExportInput,
  type ContactFilters,
} from '@shared/schemas/contacts';
import { formatCalendarDate } from '@shared/validation/calendar-date';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { CONTACT_ORDER, CONTACT_SELECT, contactFilterSql } from './contact-list.query';
import { authorizeContactAction } from './contacts.policy';
import { presentContact, type ContactRow } from './contacts.presenter';

/** Rows per page read from the database while a file is being written. */
const EXPORT_PAGE_SIZE = 1000;

/** The export adds the contact's tags and responsible users after the template's columns. */
export const CONTACT_EXPORT_COLUMNS = [...CONTACT_TEMPLATE_COLUMNS, 'Etiquetas', 'Carteira'] as const;

const TEMPLATE_EXAMPLE = [
  'João da Silva',
  '5511987654321',
  'joao@exemplo.com.br',
  '123.456.789-09',
  '17/05/1990',
  'João',
  'da Silva',
  'Empresa Exemplo',
];

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: Readable;
}

const CSV_TYPE = 'text/csv; charset=utf-8';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Excel reads a CSV as UTF-8 only with the byte-order mark. */
const BOM = '\uFEFF';

type ExportDeps = Pick<AppDeps, 'dataSource' | 'logger' | 'clock'>;

/**
 * Contacts export (the list's filters, the list's order) and the import template. Files are
 * streamed: CSV line by line, XLSX through exceljs's streaming WorkbookWriter, reading the
 * contacts a page at a time by keyset, so a large tenant never sits in memory.
 */
export class ContactExportService {
  constructor(private readonly deps: ExportDeps) {}

  export(auth: AuthContext, input: ContactExportInput): ExportFile {
    authorizeContactAction(auth, 'export');
    const stamp = this.deps.clock.now().toISOString().slice(0, 10);
    const rows = this.pages(auth.tenantId, input);
    if (input.format === 'csv') {
      return { fileName: `contatos-${stamp}.csv`, contentType: CSV_TYPE, body: Readable.from(csvLines(rows)) };
    }
    return {
      fileName: `contatos-${stamp}.xlsx`,
      contentType: XLSX_TYPE,
      body: this.xlsx('Contatos', CONTACT_EXPORT_COLUMNS, mapRows(rows)),
    };
  }

  /** The import template: the template's header and one example row. */
  template(format: 'csv' | 'xlsx'): ExportFile {
    if (format === 'csv') {
      const text = `${BOM}${CONTACT_TEMPLATE_COLUMNS.join(';')}\r\n${TEMPLATE_EXAMPLE.map(csvField).join(';')}\r\n`;
      return { fileName: 'modelo-importacao-contatos.csv', contentType: CSV_TYPE, body: Readable.from([text]) };
    }
    async function* example() {
      yield TEMPLATE_EXAMPLE;
    }
    return {
      fileName: 'modelo-importacao-contatos.xlsx',
      contentType: XLSX_TYPE,
      body: this.xlsx('Contatos', CONTACT_TEMPLATE_COLUMNS, example()),
    };
  }

  /** Keyset pages in the list's order (lower(name), id): no OFFSET, each page uses the index. */
  private async *pages(tenantId: number, filters: ContactFilters): AsyncGenerator<ContactDto> {
    let after: { name: string; id: number } | null = null;
    for (;;) {
      const params: unknown[] = [];
      let where = contactFilterSql(tenantId, filters, params);
      if (after) {
        params.push(after.name, after.id);
        where += ` AND (lower(c.name), c.id) > ($${params.length - 1}, $${params.length})`;
      }
      params.push(EXPORT_PAGE_SIZE);
      // The sort key comes from the database: JavaScript's toLowerCase is not PostgreSQL's lower().
      const rows: (ContactRow & { sortName: string })[] = await this.deps.dataSource.query(
        `SELECT page.*, lower(page.name) AS "sortName"
           FROM (${CONTACT_SELECT} ${where} ${CONTACT_ORDER} LIMIT $${params.length}) page
          ORDER BY lower(page.name), page.id`,
        params,
      );
      for (const row of rows) yield presentContact(row);
      if (rows.length < EXPORT_PAGE_SIZE) return;
      const last = rows[rows.length - 1];
      after = { name: last.sortName, id: last.id };
    }
  }

  private xlsx(sheetName: string, header: readonly string[], rows: AsyncIterable<string[]>): Readable {
    const out = new PassThrough();
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet(sheetName);
    void (async () => {
      sheet.addRow([...header]).commit();
      for await (const cells of rows) sheet.addRow(cells).commit();
      sheet.commit();
      await workbook.commit();
    })().catch((err) => {
      this.deps.logger.error({ err }, 'contacts export failed');
      out.destroy(err as Error);
    });
    return out;
  }
}

/** The cells of one contact, in CONTACT_EXPORT_COLUMNS order; numbers stay text (no 5.51E+12). */
export function contactCells(c: ContactDto): string[] {
  return [
    c.name,
    c.number ?? '',
    c.email ?? '',
    c.cpfCnpj ?? '',
    formatCalendarDate(c.birthday),
    c.firstName ?? '',
    c.lastName ?? '',
    c.businessName ?? '',
    c.tags.map((t) => t.name).join(', '),
    c.wallets.map((w) => w.name).join(', '),
  ];
}

async function* mapRows(rows: AsyncIterable<ContactDto>): AsyncGenerator<string[]> {
  for await (const c of rows) yield contactCells(c);
}

async function* csvLines(rows: AsyncIterable<ContactDto>): AsyncGenerator<string> {
  yield `${BOM}${CONTACT_EXPORT_COLUMNS.join(';')}\r\n`;
  let chunk = '';
  let count = 0;
  for await (const c of rows) {
    chunk += `${contactCells(c).map(csvField).join(';')}\r\n`;
    // Many lines per chunk: one stream write per contact costs more than the line itself.
    if (++count % 200 === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * One CSV field: quoted when it holds the separator, a quote or a line break. A text starting
 * with = + - @ (or a tab / carriage return) is prefixed with ' so a spreadsheet shows it instead
 * of running it as a formula (CSV injection).
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
