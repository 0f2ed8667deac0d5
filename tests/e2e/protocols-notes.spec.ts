import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, hashPath, loginThroughUi, storageStatePath, toast } from './e2e-support';

/**
 * Protocols and notes (`/protocolos`, `/notas`, issue #14 item 9) against the real server: this
 * spec's tickets and notes are created through the API; each screen lists them, refuses a wrong
 * day with the schema's message before asking the server, filters by search and period, and its
 * row leads to the ticket's chat. An agent is sent away from both routes.
 */

/** Calls the API as the signed-in user of the page (the token the app stored). */
async function api(page: Page, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  return { status: response.status(), body: response.status() === 204 ? null : await response.json().catch(() => null) };
}

const suffix = () => Math.random().toString(36).slice(2, 8);
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
/** dd/MM/yyyy of an instant in the tenant's zone (the demo tenant's default, São Paulo), as the server counts days. */
const day = (date: Date) =>
  new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', day: '2-digit', month: '2-digit', year: 'numeric' }).format(date);

interface SeededTicket {
  id: number;
  protocol: string;
  contactName: string;
  note: string;
}

test.describe('protocols and notes (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(90_000);

  const run = suffix();
  const seeded: SeededTicket[] = [];
  let channelId: number | null = null;
  let createdChannel = false;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ storageState: storageStatePath('admin') });
    const page = await context.newPage();
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    // A channel of this spec, or an existing one when the demo plan's connections are taken.
    const channel = await api(page, 'POST', '/whatsapp', { type: 'baileys', name: `Protocolos ${run}` });
    if (channel.status === 201) {
      channelId = channel.body.id;
      createdChannel = true;
    } else {
      expect(channel.body?.error).toBe('ERR_CONNECTION_LIMIT');
      channelId = (await api(page, 'GET', '/whatsapp/')).body[0].id;
    }
    for (const n of [1, 2]) {
      const contactName = `Cliente Protocolo ${run} ${n}`;
      const contact = await api(page, 'POST', '/contacts', { name: contactName, number: phone() });
      expect(contact.status, JSON.stringify(contact.body)).toBeLessThan(300);
      const ticket = await api(page, 'POST', '/tickets', { contactId: contact.body.id, whatsappId: channelId, status: 'open' });
      expect(ticket.status, JSON.stringify(ticket.body)).toBeLessThan(300);
      expect(ticket.body.protocol).toBeTruthy();
      const note = `Anotação ${run} número ${n}: cliente pediu retorno`;
      const created = await api(page, 'POST', `/tickets/${ticket.body.id}/notes`, { note });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      seeded.push({ id: ticket.body.id, protocol: ticket.body.protocol, contactName, note });
    }
    await context.close();
  });

  test.afterAll(async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStatePath('admin') });
    const page = await context.newPage();
    await page.goto('/#/home');
    // The tickets are closed so a later run can open new ones for other contacts undisturbed.
    for (const ticket of seeded) await api(page, 'PUT', `/ticketsForce/${ticket.id}`, { status: 'closed' });
    if (createdChannel && channelId !== null) await api(page, 'DELETE', `/whatsapp/${channelId}`);
    await context.close();
  });

  test('the protocols screen lists, filters and leads to the ticket', async ({ page }) => {
    await page.goto('/#/protocolos');
    const screen = page.getByTestId('page-protocolos');
    await expect(screen).toBeVisible({ timeout: 30_000 });
    // It opens on this month: this spec's tickets are there.
    const table = screen.getByTestId('records-table');
    await expect(table.getByText(seeded[0].protocol, { exact: true })).toBeVisible({ timeout: 15_000 });

    // A day that does not exist: the schema's message, and nothing asked of the server.
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/protocol') asked.push(request.url());
    });
    await screen.getByTestId('records-startDate').fill('31/02/2025');
    await screen.getByTestId('records-submit').click();
    await expect(screen.getByTestId('records-startDate-error')).toHaveText('Data inválida');
    await expect(screen.getByTestId('records-form-summary')).toHaveText('Ops! Verifique os erros...');
    expect(asked).toEqual([]);

    // Today's period and the second contact's name: exactly its protocol.
    const today = day(new Date());
    await screen.getByTestId('records-startDate').fill(today);
    await screen.getByTestId('records-endDate').fill(today);
    await screen.getByTestId('records-search').fill(`cliente protocolo ${run} 2`);
    await screen.getByTestId('records-submit').click();
    await expect(table.getByTestId('records-table-row')).toHaveCount(1);
    const row = table.getByTestId('records-table-row');
    await expect(row).toContainText(seeded[1].protocol);
    await expect(row).toContainText(seeded[1].contactName);
    await expect(row).toContainText('Aberto');
    await expect(screen.getByTestId('records-count')).toHaveText('1 registro');
    await page.screenshot({ path: `${ARTIFACTS}/protocols-filtered.png` });
    expect(asked.some((url) => url.includes(`search=`) && url.includes('startDate='))).toBe(true);

    // Yesterday only: nothing.
    const yesterday = new Date(Date.now() - 86_400_000);
    await screen.getByTestId('records-startDate').fill(day(yesterday));
    await screen.getByTestId('records-endDate').fill(day(yesterday));
    await screen.getByTestId('records-submit').click();
    await expect(screen.getByTestId('records-table-empty')).toBeVisible();

    // Back to today, then the protocol leads to the ticket's chat.
    await screen.getByTestId('records-startDate').fill(today);
    await screen.getByTestId('records-endDate').fill(today);
    await screen.getByTestId('records-submit').click();
    await expect(table.getByTestId('records-table-row')).toHaveCount(1);
    await table.getByTestId('record-ticket-link').filter({ hasText: seeded[1].protocol }).click();
    await expect.poll(() => hashPath(page)).toBe(`/atendimento/${seeded[1].id}`);
    await expect(page.getByTestId('chat-contact-name')).toHaveText(seeded[1].contactName, { timeout: 15_000 });
  });

  test('the notes screen lists, searches the text and leads to the ticket', async ({ page }) => {
    await page.goto('/#/notas');
    const screen = page.getByTestId('page-notas');
    await expect(screen).toBeVisible({ timeout: 30_000 });
    const table = screen.getByTestId('records-table');
    await expect(table.getByText(seeded[0].note, { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(table.getByText(seeded[1].note, { exact: true })).toBeVisible();

    // Live: a note written meanwhile (from the chat, here through the API) joins the open list.
    const live = `Anotação ${run} escrita com a lista aberta`;
    const added = await api(page, 'POST', `/tickets/${seeded[1].id}/notes`, { note: live });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    await expect(table.getByText(live, { exact: true })).toBeVisible({ timeout: 15_000 });

    // The note's text, without its accents and in capitals.
    await screen.getByTestId('records-search').fill(`ANOTACAO ${run} NUMERO 1`);
    await screen.getByTestId('records-submit').click();
    await expect(table.getByTestId('records-table-row')).toHaveCount(1);
    const row = table.getByTestId('records-table-row');
    await expect(row).toContainText(seeded[0].note);
    await expect(row).toContainText(seeded[0].protocol);
    await expect(row).toContainText(seeded[0].contactName);
    await page.screenshot({ path: `${ARTIFACTS}/notes-searched.png` });

    // An end before the start: the schema's message under the end date.
    await screen.getByTestId('records-startDate').fill('10/03/2025');
    await screen.getByTestId('records-endDate').fill('09/03/2025');
    await screen.getByTestId('records-submit').click();
    await expect(screen.getByTestId('records-endDate-error')).toHaveText('A data final deve ser igual ou posterior à data inicial');

    // Open dates: the whole history, still the one note.
    await screen.getByTestId('records-startDate').fill('');
    await screen.getByTestId('records-endDate').fill('');
    await screen.getByTestId('records-submit').click();
    await expect(screen.getByTestId('records-endDate-error')).toHaveCount(0);
    await expect(table.getByTestId('records-table-row')).toHaveCount(1);

    await row.getByTestId('record-ticket-link').first().click();
    await expect.poll(() => hashPath(page)).toBe(`/atendimento/${seeded[0].id}`);
    await expect(page.getByTestId('chat-contact-name')).toHaveText(seeded[0].contactName, { timeout: 15_000 });
  });
});

test.describe('protocols and notes (an agent)', () => {
  test('an agent is sent away from both routes with the permission message', async ({ page }) => {
    await loginThroughUi(page, 'user');
    await expect(page.getByTestId('app-menu').getByText('Protocolos', { exact: true })).toHaveCount(0);
    for (const path of ['/protocolos', '/notas']) {
      await page.goto(`/#${path}`);
      await expect(toast(page).filter({ hasText: 'Você não tem permissão para acessar esta página.' }).first()).toBeVisible();
      await expect.poll(() => hashPath(page)).toBe('/atendimento');
    }
  });
});
