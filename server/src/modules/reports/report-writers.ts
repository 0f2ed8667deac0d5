import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import type { ReportColumn } from '@shared/schemas/reports';
import { csvField } from '../contacts/contact-export.service';
import { SPREADSHEET_FORMATS, cellText, cellValue, type WallClock } from './report-cells';
import type { ReportTotals } from './report-definition';
import type { FilterLine } from './report-filters.presenter';

/**
 * The three export formats of a report, each a stream fed batch by batch (rows are never all in
 * memory): CSV line by line as the reader pulls, XLSX through exceljs's streaming WorkbookWriter,
 * PDF through pdfkit. Every file carries the title, the filters, the number of rows, the totals
 * and the table. The XLSX and PDF writers wait while their reader is behind (backpressure), and
 * stop when the answer is closed.
 */
export interface ReportDocument {
  title: string;
  columns: ReportColumn[];
  filters: FilterLine[];
  count: number;
  totals?: ReportTotals;
  generatedAt: Date;
  clock: WallClock;
  /** Batches of presented rows (values by column key). */
  batches: AsyncIterable<Record<string, unknown>[]>;
}

export type ReportWriter = (doc: ReportDocument, onError: (err: unknown) => void) => Readable;

/** Excel reads a CSV as UTF-8 only with the byte-order mark. */
const BOM = '\uFEFF';
/** Buffered bytes above which a writer waits for its reader. */
const HIGH_WATER = 1 << 20;

/** Waits while more than HIGH_WATER bytes are buffered and nobody has closed the stream. */
async function drained(stream: PassThrough | Readable): Promise<void> {
  const buffered = () => stream.readableLength + ((stream as PassThrough).writableLength ?? 0);
  while (buffered() > HIGH_WATER && !stream.destroyed) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The totals row under the columns (each definition writes 'Total' in the column it chooses). */
const totalsCells = (doc: ReportDocument, format: (c: ReportColumn, v: unknown) => string) =>
  doc.columns.map((c) => {
    const v = doc.totals?.[c.key];
    return v === undefined || v === null ? '' : format(c, v);
  });

/** `;`-separated, CRLF, UTF-8 with BOM: the title and filters, a blank line, the table, a blank line, the totals. */
export const writeCsv: ReportWriter = (doc) => {
  const line = (cells: string[]) => `${cells.map(csvField).join(';')}\r\n`;
  async function* lines(): AsyncGenerator<string> {
    let head = BOM + line([doc.title]) + line(['Gerado em', doc.clock.dateTime(doc.generatedAt)]);
    for (const f of doc.filters) head += line([f.label, f.value]);
    head += line(['Total de registros', String(doc.count)]) + '\r\n' + line(doc.columns.map((c) => c.label));
    yield head;
    for await (const batch of doc.batches) {
      let chunk = '';
      for (const row of batch) chunk += line(doc.columns.map((c) => cellText(c, row[c.key], doc.clock)));
      yield chunk;
    }
    if (doc.totals) yield '\r\n' + line(totalsCells(doc, (c, v) => cellText(c, v, doc.clock)));
  }
  return Readable.from(lines(), { objectMode: false });
};

/**
 * Sheet "Relatório": the header, the rows and the totals row (dates as dates, durations as
 * [h]:mm:ss, numbers as numbers); sheet "Filtros": the title, the generation time, the filters
 * and the number of rows. Sheets are written one after the other, as the streaming writer wants.
 */
export const writeXlsx: ReportWriter = (doc, onError) => {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  void (async () => {
    const sheet = workbook.addWorksheet('Relatório', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = doc.columns.map((c) => ({ key: c.key, width: c.kind === 'text' ? 28 : c.kind === 'datetime' ? 18 : 14 }));
    // One style object per column, given to each of its cells: exceljs then looks it up once
    // (by identity) instead of building a style per cell, which doubled the time of a large file.
    const styles = doc.columns.map((c) => (SPREADSHEET_FORMATS[c.kind] ? { numFmt: SPREADSHEET_FORMATS[c.kind] } : {}));
    const addRow = (values: unknown[], font?: Partial<ExcelJS.Font>) => {
      const row = sheet.addRow(values);
      for (let i = 0; i < styles.length; i++) {
        const cell = row.getCell(i + 1);
        cell.style = font ? { ...styles[i], font } : styles[i];
      }
      row.commit();
    };
    addRow(
      doc.columns.map((c) => c.label),
      { bold: true },
    );
    for await (const batch of doc.batches) {
      if (out.destroyed) return;
      for (const row of batch) addRow(doc.columns.map((c) => cellValue(c, row[c.key], doc.clock)));
      await drained(out);
    }
    if (doc.totals) {
      sheet.addRow([]).commit();
      addRow(
        doc.columns.map((c) => {
          const v = doc.totals?.[c.key];
          return v === undefined || v === null ? null : cellValue(c, v, doc.clock);
        }),
        { bold: true },
      );
    }
    sheet.commit();
    const about = workbook.addWorksheet('Filtros');
    about.columns = [{ width: 24 }, { width: 80 }];
    const title = about.addRow([doc.title]);
    title.font = { bold: true, size: 14 };
    title.commit();
    about.addRow(['Gerado em', doc.clock.dateTime(doc.generatedAt)]).commit();
    for (const f of doc.filters) about.addRow([f.label, f.value]).commit();
    about.addRow(['Total de registros', doc.count]).commit();
    about.commit();
    await workbook.commit();
  })().catch((err) => {
    onError(err);
    out.destroy(err as Error);
  });
  return out;
};

/** pdfkit's standard fonts cover WinAnsi only: other characters are printed as '?'. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export const pdfSafe = (text: string): string =>
  text.replace(/[\s\S]/gu, (ch) => {
    const code = ch.codePointAt(0)!;
    if (code === 9 || code === 10 || code === 13) return ' ';
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(ch)) return ch;
    return '?';
  });

const PAGE_MARGIN = 30;
const ROW_HEIGHT = 14;
const FONT_SIZE = 7.5;

/** Relative widths of the table's columns. */
const columnWeight = (c: ReportColumn): number =>
  c.kind === 'number' ? 0.7 : c.kind === 'duration' ? 1 : c.kind === 'datetime' ? 1.15 : ['email', 'tags', 'wallets'].includes(c.key) ? 1.6 : 1.3;

/**
 * A4 landscape: the title, the generation time, the filters, the number of rows and the totals
 * on the first page; then the table, its header repeated on every page, each page numbered.
 * Cells too long for their column are cut with '…'.
 */
export const writePdf: ReportWriter = (doc, onError) => {
  const pdf = new PDFDocument({ size: 'A4', layout: 'landscape', margin: PAGE_MARGIN, info: { Title: doc.title } });
  const width = pdf.page.width - 2 * PAGE_MARGIN;
  const weights = doc.columns.map(columnWeight);
  const sum = weights.reduce((a, b) => a + b, 0);
  const widths = weights.map((w) => (w / sum) * width);
  const bottom = () => pdf.page.height - PAGE_MARGIN - ROW_HEIGHT;
  let pageNumber = 1;
  let y = 0;

  const fit = (text: string, max: number): string => {
    const safe = pdfSafe(text);
    // Cheap upper bound first: most cells fit without measuring.
    if (safe.length * FONT_SIZE * 0.62 <= max) return safe;
    if (pdf.widthOfString(safe) <= max) return safe;
    let lo = 0;
    let hi = safe.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (pdf.widthOfString(`${safe.slice(0, mid)}…`) <= max) lo = mid;
      else hi = mid - 1;
    }
    return `${safe.slice(0, lo)}…`;
  };

  const drawRow = (cells: string[], bold: boolean, shade: boolean) => {
    if (shade) pdf.rect(PAGE_MARGIN, y - 2, width, ROW_HEIGHT).fill('#e9ecef').fillColor('#000000');
    pdf.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(FONT_SIZE);
    let x = PAGE_MARGIN;
    cells.forEach((cell, i) => {
      pdf.text(fit(cell, widths[i] - 4), x + 2, y + 1, { lineBreak: false });
      x += widths[i];
    });
    y += ROW_HEIGHT;
  };

  const pageHeader = () => {
    pdf.font('Helvetica').fontSize(7).fillColor('#555555');
    pdf.text(pdfSafe(`${doc.title} · Página ${pageNumber}`), PAGE_MARGIN, PAGE_MARGIN - 18, { width, align: 'right', lineBreak: false });
    pdf.fillColor('#000000');
  };

  const tableHeader = () => drawRow(doc.columns.map((c) => c.label), true, true);

  const newPage = () => {
    pdf.addPage();
    pageNumber++;
    pageHeader();
    y = PAGE_MARGIN;
    tableHeader();
  };

  void (async () => {
    pageHeader();
    pdf.font('Helvetica-Bold').fontSize(16).text(pdfSafe(doc.title), PAGE_MARGIN, PAGE_MARGIN);
    pdf.moveDown(0.3).font('Helvetica').fontSize(9).text(pdfSafe(`Gerado em ${doc.clock.dateTime(doc.generatedAt)}`));
    pdf.moveDown(0.5).font('Helvetica-Bold').fontSize(10).text('Filtros');
    pdf.font('Helvetica').fontSize(9);
    for (const f of doc.filters) pdf.text(pdfSafe(`${f.label}: ${f.value}`), { width });
    pdf.moveDown(0.5).font('Helvetica-Bold').fontSize(10).text(pdfSafe(`Total de registros: ${doc.count}`));
    if (doc.totals) {
      pdf.moveDown(0.3).font('Helvetica-Bold').fontSize(10).text('Totais');
      pdf.font('Helvetica').fontSize(9);
      doc.columns.forEach((c) => {
        const v = doc.totals?.[c.key];
        if (v === undefined || v === null || v === 'Total') return;
        pdf.text(pdfSafe(`${c.label}: ${cellText(c, v, doc.clock, true)}`), { width });
      });
    }
    pdf.moveDown(1);
    y = pdf.y;
    tableHeader();
    for await (const batch of doc.batches) {
      if (pdf.destroyed) return;
      for (const row of batch) {
        if (y > bottom()) newPage();
        drawRow(doc.columns.map((c) => cellText(c, row[c.key], doc.clock, true)), false, false);
      }
      await drained(pdf);
    }
    if (doc.totals) {
      if (y > bottom()) newPage();
      drawRow(totalsCells(doc, (c, v) => cellText(c, v, doc.clock, true)), true, true);
    }
    pdf.end();
  })().catch((err) => {
    onError(err);
    pdf.destroy(err as Error);
  });
  return pdf;
};

export const REPORT_WRITERS = {
  csv: { write: writeCsv, contentType: 'text/csv; charset=utf-8' },
  xlsx: { write: writeXlsx, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pdf: { write: writePdf, contentType: 'application/pdf' },
} as const;
