import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAMPAIGN_IMPORT_MAX_BYTES, CAMPAIGN_IMPORT_MAX_ROWS } from '@shared/schemas/campaigns';
import type { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import type { TestServer } from '../../../../tests/helpers/test-server';
import { createAgent, createContact, createMessagingTenant, multipart, startMessagingServer, type MessagingTenant } from '../messages/messages.test-support';
import { campaignBody } from './campaigns.test-support';

/**
 * POST /campaigns/contacts/{campaignId}/import through the real app: existing contacts linked,
 * unknown numbers created and linked, invalid lines reported; tenancy (404), role (403),
 * malformed files (400, never 500) and the editable-states rule.
 */

let server: TestServer;
let graph: FakeGraphApi;
beforeAll(async () => {
  ({ server, graph } = await startMessagingServer());
}, 120_000);
afterAll(async () => {
  await server?.close();
  await graph?.stop();
});

const ds = () => server.deps.dataSource;

async function createCampaign(t: MessagingTenant): Promise<number> {
  const res = await server.request('POST', '/campaigns', { token: t.users.admin.token, body: campaignBody(t.channelId!) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const csv = (text: string) => ({ name: 'lista.csv', type: 'text/csv', bytes: Buffer.from(text, 'utf8'), field: 'file' });
const upload = (token: string, campaignId: number | string, file: ReturnType<typeof csv>) =>
  multipart(server, 'POST', `/campaigns/contacts/${campaignId}/import`, token, {}, [file]);

async function linked(campaignId: number): Promise<number[]> {
  const rows = await ds().query(`SELECT "contactId" FROM campaign_contacts WHERE "campaignId" = $1 ORDER BY "contactId"`, [campaignId]);
  return rows.map((r: { contactId: number }) => r.contactId);
}

describe('linking contacts to a campaign by import', () => {
  it('a CSV with existing, new, duplicated and invalid numbers', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const suffix = String(Math.floor(Math.random() * 9000) + 1000);
    const existing = await createContact(server, t.tenant.id, { number: `55119876${suffix}0`, name: 'Já existe' });
    // The same number in another tenant is not this tenant's contact: a new one is created here.
    const foreign = await createContact(server, other.tenant.id, { number: `55119876${suffix}1` });
    const id = await createCampaign(t);
    const file = csv(
      [
        'Nome;Número',
        `Outro nome;${existing.number}`,
        'Nova Pessoa;(11) 98765-4321',
        `;${foreign.number}`,
        'Repetido;+55 11 98765-4321',
        'Sem número;',
        'Inválido;12ab',
        '',
      ].join('\n'),
    );
    const res = await upload(t.users.super.token, id, file);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ rows: 6, added: 3, created: 2, duplicates: 1, counts: { contacts: 3 } });
    expect(res.body.invalid).toEqual({
      count: 2,
      lines: [
        { line: 6, reason: 'Número ausente' },
        { line: 7, reason: 'Número inválido: 12ab' },
      ],
    });
    const created = await ds().query(`SELECT id, name, number FROM contacts WHERE "tenantId" = $1 AND id <> ALL($2::int[]) ORDER BY id`, [
      t.tenant.id,
      [existing.id, t.contact.id],
    ]);
    // Created in number order (the lock order), whatever the file's order.
    expect(created.map((c: { name: string; number: string }) => [c.name, c.number]).sort()).toEqual(
      [
        ['Nova Pessoa', '5511987654321'],
        [foreign.number, foreign.number],
      ].sort(),
    );
    expect(await linked(id)).toEqual([existing.id, ...created.map((c: { id: number }) => c.id)].sort((a, b) => a - b));
    // An existing contact keeps its name.
    expect((await ds().query(`SELECT name FROM contacts WHERE id = $1`, [existing.id]))[0].name).toBe('Já existe');
    // The other tenant's contact is untouched and not linked.
    expect((await ds().query(`SELECT count(*)::int AS n FROM campaign_contacts WHERE "contactId" = $1`, [foreign.id]))[0].n).toBe(0);

    // Again: nothing new, nothing twice.
    const again = await upload(t.users.admin.token, id, file);
    expect(again.body).toMatchObject({ added: 0, created: 0, counts: { contacts: 3 } });
  }, 30_000);

  it('an XLSX with a number column only (numbers as numeric cells)', async () => {
    const t = await createMessagingTenant(server, graph);
    const id = await createCampaign(t);
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Contatos');
    sheet.addRow(['telefone']);
    sheet.addRow([5511912345678]);
    sheet.addRow([5511912345679]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const res = await upload(t.users.admin.token, id, {
      name: 'lista.xlsx',
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      bytes,
      field: 'file',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ rows: 2, added: 2, created: 2, invalid: { count: 0, lines: [] } });
  }, 30_000);

  it('another tenant 404, agent 403, malformed files 400, not editable 400', async () => {
    const t = await createMessagingTenant(server, graph);
    const other = await createMessagingTenant(server, graph);
    const id = await createCampaign(t);
    const good = csv('number\n5511912340000\n');
    expect((await upload(other.users.admin.token, id, good)).status).toBe(404);
    expect((await upload(other.users.admin.token, 99999999, good)).status).toBe(404);
    expect((await upload(t.users.user.token, id, good)).status).toBe(403);
    expect((await upload((await createAgent(server, t.tenant.id)).token, id, good)).status).toBe(403);
    expect((await upload(t.users.admin.token, 'abc', good)).status).toBe(400);

    // 400, or 415 / 413 for a file type other than .csv/.xlsx or too large (as the contacts import answers); never a 500.
    const bad: [string, ReturnType<typeof csv>, number?][] = [
      ['no number column', csv('nome;email\nAna;ana@example.com\n')],
      ['empty file', csv('')],
      ['not a spreadsheet', { name: 'lista.xlsx', type: 'application/octet-stream', bytes: Buffer.from('not a zip at all'), field: 'file' }],
      ['a broken zip', { name: 'lista.xlsx', type: 'application/zip', bytes: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(64, 7)]), field: 'file' }],
      ['wrong type', { name: 'lista.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4'), field: 'file' }, 415],
      ['too large', csv(`number\n${'5511912340000\n'.repeat(Math.ceil(CAMPAIGN_IMPORT_MAX_BYTES / 14) + 1)}`), 413],
      ['wrong field', { ...csv('number\n5511912340000\n'), field: 'medias' }],
      ['too many rows', csv(`number\n${Array.from({ length: CAMPAIGN_IMPORT_MAX_ROWS + 1 }, (_, i) => `55119${String(i).padStart(8, '0')}`).join('\n')}\n`)],
    ];
    for (const [what, file, status = 400] of bad) {
      const res = await upload(t.users.admin.token, id, file);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
    }
    // No file at all, and a body that is not multipart.
    expect((await multipart(server, 'POST', `/campaigns/contacts/${id}/import`, t.users.admin.token, { x: '1' })).status).toBe(400);
    const json = await server.request('POST', `/campaigns/contacts/${id}/import`, { token: t.users.admin.token, body: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(await linked(id)).toEqual([]);

    // Only while pending or canceled, as every link.
    await ds().query(`UPDATE campaigns SET status = 'processing' WHERE id = $1`, [id]);
    const running = await upload(t.users.admin.token, id, good);
    expect(running.status).toBe(400);
    expect(running.body.error).toBe('ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING');
    await ds().query(`UPDATE campaigns SET status = 'canceled' WHERE id = $1`, [id]);
    expect((await upload(t.users.admin.token, id, good)).status).toBe(200);
  }, 60_000);
});
