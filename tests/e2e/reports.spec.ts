import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ARTIFACTS, hashPath, loginThroughUi, storageStatePath, toast } from './e2e-support';

/**
 * Reports (`/relatorios`, issue #13) against the real server: the index of reports, a ticket
 * report refused until its queue is chosen (the schema's own messages), then generated with
 * the rows of this spec's tickets, exported to XLSX and CSV and read back; an agent is sent
 * away from every report route.
 */

/** Calls the API as the signed-in user of the page (the token the app stored). */
async function api(page: Page, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  return { status: response.status(), body: response.status() === 204 ? null : await response.json().catch(() => null) };
}

const suffix = () => Math.random().toString(36).slice(2, 8);
/** A mobile number of São Paulo (DDD 11) nobody else uses. */
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/**
 * Opens a report and waits for its form: the screen's code arrives on its first visit, which
 * takes seconds on a loaded machine.
 */
async function openReport(page: Page, id: string) {
  await page.goto(`/#/relatorios/${id}`);
  const screen = page.getByTestId(`page-relatorios-${id}`);
  await expect(screen.getByTestId('report-idle')).toBeVisible({ timeout: 30_000 });
  return screen;
}

const REPORT_LINKS = [
  'estatisticas-atendimentos-usuarios',
  'lista-contatos',
  'contatos-por-etiquetas',
  'contatos-por-estado',
  'contatos-por-kanban',
  'contatos-por-carteira',
  'atendimentos-por-parametros',
];

test.describe('reports (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(90_000);

  const run = suffix();
  const queueName = `Relatórios E2E ${run}`;
  const contactNames = [1, 2, 3].map((n) => `Cliente Relatório ${run} ${n}`);
  const tagName = `Relatório Paginado ${run}`;
  const pagedNames = Array.from({ length: 27 }, (_, i) => `Contato Paginado ${run} ${String(i + 1).padStart(2, '0')}`);
  let channelId: number | null = null;
  let createdChannel = false;

  test.beforeAll(async ({ browser }) => {
    // About sixty calls: slow on a loaded machine.
    test.setTimeout(180_000);
    const context = await browser.newContext({ storageState: storageStatePath('admin') });
    const page = await context.newPage();
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const queue = await api(page, 'POST', '/queue', { name: queueName, color: '#2f9e44' });
    expect(queue.status, JSON.stringify(queue.body)).toBe(201);
    // A channel of this spec, or an existing one when the demo plan's connections are taken.
    const channel = await api(page, 'POST', '/whatsapp', { type: 'baileys', name: `Relatórios ${run}` });
    if (channel.status === 201) {
      channelId = channel.body.id;
      createdChannel = true;
    } else {
      expect(channel.body?.error).toBe('ERR_CONNECTION_LIMIT');
      channelId = (await api(page, 'GET', '/whatsapp/')).body[0].id;
    }
    for (const name of contactNames) {
      const contact = await api(page, 'POST', '/contacts', { name, number: phone() });
      expect(contact.status, JSON.stringify(contact.body)).toBeLessThan(300);
      const ticket = await api(page, 'POST', '/tickets', {
        contactId: contact.body.id,
        whatsappId: channelId,
        queueId: queue.body.id,
        status: 'open',
      });
      expect(ticket.status, JSON.stringify(ticket.body)).toBeLessThan(300);
    }
    // 27 contacts with a tag of their own: two pages of 25.
    const tag = await api(page, 'POST', '/tags', { name: tagName, color: '#9c36b5' });
    expect(tag.status, JSON.stringify(tag.body)).toBe(201);
    for (const name of pagedNames) {
      const contact = await api(page, 'POST', '/contacts', { name, number: phone() });
      expect(contact.status, JSON.stringify(contact.body)).toBeLessThan(300);
      expect((await api(page, 'PUT', `/contact-tags/${contact.body.id}`, { tags: [tag.body.id] })).status).toBeLessThan(300);
    }
    await context.close();
  });

  test.afterAll(async ({ browser }) => {
    if (!createdChannel || channelId === null) return;
    const context = await browser.newContext({ storageState: storageStatePath('admin') });
    const page = await context.newPage();
    await page.goto('/#/home');
    await api(page, 'DELETE', `/whatsapp/${channelId}`);
    await context.close();
  });

  test('the index lists the seven reports and leads to each', async ({ page }) => {
    await page.goto('/#/relatorios');
    await expect(page.getByTestId('page-relatorios')).toBeVisible({ timeout: 30_000 });
    for (const id of REPORT_LINKS) await expect(page.getByTestId(`report-link-${id}`)).toBeVisible();
    await expect(page.getByTestId('report-link-contatos-por-estado')).toContainText('Contatos por estado');
    await page.getByTestId('report-link-contatos-por-estado').click();
    await expect(page.getByTestId('page-relatorios-contatos-por-estado')).toBeVisible({ timeout: 30_000 });
    expect(hashPath(page)).toBe('/relatorios/contatos-por-estado');
    await page.getByTestId('report-back').click();
    await expect(page.getByTestId('page-relatorios')).toBeVisible();
  });

  test('a ticket report: refused without a queue and with a wrong day, then generated and exported', async ({ page }) => {
    const screen = await openReport(page, 'atendimentos-por-parametros');

    // The schema's messages, before anything is asked of the server.
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/reports/')) asked.push(request.url());
    });
    await screen.getByTestId('report-startDate').fill('31/02/2024');
    await screen.getByTestId('report-generate').click();
    await expect(screen.getByTestId('report-queuesIds-error')).toHaveText('Selecione ao menos uma fila');
    await expect(screen.getByTestId('report-startDate-error')).toHaveText('Data inválida');
    await expect(screen.getByTestId('report-form-summary')).toHaveText('Ops! Verifique os erros...');
    expect(asked).toEqual([]);

    // Fixed: today's month from its first day, and this spec's queue.
    const today = new Date();
    const first = `01/${String(today.getMonth() + 1).padStart(2, '0')}/${today.getFullYear()}`;
    await screen.getByTestId('report-startDate').fill(first);
    await expect(screen.getByTestId('report-startDate-error')).toHaveCount(0);
    await screen.getByTestId('report-queuesIds').click();
    await page.getByTestId('report-queuesIds-options').getByText(queueName, { exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(screen.getByTestId('report-queuesIds-error')).toHaveCount(0);
    await expect(screen.getByTestId('report-queuesIds')).toContainText(queueName);

    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/reports/atendimentos-por-parametros');
    await screen.getByTestId('report-generate').click();
    expect((await answered).status()).toBe(200);
    const rows = screen.getByTestId('report-table-row');
    await expect(rows).toHaveCount(3);
    for (const name of contactNames) await expect(rows.filter({ hasText: name })).toHaveCount(1);
    await expect(screen.getByTestId('report-table-range')).toHaveText('1–3 de 3');
    await expect(screen.getByTestId('report-table-next')).toBeDisabled();
    await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
    await page.screenshot({ path: `${ARTIFACTS}/reports-tickets.png`, fullPage: true });

    // XLSX: every matching row, read back with exceljs.
    const xlsxDownload = page.waitForEvent('download');
    await screen.getByTestId('report-export-xlsx').click();
    const xlsx = await xlsxDownload;
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile((await xlsx.path())!);
    const cells = workbook.worksheets.flatMap((sheet) => {
      const texts: string[] = [];
      sheet.eachRow((row) => row.eachCell((cell) => texts.push(String(cell.text))));
      return texts;
    });
    for (const name of contactNames) expect(cells).toContain(name);
    await expect(toast(page).filter({ hasText: 'Relatório exportado' })).toBeVisible();

    // CSV: the same rows as text.
    const csvDownload = page.waitForEvent('download');
    await screen.getByTestId('report-export-csv').click();
    const csv = readFileSync((await (await csvDownload).path())!, 'utf8');
    expect(csv.length).toBeGreaterThan(0);
    for (const name of contactNames) expect(csv).toContain(name);
  });

  test('a contact report: refused without a tag, then paged with the page size chosen, and exported to PDF', async ({ page }) => {
    const screen = await openReport(page, 'contatos-por-etiquetas');
    await screen.getByTestId('report-generate').click();
    await expect(screen.getByTestId('report-tagsIds-error')).toHaveText('Selecione ao menos uma etiqueta');

    await screen.getByTestId('report-tagsIds').click();
    await page.getByTestId('report-tagsIds-options').getByText(tagName, { exact: true }).click();
    await page.keyboard.press('Escape');
    await screen.getByTestId('report-generate').click();
    const rows = screen.getByTestId('report-table-row');
    await expect(screen.getByTestId('report-table-range')).toHaveText('1–27 de 27');
    await expect(rows).toHaveCount(27);
    await expect(screen.getByTestId('report-table-totals')).toBeVisible();

    await screen.getByTestId('report-table-page-size').selectOption('25');
    await expect(screen.getByTestId('report-table-range')).toHaveText('1–25 de 27');
    await expect(rows).toHaveCount(25);
    await expect(screen.getByTestId('report-table-page')).toHaveText('Página 1 de 2');
    await screen.getByTestId('report-table-next').click();
    await expect(screen.getByTestId('report-table-range')).toHaveText('26–27 de 27');
    await expect(rows).toHaveCount(2);
    for (const name of pagedNames.slice(25)) await expect(rows.filter({ hasText: name })).toHaveCount(1);
    await expect(screen.getByTestId('report-table-next')).toBeDisabled();
    await screen.getByTestId('report-table-previous').click();
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toContainText(pagedNames[0]);

    // The PDF holds every row, not only the page shown.
    const download = page.waitForEvent('download');
    await screen.getByTestId('report-export-pdf').click();
    const pdf = readFileSync((await (await download).path())!);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.length).toBeGreaterThan(1000);
  });
});

test.describe('reports (an agent)', () => {
  test('an agent is sent away from every report route with the permission message', async ({ page }) => {
    await loginThroughUi(page, 'user');
    await expect(page.getByTestId('app-menu').getByText('Relatórios', { exact: true })).toHaveCount(0);
    for (const path of ['/relatorios', '/relatorios/atendimentos-por-parametros']) {
      await page.goto(`/#${path}`);
      await expect(toast(page).filter({ hasText: 'Você não tem permissão para acessar esta página.' }).first()).toBeVisible();
      await expect.poll(() => hashPath(page)).toBe('/atendimento');
      await expect(page.getByTestId('page-relatorios')).toHaveCount(0);
    }
  });
});
