import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { parse, type CsvError } from 'csv-parse';
import ExcelJS from 'exceljs';

/** A spreadsheet cell as the row parser sees it: text, a number or a date cell, or nothing. */
export type CellValue = string | number | Date | null;

/** One record of the file, or one the file format itself made unreadable (a broken CSV quote). */
export type SheetRecord = { line: number; cells: CellValue[] } | { line: number; unreadable: string };

export type ContactFileKind = 'csv' | 'xlsx';

/** Bytes of the file consumed so far, for the import's percent. */
export interface ReadProgress {
  bytesRead: number;
}

/** Thrown for a file that cannot be read at all (wrong format); the import fails with its message. */
export class UnreadableFileError extends Error {}

/**
 * Streams the records of a contacts file, never holding the whole file: CSV through csv-parse,
 * XLSX through exceljs's streaming WorkbookReader (first worksheet). Lines are numbered as a
 * spreadsheet shows them (the header is line 1). Records whose cells are all blank are skipped:
 * they carry no contact.
 */
export function readContactFile(filePath: string, kind: ContactFileKind, progress: ReadProgress): AsyncGenerator<SheetRecord> {
  return kind === 'csv' ? readCsv(filePath, progress) : readXlsx(filePath, progress);
}

const isBlank = (cells: CellValue[]): boolean => cells.every((c) => c === null || (typeof c === 'string' && c.trim() === ''));

async function* readCsv(filePath: string, progress: ReadProgress): AsyncGenerator<SheetRecord> {
  const delimiter = await sniffDelimiter(filePath);
  const unreadable: SheetRecord[] = [];
  const parser = parse({
    bom: true,
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    info: true,
    // A record the parser cannot make sense of is reported as a rejected line, not a failed import.
    skip_records_with_error: true,
    on_skip: (err: CsvError | undefined) => {
      unreadable.push({
        line: Number((err as { lines?: number } | undefined)?.lines ?? 0),
        unreadable: `Linha mal formatada no CSV (${err?.code ?? 'erro de leitura'})`,
      });
      return undefined;
    },
  });
  const source = createReadStream(filePath);
  source.on('data', (chunk) => {
    progress.bytesRead += chunk.length;
  });
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      while (unreadable.length) yield unreadable.shift()!;
      const cells: CellValue[] = item.record;
      if (isBlank(cells)) continue;
      // info.lines is the line where the record ends; quoted fields may span several lines.
      const innerBreaks = item.record.reduce((n, field) => n + (field.match(/\n/g)?.length ?? 0), 0);
      yield { line: item.info.lines - innerBreaks, cells };
    }
    while (unreadable.length) yield unreadable.shift()!;
  } finally {
    // The consumer may stop early (a failed batch): close the file too.
    source.destroy();
  }
}

/**
 * Semicolon (Brazilian spreadsheets) or comma, decided by the header line: whichever appears
 * more often outside quotes. Tabs are accepted too.
 */
async function sniffDelimiter(filePath: string): Promise<string> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const counts: Record<string, number> = { ';': 0, ',': 0, '\t': 0 };
    let quoted = false;
    for (const ch of text) {
      if (ch === '"') quoted = !quoted;
      else if (!quoted && (ch === '\n' || ch === '\r')) break;
      else if (!quoted && ch in counts) counts[ch]++;
    }
    const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
    return best[1] > 0 ? best[0] : ',';
  } finally {
    await handle.close();
  }
}

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

async function* readXlsx(filePath: string, progress: ReadProgress): AsyncGenerator<SheetRecord> {
  const handle = await open(filePath, 'r');
  const magic = Buffer.alloc(4);
  try {
    await handle.read(magic, 0, 4, 0);
  } finally {
    await handle.close();
  }
  if (!magic.equals(ZIP_MAGIC)) throw new UnreadableFileError('O arquivo não é uma planilha XLSX válida.');

  const source = createReadStream(filePath);
  source.on('data', (chunk) => {
    progress.bytesRead += chunk.length;
  });
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(source, {
    sharedStrings: 'cache',
    // Styles tell date cells from number cells.
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  try {
    for await (const worksheet of reader) {
      for await (const row of worksheet) {
        const values = Array.isArray(row.values) ? row.values : [];
        const cells: CellValue[] = [];
        // row.values is 1-based and sparse.
        for (let i = 1; i < values.length; i++) cells.push(cellValue(values[i]));
        if (isBlank(cells)) continue;
        yield { line: row.number, cells };
      }
      // Only the first worksheet holds the contacts.
      break;
    }
  } catch (err) {
    if (err instanceof UnreadableFileError) throw err;
    throw new UnreadableFileError(`Não foi possível ler a planilha XLSX: ${(err as Error).message}`);
  } finally {
    source.destroy();
  }
}

/** Rich text, hyperlinks and formulas reduced to what the cell shows. */
export function cellValue(value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value;
  if (typeof value === 'object') {
    const v = value as { richText?: { text: string }[]; text?: unknown; result?: unknown; error?: unknown };
    if (Array.isArray(v.richText)) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return cellValue(v.result);
    if (v.text !== undefined) return cellValue(v.text);
    if (v.error !== undefined) return null;
  }
  return String(value);
}
