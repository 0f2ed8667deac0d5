import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_TEMPLATE_COLUMNS, type ContactDto, type ContactListResponse } from '@shared/schemas/contacts';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { CONTACT_EXPORT_COLUMNS, contactCells, csvField } from './contact-export.service';
import { createContact, download, insertTag, uploadFile, waitForImport } from './contacts.test-support';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const readCsv = (bytes: Buffer): string[][] => parse(bytes, { bom: true, delimiter: ';', relax_column_count: true });

async function readXlsx(bytes: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0].eachRow((row) => {
    // row.values is sparse: Array.from visits the holes that map() would skip.
    const values = Array.from((row.values as unknown[]).slice(1), (v) => (v === null || v === undefined ? '' : String(v)));
    rows.push(values);
  });
  return rows;
}

/** Pads a spreadsheet row read back (trailing empty cells are not stored) to the header's width. */
const padded = (rows: string[][], width: number) => rows.map((r) => [...r, ...Array(Math.max(0, width - r.length)).fill('')]);

async function listAll(token: string, query: string): Promise<ContactDto[]> {
  const res = await server.request<ContactListResponse>('GET', `/contacts?pageSize=100&${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.contacts;
}

describe('POST /contacts/export', () => {
  it('streams the filtered list as CSV and as XLSX, in the list order', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const vip = await insertTag(server, a.tenant.id, 'VIP');
    const gold = await insertTag(server, a.tenant.id, 'Ouro');
    await createContact(server, a.users.admin.token, {
      name: 'Ana; "a Primeira"',
      number: '11988880001',
      email: 'ana@x.com',
      cpfCnpj: '529.982.247-25',
      birthday: '17/05/1990',
      firstName: 'Ana',
      lastName: 'Souza',
      businessName: 'ACME',
      tags: [vip, gold],
      wallets: [a.users.super.id],
    });
    await createContact(server, a.users.admin.token, { name: 'Bruno', number: '11988880002', tags: [vip] });
    await createContact(server, a.users.admin.token, { name: 'carla', number: '11988880003', tags: [vip] });
    await createContact(server, a.users.admin.token, { name: 'Davi', number: '11988880004' });
    await createContact(server, b.users.admin.token, { name: 'Ana de B', number: '11988880001' });

    const expected = await listAll(a.users.admin.token, `tags=${vip}`);
    expect(expected.map((c) => c.name)).toEqual(['Ana; "a Primeira"', 'Bruno', 'carla']);
    const expectedCells = expected.map(contactCells);
    expect(expectedCells[0]).toEqual([
      'Ana; "a Primeira"',
      '5511988880001',
      'ana@x.com',
      '52998224725',
      '17/05/1990',
      'Ana',
      'Souza',
      'ACME',
      'Ouro, VIP',
      'User super',
    ]);

    const csv = await download(server, 'POST', '/contacts/export', a.users.super.token, { format: 'csv', tags: [vip] });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="contatos-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(readCsv(csv.bytes)).toEqual([[...CONTACT_EXPORT_COLUMNS], ...expectedCells]);

    const xlsx = await download(server, 'POST', '/contacts/export', a.users.admin.token, { format: 'xlsx', tags: [vip] });
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-disposition')).toMatch(/filename="contatos-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    expect(padded(await readXlsx(xlsx.bytes), CONTACT_EXPORT_COLUMNS.length)).toEqual([
      [...CONTACT_EXPORT_COLUMNS],
      ...expectedCells,
    ]);

    const searched = await download(server, 'POST', '/contacts/export', a.users.admin.token, {
      format: 'csv',
      searchParam: 'DAV',
    });
    expect(
      readCsv(searched.bytes)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(['Davi']);
    const theirs = await download(server, 'POST', '/contacts/export', b.users.admin.token, { format: 'csv' });
    expect(
      readCsv(theirs.bytes)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual(['Ana de B']);
  });

  it('reads large lists page by page without losing or repeating a contact', async () => {
    const a = await server.createTenantWithUsers();
    // Many equal names: the order falls back on the id across page boundaries.
    await server.deps.dataSource.query(
      `INSERT INTO contacts ("tenantId", name, number)
       SELECT $1, CASE WHEN g % 3 = 0 THEN 'Pessoa' ELSE 'Pessoa ' || g END, '55119' || lpad(g::text, 8, '0')
         FROM generate_series(1, 2600) AS g`,
      [a.tenant.id],
    );
    const csv = await download(server, 'POST', '/contacts/export', a.users.admin.token, { format: 'csv' });
    const numbers = readCsv(csv.bytes)
      .slice(1)
      .map((r) => r[1]);
    expect(numbers).toHaveLength(2600);
    expect(new Set(numbers).size).toBe(2600);
    const firstPage = await listAll(a.users.admin.token, 'pageNumber=1');
    expect(numbers.slice(0, 100)).toEqual(firstPage.map((c) => c.number));
  });

  it('needs a supervisor or admin, a valid format and a token', async () => {
    const a = await server.createTenantWithUsers();
    const byUser = await server.request('POST', '/contacts/export', { token: a.users.user.token, body: { format: 'csv' } });
    expect([byUser.status, byUser.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const bad = await server.request('POST', '/contacts/export', {
      token: a.users.admin.token,
      body: { format: 'pdf', tags: 'x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.fields.map((f: { path: string }) => f.path).sort()).toEqual(['format', 'tags.0']);
    expect((await server.request('POST', '/contacts/export', { body: { format: 'csv' } })).status).toBe(401);
  });

  it('guards CSV cells against formulas', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+5511')).toBe("'+5511");
    expect(csvField('Ana')).toBe('Ana');
  });
});

describe('GET /contacts/import-template', () => {
  it('downloads the template as CSV or XLSX, and the template imports as is', async () => {
    const a = await server.createTenantWithUsers();
    const csv = await download(server, 'GET', '/contacts/import-template', a.users.user.token);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="modelo-importacao-contatos.csv"');
    const rows = readCsv(csv.bytes);
    expect(rows[0]).toEqual([...CONTACT_TEMPLATE_COLUMNS]);
    expect(rows).toHaveLength(2);

    const xlsx = await download(server, 'GET', '/contacts/import-template?format=xlsx', a.users.user.token);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(await readXlsx(xlsx.bytes)).toEqual(rows);

    const imported = await uploadFile(server, a.users.admin.token, { name: 'modelo.xlsx', content: new Uint8Array(xlsx.bytes) });
    const done = await waitForImport(server, a.users.admin.token, imported.body.importId);
    expect(done).toMatchObject({ status: 'done', total: 1, created: 1, rejected: 0 });

    const bad = await server.request('GET', '/contacts/import-template?format=pdf', { token: a.users.user.token });
    expect([bad.status, bad.body.fields[0].path]).toEqual([400, 'format']);
    expect((await server.request('GET', '/contacts/import-template')).status).toBe(401);
  });

  it('re-imports an export into another tenant unchanged', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    await createContact(server, a.users.admin.token, {
      name: 'Ana',
      number: '11988880001',
      cpfCnpj: '52998224725',
      birthday: '1990-05-17',
      businessName: 'ACME',
    });
    await createContact(server, a.users.admin.token, { name: 'Bruno', number: '+44 7911 123456', email: 'b@x.com' });
    const exported = await download(server, 'POST', '/contacts/export', a.users.admin.token, { format: 'csv' });
    const imported = await uploadFile(server, b.users.admin.token, {
      name: 'export.csv',
      content: new Uint8Array(exported.bytes),
    });
    const done = await waitForImport(server, b.users.admin.token, imported.body.importId);
    expect(done).toMatchObject({ status: 'done', total: 2, created: 2, rejected: 0 });
    const strip = (c: ContactDto) => [c.name, c.number, c.email, c.cpfCnpj, c.birthday, c.businessName];
    expect((await listAll(b.users.admin.token, '')).map(strip)).toEqual((await listAll(a.users.admin.token, '')).map(strip));
  });
});
