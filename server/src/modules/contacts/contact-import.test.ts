import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDto, ContactImportDto, ContactListResponse } from '@shared/schemas/contacts';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';
import { ContactImportService } from './contact-import.service';
import { createContact, uploadFile, waitForImport } from './contacts.test-support';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const HEADER = 'Nome;Número;E-mail;CPF;DataNascimento;PrimeiroNome;ÚltimoNome;Empresa';

/**
 * One file with every kind of row. Line numbers are the file's (header = 1):
 *  2 good (created)            7 same number as line 2 (duplicate in the file)
 *  3 no number                 8 existing contact without e-mail (updated: e-mail filled)
 *  4 invalid number            9 existing contact, nothing new (duplicate)
 *  5 invalid CPF              10 no name
 *  6 impossible date          11 month-first date (invalid unless dateFormat says MM/dd/yyyy)
 * 12 old 8-digit mobile with an ISO date (created)
 */
const CSV_LINES = [
  HEADER,
  'Ana Souza;(11) 98888-0001;ana@exemplo.com;529.982.247-25;17/05/1990;Ana;Souza;ACME',
  'Bruno Lima;;bruno@exemplo.com;;;;;',
  'Carla Dias;12345;;;;;;',
  'Davi Rocha;11 98888-0004;;111.111.111-11;;;;',
  'Eva Nunes;11 98888-0005;;;31/02/1990;;;',
  'Ana S.;+55 11 98888-0001;;;;;;',
  'Pessoa Existente;11 98888-0007;novo@exemplo.com;;;;;',
  'Outra Existente;11 98888-0008;;;;;;',
  ';11 98888-0009;;;;;;',
  'Fabio Melo;11988880010;;;05/17/1990;;;',
  'Gil Costa;21 7654-3210;;;1985-12-01;;;',
];

const reasonsOf = (imp: ContactImportDto) => imp.errors.map((e) => [e.line, e.reason]);

async function tenantWithExisting() {
  const t = await server.createTenantWithUsers();
  await createContact(server, t.users.admin.token, { name: 'Pessoa Existente', number: '11988880007' });
  await createContact(server, t.users.admin.token, { name: 'Outra Existente', number: '11988880008' });
  return t;
}

async function importFile(
  token: string,
  file: { name: string; content: string | Uint8Array },
  fields: Record<string, string> = {},
) {
  const res = await uploadFile(server, token, file, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body).toEqual({ importId: expect.any(String) });
  return waitForImport(server, token, res.body.importId);
}

async function contactsOf(token: string): Promise<ContactDto[]> {
  return (await server.request<ContactListResponse>('GET', '/contacts?pageSize=100', { token })).body.contacts;
}

describe('POST /contacts/upload (CSV)', () => {
  it('a line with a NUL or control character is that line\'s error and the import goes on', async () => {
    const t = await server.createTenantWithUsers();
    const content = [
      HEADER,
      'Hugo Alves;11 98888-0101;;;;;;',
      'Iara\u0000 Reis;11 98888-0102;;;;;;',
      'João Paz;11 98888-0103;;;;;;Loja\u0007',
      'Kátia Sá;11 98888-0104;;;;;;',
    ].join('\n');
    const imp = await importFile(t.users.admin.token, { name: 'controles.csv', content });
    expect(imp).toMatchObject({ status: 'done', total: 4, created: 2, rejected: 2 });
    expect(reasonsOf(imp)).toEqual([
      [3, 'Nome contém caracteres inválidos (NUL, controle ou UTF-16 inválido)'],
      [4, 'Empresa contém caracteres inválidos (NUL, controle ou UTF-16 inválido)'],
    ]);
    expect((await contactsOf(t.users.admin.token)).map((c) => c.name).sort()).toEqual(['Hugo Alves', 'Kátia Sá']);
  });

  it('imports good rows, reports every rejected row with its line, and re-importing creates nothing', async () => {
    const t = await tenantWithExisting();
    const content = `\uFEFF${CSV_LINES.join('\r\n')}\r\n`;
    const first = await importFile(t.users.admin.token, { name: 'contatos.csv', content });
    expect(first).toMatchObject({
      status: 'done',
      fileName: 'contatos.csv',
      dateFormat: 'dd/MM/yyyy',
      total: 11,
      processed: 11,
      created: 2,
      updated: 1,
      duplicates: 1,
      rejected: 7,
      percent: 100,
      failureReason: null,
    });
    expect(first.total).toBe(first.created + first.updated + first.duplicates + first.rejected);
    expect(reasonsOf(first)).toEqual([
      [3, 'Número ausente'],
      [4, 'Número inválido: 12345'],
      [5, 'CPF/CNPJ inválido: 111.111.111-11'],
      [6, 'Data de nascimento inválida: 31/02/1990 (formato dd/MM/yyyy)'],
      [7, 'Número duplicado no arquivo (igual ao da linha 2)'],
      [10, 'Nome ausente'],
      [11, 'Data de nascimento inválida: 05/17/1990 (formato dd/MM/yyyy)'],
    ]);

    const contacts = await contactsOf(t.users.admin.token);
    expect(contacts.map((c) => [c.name, c.number, c.email, c.cpfCnpj, c.birthday])).toEqual([
      ['Ana Souza', '5511988880001', 'ana@exemplo.com', '52998224725', '1990-05-17'],
      ['Gil Costa', '5521976543210', null, null, '1985-12-01'],
      ['Outra Existente', '5511988880008', null, null, null],
      ['Pessoa Existente', '5511988880007', 'novo@exemplo.com', null, null],
    ]);
    expect(contacts[0]).toMatchObject({ firstName: 'Ana', lastName: 'Souza', businessName: 'ACME' });

    const again = await importFile(t.users.admin.token, { name: 'contatos.csv', content });
    expect(again).toMatchObject({ status: 'done', total: 11, created: 0, updated: 0, duplicates: 4, rejected: 7 });
    expect(await contactsOf(t.users.admin.token)).toHaveLength(4);
  });

  it('reads month-first dates when dateFormat says so', async () => {
    const t = await tenantWithExisting();
    const content = `${CSV_LINES.join('\n')}\n`;
    const imp = await importFile(t.users.super.token, { name: 'contatos.csv', content }, { dateFormat: 'MM/dd/yyyy' });
    // Line 11 (05/17/1990) is now valid; line 2 (17/05/1990) is not a month-first date; ISO line 12 is fine.
    expect(imp).toMatchObject({ dateFormat: 'MM/dd/yyyy', total: 11, created: 3, updated: 1, duplicates: 1, rejected: 6 });
    expect(reasonsOf(imp)).toEqual([
      [2, 'Data de nascimento inválida: 17/05/1990 (formato MM/dd/yyyy)'],
      [3, 'Número ausente'],
      [4, 'Número inválido: 12345'],
      [5, 'CPF/CNPJ inválido: 111.111.111-11'],
      [6, 'Data de nascimento inválida: 31/02/1990 (formato MM/dd/yyyy)'],
      [10, 'Nome ausente'],
    ]);
    // Line 7 is no longer a duplicate in the file (line 2 was refused), so it creates the contact.
    const byNumber = new Map((await contactsOf(t.users.admin.token)).map((c) => [c.number, c]));
    expect(byNumber.get('5511988880001')?.name).toBe('Ana S.');
    expect(byNumber.get('5511988880010')?.birthday).toBe('1990-05-17');
  });

  it('takes English name,number columns with commas and quoted fields spanning lines', async () => {
    const t = await server.createTenantWithUsers();
    const content = 'name,number\n"Souza, Ana",11988880001\n\n"Multi\nLinha",11988880002\nSem Numero,\n';
    const imp = await importFile(t.users.admin.token, { name: 'contacts.CSV', content });
    expect(imp).toMatchObject({ status: 'done', total: 3, created: 2, rejected: 1 });
    expect(reasonsOf(imp)).toEqual([[6, 'Número ausente']]);
    expect((await contactsOf(t.users.admin.token)).map((c) => c.name)).toEqual(['Multi\nLinha', 'Souza, Ana']);
  });

  it('fails an import whose header lacks the name and number columns', async () => {
    const t = await server.createTenantWithUsers();
    const imp = await importFile(t.users.admin.token, { name: 'contatos.csv', content: 'Cliente;Telefone\nAna;11988880001\n' });
    expect(imp.status).toBe('failed');
    expect(imp.failureReason).toMatch(/colunas name e number/);
    expect(imp).toMatchObject({ total: 0, created: 0 });
  });
});

describe('POST /contacts/upload (XLSX)', () => {
  async function workbook(rows: unknown[][]): Promise<Uint8Array> {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Contatos');
    for (const row of rows) ws.addRow(row);
    wb.addWorksheet('Ignorada').addRow(['Nome', 'Número']);
    return new Uint8Array(await wb.xlsx.writeBuffer());
  }

  it('imports a spreadsheet with the same rules, reading date and number cells', async () => {
    const t = await tenantWithExisting();
    const content = await workbook([
      ['nome', 'NUMERO', 'e-mail', 'cpf', 'data nascimento', 'primeiro nome', 'ultimo nome', 'empresa'],
      ['Ana Souza', 5511988880001, 'ana@exemplo.com', '529.982.247-25', '05/17/1990', 'Ana', 'Souza', 'ACME'],
      ['Bruno Lima', null, 'bruno@exemplo.com'],
      ['Carla Dias', '12345'],
      ['Davi Rocha', '11 98888-0004', null, 11111111111],
      ['Eva Nunes', '11 98888-0005', null, null, '17/05/1990'],
      ['Ana S.', '+55 11 98888-0001'],
      ['Pessoa Existente', '11 98888-0007', 'novo@exemplo.com'],
      ['Outra Existente', '11 98888-0008'],
      [null, '11 98888-0009'],
      ['Helena Reis', '11 98888-0011', null, 3989453068, new Date(Date.UTC(1979, 11, 25))],
      [{ richText: [{ text: 'Ivo ' }, { text: 'Prado' }] }, { formula: '"11 98888-"&"0012"', result: '11 98888-0012' }],
    ]);
    const imp = await importFile(t.users.admin.token, { name: 'Contatos Março.xlsx', content }, { dateFormat: 'MM/dd/yyyy' });
    expect(imp).toMatchObject({
      status: 'done',
      fileName: 'Contatos Março.xlsx',
      total: 11,
      created: 3,
      updated: 1,
      duplicates: 1,
      rejected: 6,
    });
    expect(reasonsOf(imp)).toEqual([
      [3, 'Número ausente'],
      [4, 'Número inválido: 12345'],
      [5, 'CPF/CNPJ inválido: 11111111111'],
      [6, 'Data de nascimento inválida: 17/05/1990 (formato MM/dd/yyyy)'],
      [7, 'Número duplicado no arquivo (igual ao da linha 2)'],
      [10, 'Nome ausente'],
    ]);
    const byName = new Map((await contactsOf(t.users.admin.token)).map((c) => [c.name, c]));
    expect(byName.get('Ana Souza')).toMatchObject({ number: '5511988880001', birthday: '1990-05-17', cpfCnpj: '52998224725' });
    // A CPF typed as a number loses its leading zero in the spreadsheet; it is put back.
    expect(byName.get('Helena Reis')).toMatchObject({ cpfCnpj: '03989453068', birthday: '1979-12-25' });
    expect(byName.get('Ivo Prado')?.number).toBe('5511988880012');
    expect(byName.get('Pessoa Existente')?.email).toBe('novo@exemplo.com');

    const again = await importFile(t.users.admin.token, { name: 'Contatos Março.xlsx', content }, { dateFormat: 'MM/dd/yyyy' });
    expect(again).toMatchObject({ total: 11, created: 0, updated: 0, duplicates: 5, rejected: 6 });
  });

  it('fails a file named .xlsx that is not a spreadsheet', async () => {
    const t = await server.createTenantWithUsers();
    const imp = await importFile(t.users.admin.token, { name: 'contatos.xlsx', content: 'Nome;Número\nAna;11988880001\n' });
    expect(imp.status).toBe('failed');
    expect(imp.failureReason).toBe('O arquivo não é uma planilha XLSX válida.');
  });
});

describe('upload refusals', () => {
  it('refuses other types and oversize files with the spec text, and bad fields naming them', async () => {
    const t = await server.createTenantWithUsers();
    const type = await uploadFile(server, t.users.admin.token, { name: 'contatos.txt', content: 'x' });
    expect(type.status).toBe(415);
    expect(type.body).toMatchObject({
      error: 'ERR_UNSUPPORTED_FILE_TYPE',
      message: 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.',
    });
    const big = await uploadFile(server, t.users.admin.token, {
      name: 'contatos.csv',
      content: new Uint8Array(50 * 1024 * 1024 + 1),
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({
      error: 'ERR_PAYLOAD_TOO_LARGE',
      message: 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.',
    });
    const format = await uploadFile(
      server,
      t.users.admin.token,
      { name: 'contatos.csv', content: HEADER },
      { dateFormat: 'yyyy/dd/MM' },
    );
    expect(format.status).toBe(400);
    expect(format.body.fields.map((f: { path: string }) => f.path)).toEqual(['dateFormat']);
    const noFile = await server.request('POST', '/contacts/upload', { token: t.users.admin.token, body: {} });
    expect([noFile.status, noFile.body.fields[0].path]).toEqual([400, 'file']);
    const otherField = await uploadFile(server, t.users.admin.token, { name: 'contatos.csv', content: HEADER }, {}, 'arquivo');
    expect([otherField.status, otherField.body.fields[0].path]).toEqual([400, 'file']);
    // Nothing refused stays on disk.
    const dir = path.join(server.deps.config.dataDir, 'uploads', String(t.tenant.id), 'contact-imports');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    const rows = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM contact_imports WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('needs a supervisor or admin, a token, and hides other tenants imports', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const byUser = await uploadFile(server, a.users.user.token, {
      name: 'contatos.csv',
      content: `${HEADER}\nAna;11988880001\n`,
    });
    expect([byUser.status, byUser.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    expect((await uploadFile(server, undefined, { name: 'contatos.csv', content: HEADER })).status).toBe(401);

    const res = await uploadFile(server, a.users.admin.token, { name: 'contatos.csv', content: `${HEADER}\nAna;11988880001\n` });
    const done = await waitForImport(server, a.users.admin.token, res.body.importId);
    expect(done.created).toBe(1);
    const theirs = await server.request('GET', `/contacts/upload/${res.body.importId}`, { token: b.users.admin.token });
    expect([theirs.status, theirs.body.error]).toEqual([404, 'ERR_NOT_FOUND']);
    const userRead = await server.request('GET', `/contacts/upload/${res.body.importId}`, { token: a.users.user.token });
    expect([userRead.status, userRead.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const bad = await server.request('GET', `/contacts/upload/123`, { token: a.users.admin.token });
    expect([bad.status, bad.body.fields[0].path]).toEqual([400, 'importId']);
    expect((await server.request('GET', `/contacts/upload/${res.body.importId}`)).status).toBe(401);

    const recent = await server.request('GET', '/contacts/upload', { token: a.users.super.token });
    expect(recent.body.map((i: { id: string }) => i.id)).toEqual([res.body.importId]);
    expect(recent.body[0]).not.toHaveProperty('filePath');
    expect((await server.request('GET', '/contacts/upload', { token: b.users.admin.token })).body).toEqual([]);

    // The uploaded file is removed once the import is done.
    const dir = path.join(server.deps.config.dataDir, 'uploads', String(a.tenant.id), 'contact-imports');
    expect(readdirSync(dir)).toEqual([]);
    // Progress went to the importing user only.
    const events = await server.deps.dataSource.query(
      `SELECT audience, payload FROM domain_events WHERE "tenantId" = $1 AND name = 'contactImport:progress' ORDER BY seq`,
      [a.tenant.id],
    );
    expect(events.at(-1)).toMatchObject({
      audience: { scope: 'user', userId: a.users.admin.id },
      payload: { id: res.body.importId, status: 'done', created: 1 },
    });
  });
});

describe('restart safety', () => {
  it('resumes an import left behind by a dead worker from its last committed batch', async () => {
    const t = await server.createTenantWithUsers();
    const rows = 4500;
    const lines = ['name;number'];
    for (let i = 0; i < rows; i++) lines.push(`Pessoa ${i};119${String(10_000_000 + i).padStart(8, '0')}`);
    const dir = path.join(server.deps.config.dataDir, 'uploads', String(t.tenant.id), 'contact-imports');
    const imports = new ContactImportService(server.deps);
    imports.uploadDir(t.tenant.id);
    const filePath = path.join(dir, 'resume.csv');
    writeFileSync(filePath, lines.join('\n'));

    // The state a worker leaves when it dies after committing the first batch of 2000 rows.
    const committed = 2000;
    await server.deps.dataSource.query(
      `INSERT INTO contacts ("tenantId", name, number)
       SELECT $1, 'Pessoa ' || g, '55119' || lpad((10000000 + g)::text, 8, '0') FROM generate_series(0, $2 - 1) AS g`,
      [t.tenant.id, committed],
    );
    const [row] = await server.deps.dataSource.query(
      `INSERT INTO contact_imports (id, "tenantId", "userId", status, "fileName", "filePath", processed, total, created, attempts, "updatedAt")
       VALUES (gen_random_uuid(), $1, $2, 'processing', 'resume.csv', $3, $4, $4, $4, 1, now() - interval '1 hour') RETURNING id`,
      [t.tenant.id, t.users.admin.id, filePath, committed],
    );

    // The job body itself (what the sweep enqueues); called directly so no other test server's sweep races it.
    await imports.run(row.id);
    const done = await waitForImport(server, t.users.admin.token, row.id);
    expect(done).toMatchObject({
      status: 'done',
      total: rows,
      processed: rows,
      created: rows,
      updated: 0,
      duplicates: 0,
      rejected: 0,
    });
    const count = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM contacts WHERE "tenantId" = $1`, [
      t.tenant.id,
    ]);
    expect(count[0].n).toBe(rows);
  });

  it('requeues imports never picked up, and gives up on a file that keeps failing', async () => {
    const t = await server.createTenantWithUsers();
    const imports = new ContactImportService(server.deps);
    const insert = async (status: string, attempts: number, filePath: string) => {
      const [row] = await server.deps.dataSource.query(
        `INSERT INTO contact_imports (id, "tenantId", "userId", status, "fileName", "filePath", attempts, "updatedAt")
         VALUES (gen_random_uuid(), $1, $2, $3, 'lost.csv', $4, $5, now() - interval '1 hour') RETURNING id`,
        [t.tenant.id, t.users.admin.id, status, filePath, attempts],
      );
      return row.id as string;
    };
    // Lost with its enqueue (process restarted): the sweep finds it; its file is gone, which is said plainly.
    const lost = await insert('queued', 0, path.join(server.deps.config.dataDir, 'missing.csv'));
    expect(await imports.sweep()).toBeGreaterThanOrEqual(1);
    const lostDone = await waitForImport(server, t.users.admin.token, lost);
    expect(lostDone).toMatchObject({ status: 'failed', failureReason: 'O arquivo enviado não foi encontrado no servidor.' });

    const poisoned = await insert('processing', 3, path.join(server.deps.config.dataDir, 'poison.csv'));
    await imports.run(poisoned);
    const gaveUp = await waitForImport(server, t.users.admin.token, poisoned);
    expect(gaveUp).toMatchObject({ status: 'failed', failureReason: 'O arquivo não pôde ser processado após 3 tentativas.' });
  });
});
