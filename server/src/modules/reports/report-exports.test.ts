import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { EXPORT_BATCH_SIZE, ReportsService } from './reports.service';
import {
  attachmentName,
  byName,
  createdAtOf,
  download,
  inMarchSaoPaulo,
  seedReportWorld,
  type ReportWorld,
  type TicketModel,
} from './reports.test-support';

/**
 * Exports opened and read back: CSV parsed (csv-parse), XLSX loaded with exceljs, PDF turned into
 * text with pdftotext (poppler-utils). Each holds the title, the filters, the number of rows, the
 * totals and every row, computed here from the seeded world; nothing of another tenant; files
 * larger than one batch come out whole and in order.
 */

let server: TestServer;
let w: ReportWorld;
let other: ReportWorld;
let dir: string;
const MARCH = 'startDate=01/03/2025&endDate=31/03/2025';

beforeAll(async () => {
  server = await startTestServer();
  w = await seedReportWorld(server);
  other = await seedReportWorld(server);
  dir = mkdtempSync(path.join(tmpdir(), 'report-exports-'));
}, 120_000);
afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const readCsv = (bytes: Buffer): string[][] => parse(bytes, { bom: true, delimiter: ';', relax_column_count: true });

async function readXlsx(bytes: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheet = (name: string) => {
    const ws = wb.getWorksheet(name);
    if (!ws) throw new Error(`no sheet ${name}`);
    const rows: unknown[][] = [];
    ws.eachRow({ includeEmpty: true }, (row) => rows.push(Array.from({ length: ws.columnCount }, (_, i) => row.getCell(i + 1).value ?? null)));
    return rows;
  };
  return { names: wb.worksheets.map((s) => s.name), sheet };
}

function pdfText(bytes: Buffer): string {
  const file = path.join(dir, `r-${Date.now()}-${Math.random()}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as São Paulo's wall clock (UTC-3 all of 2025), written out without the code under test. */
const spWall = (iso: string) => new Date(Date.parse(iso) - 3 * 3600_000);
const spText = (iso: string) => {
  const d = spWall(iso);
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
};
const plusMinutes = (iso: string, m: number) => new Date(Date.parse(iso) + m * 60_000).toISOString();
const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
const STATUS: Record<string, string> = { open: 'Aberto', pending: 'Pendente', closed: 'Resolvido' };

const ticketsQuery = () => `${MARCH}&queuesIds=${w.queues.Vendas},${w.queues.Suporte}`;
const expectedTickets = () =>
  w.tickets
    .filter((k) => inMarchSaoPaulo(k.createdAt) && ['Vendas', 'Suporte'].includes(k.queue))
    .sort((a, b) => createdAtOf(b) - createdAtOf(a) || b.id - a.id);
const contactNumber = (k: TicketModel) => w.contacts.find((c) => c.name === k.contact)!.number ?? '';

/** The CSV cells of a ticket row, written from the model. */
const ticketCsvCells = (k: TicketModel) => [
  String(k.id),
  k.protocol,
  k.contact,
  contactNumber(k),
  k.queue,
  k.user ?? '',
  k.channel,
  STATUS[k.status],
  spText(k.createdAt),
  k.closedAfter !== undefined ? spText(plusMinutes(k.createdAt, k.closedAfter)) : '',
  k.rating !== undefined ? String(k.rating) : '',
  k.demand ?? '',
];

const TICKET_HEADER = ['ID', 'Protocolo', 'Contato', 'Número', 'Fila', 'Usuário', 'Conexão', 'Status', 'Criado em', 'Resolvido em', 'Avaliação', 'Motivo'];

describe('atendimentos-por-parametros exports', () => {
  it('CSV: BOM, `;`, the title, the filters by name, the count, the header, every row in order and the totals', async () => {
    const file = await download(server, `/reports/atendimentos-por-parametros/export?${ticketsQuery()}&status=closed,open,pending&format=csv`, w.users.super.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('cache-control')).toBe('no-store');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(attachmentName(file.headers.get('content-disposition'))).toBe('Atendimentos por parâmetros 01-03-2025 a 31-03-2025.csv');
    expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = readCsv(file.bytes);
    const expected = expectedTickets();
    expect(lines[0]).toEqual(['Atendimentos por parâmetros']);
    expect(lines[1][0]).toBe('Gerado em');
    expect(lines[1][1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(lines.slice(2, 7)).toEqual([
      ['Período', '01/03/2025 a 31/03/2025'],
      ['Fuso horário', 'America/Sao_Paulo'],
      ['Filas', 'Vendas, Suporte'],
      ['Status', 'Resolvido, Aberto, Pendente'],
      ['Total de registros', String(expected.length)],
    ]);
    const header = lines.findIndex((l) => l[0] === 'ID');
    expect(lines[header]).toEqual(TICKET_HEADER);
    expect(lines.slice(header + 1, header + 1 + expected.length)).toEqual(expected.map(ticketCsvCells));
    const totals = lines[lines.length - 1];
    const ratings = expected.filter((k) => k.rating !== undefined).map((k) => k.rating!);
    const n = (s: string) => expected.filter((k) => k.status === s).length;
    expect(totals).toEqual([
      '', 'Total', `${expected.length} atendimentos`, '', '', '', '',
      `Aberto: ${n('open')} · Pendente: ${n('pending')} · Resolvido: ${n('closed')}`,
      '', '', String(ratings.reduce((a, b) => a + b, 0) / ratings.length).replace('.', ','), '',
    ]);
    const text = file.bytes.toString('utf8');
    for (const k of other.tickets) expect(text).not.toContain(k.protocol);
  });

  it('XLSX: sheet Relatório with the header, dates as São Paulo wall-clock dates, numbers as numbers and the totals; sheet Filtros', async () => {
    const file = await download(server, `/reports/atendimentos-por-parametros/export?${ticketsQuery()}&format=xlsx`, w.users.admin.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(attachmentName(file.headers.get('content-disposition'))).toBe('Atendimentos por parâmetros 01-03-2025 a 31-03-2025.xlsx');
    const book = await readXlsx(file.bytes);
    expect(book.names).toEqual(['Relatório', 'Filtros']);
    const rows = book.sheet('Relatório');
    const expected = expectedTickets();
    expect(rows[0]).toEqual(TICKET_HEADER);
    expect(rows.slice(1, 1 + expected.length)).toEqual(
      expected.map((k) => [
        k.id,
        k.protocol,
        k.contact,
        contactNumber(k),
        k.queue,
        k.user,
        k.channel,
        STATUS[k.status],
        spWall(k.createdAt),
        k.closedAfter !== undefined ? spWall(plusMinutes(k.createdAt, k.closedAfter)) : null,
        k.rating ?? null,
        k.demand ?? null,
      ]),
    );
    const totals = rows[rows.length - 1];
    expect(totals[1]).toBe('Total');
    expect(totals[2]).toBe(`${expected.length} atendimentos`);
    expect(totals[10]).toBe(4);
    const about = book.sheet('Filtros');
    expect(about[0][0]).toBe('Atendimentos por parâmetros');
    expect(about).toContainEqual(['Período', '01/03/2025 a 31/03/2025']);
    expect(about).toContainEqual(['Filas', 'Vendas, Suporte']);
    expect(about).toContainEqual(['Total de registros', expected.length]);
  });

  it('PDF: the title, the filters, the count, the totals and every row, readable by pdftotext', async () => {
    const file = await download(server, `/reports/atendimentos-por-parametros/export?${ticketsQuery()}&usersIds=${w.people.Ana},${w.people.Bruno}&format=pdf`, w.users.admin.token);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(attachmentName(file.headers.get('content-disposition'))).toBe('Atendimentos por parâmetros 01-03-2025 a 31-03-2025.pdf');
    expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(file.bytes);
    const expected = expectedTickets().filter((k) => k.user === 'Ana' || k.user === 'Bruno');
    expect(text).toContain('Atendimentos por parâmetros');
    expect(text).toContain('Período: 01/03/2025 a 31/03/2025');
    expect(text).toContain('Filas: Vendas, Suporte');
    expect(text).toContain('Usuários: Ana, Bruno');
    expect(text).toContain(`Total de registros: ${expected.length}`);
    const n = (s: string) => expected.filter((k) => k.status === s).length;
    expect(text).toContain(`Status: Aberto: ${n('open')} · Pendente: ${n('pending')} · Resolvido: ${n('closed')}`);
    expect(text).toContain('Avaliação: 4');
    for (const label of TICKET_HEADER) expect(text).toContain(label);
    const lines = text.split('\n');
    for (const k of expected) {
      const line = lines.find((l) => l.includes(k.protocol));
      expect(line, k.protocol).toBeDefined();
      for (const cell of [k.contact, k.queue, k.user!, STATUS[k.status], spText(k.createdAt)]) expect(line).toContain(cell);
    }
    for (const k of other.tickets) expect(text).not.toContain(k.protocol);
    expect(text).not.toContain(w.tickets.find((k) => k.key === 't7')!.protocol);
  });

  it("names only the caller's tenant's rows in the filters: another tenant's queue id is shown as #id", async () => {
    const file = await download(server, `/reports/atendimentos-por-parametros/export?${MARCH}&queuesIds=${other.queues.Vendas}&format=csv`, w.users.admin.token);
    const lines = readCsv(file.bytes);
    expect(lines).toContainEqual(['Filas', `#${other.queues.Vendas}`]);
    expect(lines).toContainEqual(['Total de registros', '0']);
  });
});

describe('estatisticas-atendimentos-usuarios and contact report exports', () => {
  it('XLSX of the per-user statistics: durations as [h]:mm:ss fractions of a day, and the totals row', async () => {
    const file = await download(server, `/reports/estatisticas-atendimentos-usuarios/export?${ticketsQuery()}&usersIds=${w.people.Ana},${w.people.Bruno}&format=xlsx`, w.users.admin.token);
    expect(file.status).toBe(200);
    expect(attachmentName(file.headers.get('content-disposition'))).toBe('Estatísticas de atendimentos por usuário 01-03-2025 a 31-03-2025.xlsx');
    const rows = (await readXlsx(file.bytes)).sheet('Relatório');
    expect(rows[0]).toEqual(['Usuário', 'E-mail', 'Atendimentos', 'Resolvidos', 'Mensagens enviadas', 'Primeira resposta (mediana)', 'Resolução (mediana)', 'Avaliações', 'Média das avaliações']);
    // What happened in March in Vendas and Suporte (reports.routes.test.ts derives the same from the model):
    // Ana was assigned t1 and t2, resolved t1, t2 and t5 (created on 28/02, closed on 01/03: 2 h, 1 h, 10 min),
    // sent 4 replies, first-responded t2 in 5 min, and was rated 5, 3 and 1; Bruno was assigned t3 and t8,
    // resolved t8 in 3 h, sent 4 replies, first-responded in 20 and 40 min, and was rated 4.
    const expected = [
      ['Ana', expect.any(String), 2, 3, 4, 300, 3600, 3, 3],
      ['Bruno', expect.any(String), 2, 1, 4, 1800, 10800, 1, 4],
    ];
    // A duration cell holds a fraction of a day formatted [h]:mm:ss; exceljs reads it back as a time of 30/12/1899.
    const seconds = (r: unknown[]) => r.map((v, i) => (i === 5 || i === 6) && v instanceof Date ? Math.round((v.getTime() - EXCEL_EPOCH) / 1000) : v);
    expect(rows.slice(1, 3).map(seconds)).toEqual(expected);
    const totals = seconds(rows[rows.length - 1]);
    // Medians of all the facts: first responses 5, 20 and 40 min; resolutions 10 min, 1 h, 2 h and 3 h.
    expect(totals).toEqual(['Total', null, 4, 4, 8, 1200, 5400, 4, 3.25]);
  });

  it('CSV and PDF of contatos-por-estado: the states chosen, the count per state and the contacts in name order', async () => {
    const expected = w.contacts.filter((c) => inMarchSaoPaulo(c.createdAt) && !c.isGroup && (c.state === 'SP' || c.state === 'DF')).sort(byName);
    const csv = await download(server, `/reports/contatos-por-estado/export?${MARCH}&states=SP,DF&format=csv`, w.users.admin.token);
    expect(attachmentName(csv.headers.get('content-disposition'))).toBe('Contatos por estado 01-03-2025 a 31-03-2025.csv');
    const lines = readCsv(csv.bytes);
    expect(lines).toContainEqual(['Estados', 'SP, DF']);
    const header = lines.findIndex((l) => l[0] === 'Estado');
    expect(lines[header]).toEqual(['Estado', 'Nome', 'Número', 'E-mail', 'Criado em']);
    expect(lines.slice(header + 1, header + 1 + expected.length)).toEqual(
      expected.map((c) => [c.state, c.name, c.number, c.email ?? '', spText(c.createdAt)]),
    );
    const sp = expected.filter((c) => c.state === 'SP').length;
    const df = expected.filter((c) => c.state === 'DF').length;
    expect(lines[lines.length - 1]).toEqual([`SP: ${sp} · DF: ${df}`, 'Total', '', '', '']);

    const pdf = await download(server, `/reports/contatos-por-estado/export?${MARCH}&states=SP,DF&format=pdf`, w.users.admin.token);
    const text = pdfText(pdf.bytes);
    expect(text).toContain('Contatos por estado');
    expect(text).toContain('Estados: SP, DF');
    expect(text).toContain(`Total de registros: ${expected.length}`);
    expect(text).toContain(`Estado: SP: ${sp} · DF: ${df}`);
    for (const c of expected) expect(text).toMatch(new RegExp(`${c.state} +${c.name} +${c.number}`));
  });
});

describe('exports larger than one batch', () => {
  it('writes every row once, in order, when thousands of tickets share one creation instant and contacts one name', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const q = (sql: string, params: unknown[]) => server.deps.dataSource.query(sql, params);
    const [{ id: queue }] = await q(`INSERT INTO queues ("tenantId", name) VALUES ($1, 'Fila') RETURNING id`, [tenant.id]);
    const total = EXPORT_BATCH_SIZE * 2 + 345;
    // One instant with microseconds for every ticket: the keyset must keep them between batches.
    await q(
      `WITH c AS (
         INSERT INTO contacts ("tenantId", name, number, "createdAt")
         SELECT $1::int, 'Mesmo Nome', '5511' || lpad(g::text, 9, '0'), '2025-03-15 12:00:00.123456+00'
           FROM generate_series(1, $2::int) g RETURNING id)
       INSERT INTO tickets ("tenantId", "contactId", "queueId", status, "createdAt")
       SELECT $1::int, id, $3::int, 'closed', '2025-03-15 12:00:00.123456+00' FROM c`,
      [tenant.id, total, queue],
    );
    const [{ ids }] = await q(`SELECT array_agg(id ORDER BY id DESC) AS ids FROM tickets WHERE "tenantId" = $1`, [tenant.id]);
    const csv = await download(server, `/reports/atendimentos-por-parametros/export?${MARCH}&queuesIds=${queue}&format=csv`, users.admin.token);
    const lines = readCsv(csv.bytes);
    const header = lines.findIndex((l) => l[0] === 'ID');
    const written = lines.slice(header + 1).filter((l) => /^\d+$/.test(l[0])).map((l) => Number(l[0]));
    expect(written).toHaveLength(total);
    expect(written).toEqual(ids);

    const xlsx = await download(server, `/reports/lista-contatos/export?${MARCH}&format=xlsx`, users.admin.token);
    const rows = (await readXlsx(xlsx.bytes)).sheet('Relatório');
    const [{ contactIds }] = await q(`SELECT array_agg(number ORDER BY id) AS "contactIds" FROM contacts WHERE "tenantId" = $1`, [tenant.id]);
    expect(rows.slice(1).map((r) => r[1])).toEqual(contactIds);
  });

  it('lets one user run two exports at once; a third is 429 until one ends', async () => {
    const service = new ReportsService(server.deps);
    const auth = { tenantId: w.tenant.id, userId: w.users.admin.id, profile: 'admin' as const, email: w.users.admin.email, sessionId: 'x' };
    const input = { startDate: '2025-03-01', endDate: '2025-03-31', format: 'csv' as const };
    const first = await service.export(auth, 'lista-contatos', input);
    const second = await service.export(auth, 'lista-contatos', input);
    await expect(service.export(auth, 'lista-contatos', input)).rejects.toMatchObject({ code: 'ERR_TOO_MANY_REQUESTS', status: 429 });
    const other = await service.export({ ...auth, userId: w.users.super.id, profile: 'super' }, 'lista-contatos', input);
    first.body.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    const third = await service.export(auth, 'lista-contatos', input);
    for (const f of [second, other, third]) f.body.destroy();
  });
});
