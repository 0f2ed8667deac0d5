import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { deliverWebhook, FakeGraphApi, inboundPayload } from '../fakes/graph-api.fake';
import { ACCOUNTS, startFakeGraphOnFixedPort, storageStatePath, wabaSettingsFor } from './e2e-support';

/**
 * The agent console's list filters, contact panel, transfers and new-ticket dialog against the
 * real server (a ticket arrives through the fake WhatsApp Cloud API). Every contact, ticket,
 * tag and channel used here is created by this spec; the admin's saved filters are reset after
 * each test so other specs see the default list.
 */

const SHOTS = 'test-results/screenshots';
const suffix = () => randomBytes(3).toString('hex');
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** The fake on the fixed port the server was started with. */

async function call(page: Page, method: string, path: string, body?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(path, { method, headers: { authorization: `Bearer ${token}` }, data: body });
  return { status: response.status(), body: response.status() === 204 ? null : await response.json().catch(() => null) };
}

async function api(page: Page, method: string, path: string, body?: unknown) {
  const answer = await call(page, method, path, body);
  expect(answer.status < 300, `${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`).toBe(true);
  return answer.body;
}

async function userIdOf(page: Page, email: string): Promise<number> {
  const { users } = await api(page, 'GET', `/users?searchParam=${encodeURIComponent(email)}`);
  return users.find((u: { email: string }) => u.email === email).id;
}

test.describe('agent console panel (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(120_000);
  let fake: FakeGraphApi;
  let channel: { id: number; name: string } | undefined;
  let appSecret: string;

  test.beforeAll(async () => {
    fake = await startFakeGraphOnFixedPort();
  });
  test.afterAll(async () => {
    await fake?.stop();
  });

  test.beforeEach(async ({ page }) => {
    await page.goto('/#/atendimento');
    await expect(page.getByTestId('attendance-page')).toBeVisible();
    if (channel) return;
    // One channel for the whole spec (the demo plan allows 3 connections for every spec together).
    appSecret = `app-secret-${randomBytes(8).toString('hex')}`;
    const settings = {
      ...wabaSettingsFor(fake, appSecret),
    };
    const created = await call(page, 'POST', '/whatsapp', { type: 'waba', name: `WABA Painel ${suffix()}`, ...settings });
    if (created.status === 201) channel = created.body;
    else {
      // The tenant's connections are used up by earlier specs (which are done): take a waba
      // channel over with this spec's secrets.
      expect(created.body?.error).toBe('ERR_CONNECTION_LIMIT');
      const channels: { id: number; type: string }[] = await api(page, 'GET', '/whatsapp/');
      const reused = channels.find((c) => c.type === 'waba')!;
      channel = await api(page, 'PUT', `/whatsapp/${reused.id}`, settings);
    }
  });

  test.afterEach(async ({ page }) => {
    // The admin's filters are saved on the server: leave the defaults for the other specs.
    const adminId = await userIdOf(page, ACCOUNTS.admin);
    await api(page, 'PUT', `/users/${adminId}/configs`, {
      filtrosAtendimento: {
        queuesIds: [],
        whatsappIds: [],
        selectedUser: null,
        tags: [],
        kanbanIds: [],
        showAll: false,
        withUnreadMessages: false,
        isNotAssignedUser: false,
        includeNotQueueDefined: true,
      },
    });
    await page.evaluate(() => localStorage.removeItem('filtrosAtendimento'));
  });

  const newContact = async (page: Page, name: string) => api(page, 'POST', '/contacts', { name, number: phone() });
  const newTicket = async (page: Page, contactId: number, extra: Record<string, unknown> = {}) =>
    api(page, 'POST', '/tickets', { contactId, whatsappId: channel!.id, ...extra });

  test('filters narrow the list and survive a reload; the list screenshot', async ({ page }) => {
    const tag = await api(page, 'POST', '/tags', { name: `Filtro E2E ${suffix()}`, color: '#2d72d2' });
    const tagged = await newContact(page, `Cliente Filtro Marcado ${suffix()}`);
    const plain = await newContact(page, `Cliente Filtro Simples ${suffix()}`);
    await api(page, 'PUT', `/contact-tags/${tagged.id}`, { tags: [tag.id] });
    await newTicket(page, tagged.id, { status: 'pending', userId: null });
    await newTicket(page, plain.id, { status: 'pending', userId: null });

    await page.reload();
    const taggedRow = page.getByTestId('ticket-row').filter({ hasText: tagged.name });
    const plainRow = page.getByTestId('ticket-row').filter({ hasText: plain.name });
    await page.getByTestId('ticket-search').fill('Cliente Filtro');
    await expect(taggedRow).toBeVisible({ timeout: 15_000 });
    await expect(plainRow).toBeVisible();

    // Tag filter: only the tagged contact's ticket stays.
    await page.getByTestId('queue-filter').click();
    await page.getByTestId('filter-tags').getByText(tag.name).click();
    await expect(plainRow).toHaveCount(0);
    await expect(taggedRow).toBeVisible();
    await expect(page.getByTestId('queue-filter')).toHaveAttribute('data-active-filters', '1');
    await page.keyboard.press('Escape');

    // Saved per user (filtrosAtendimento): still applied after a reload.
    await expect
      .poll(async () => (await api(page, 'GET', `/users/${await userIdOf(page, ACCOUNTS.admin)}`)).configs.filtrosAtendimento.tags)
      .toEqual([tag.id]);
    await page.reload();
    await page.getByTestId('ticket-search').fill('Cliente Filtro');
    await expect(taggedRow).toBeVisible({ timeout: 15_000 });
    await expect(plainRow).toHaveCount(0);
    await expect(page.getByTestId('queue-filter')).toHaveAttribute('data-active-filters', '1');

    // A second filter: this connection and only unassigned tickets still list the tagged one.
    await page.getByTestId('queue-filter').click();
    await page.getByTestId('filter-connections').getByText(channel!.name).click();
    await page.getByTestId('queue-filter-menu').getByText('Somente sem usuário').click();
    await expect(page.getByTestId('queue-filter')).toHaveAttribute('data-active-filters', '3');
    await page.keyboard.press('Escape');
    await expect(taggedRow).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/console-list-filtered.png` });

    // Cleared: both again.
    await page.getByTestId('queue-filter').click();
    await page.getByTestId('filter-clear').click();
    await page.keyboard.press('Escape');
    await expect(plainRow).toBeVisible();
    await expect(taggedRow).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/console-list.png` });
  });

  test('contact panel: details edited inline, notes, rating and protocol; chat and panel screenshots', async ({ page, baseURL }) => {
    const name = `Cliente Painel ${suffix()}`;
    const from = phone();
    const inbound = await deliverWebhook(
      `${baseURL}/webhooks/waba/${channel!.id}`,
      inboundPayload(fake.phoneNumberId, [{ from, name, message: { type: 'text', text: { body: 'Quero falar sobre minha fatura' } } }]),
      appSecret,
    );
    expect(inbound.status).toBe(200);

    await page.getByTestId('ticket-search').fill(name);
    const row = page.getByTestId('ticket-row').filter({ hasText: name });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await row.click();
    await expect(page.getByTestId('chat-contact-name')).toHaveText(name);
    // A pending ticket opened in focus is listed as open.
    await expect(row.getByTestId('ticket-row-status')).toHaveText('Aberto');
    await expect(row).toHaveAttribute('data-status', 'pending');

    const panel = page.getByTestId('contact-panel');
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('panel-contact-name')).toHaveText(name);
    const ticketId = Number(new URL(page.url()).hash.split('/').pop());
    const detail = await api(page, 'GET', `/tickets/${ticketId}`);
    await expect(panel.getByTestId('panel-protocol')).toHaveText(String(detail.protocol ?? detail.id));
    await expect(panel.getByTestId('log-item').first()).toBeVisible();

    // Inline edit of one field.
    await panel.getByTestId('panel-value-email').click();
    await panel.getByTestId('panel-input-email').fill('cliente.painel@example.com');
    await panel.getByTestId('panel-input-email').press('Enter');
    await expect(panel.getByTestId('panel-value-email')).toHaveText('cliente.painel@example.com');
    const contact = await api(page, 'GET', `/contacts/${detail.contactId}`);
    expect(contact.email).toBe('cliente.painel@example.com');
    // A refused value shows the server's reason and changes nothing.
    await panel.getByTestId('panel-value-cpfCnpj').click();
    await panel.getByTestId('panel-input-cpfCnpj').fill('123.456.789-00');
    await panel.getByTestId('panel-input-cpfCnpj').press('Enter');
    await expect(panel.getByTestId('panel-error-cpfCnpj')).toBeVisible();
    await panel.getByTestId('panel-input-cpfCnpj').press('Escape');

    // Notes.
    const note = `Cliente pediu segunda via ${suffix()}`;
    await panel.getByTestId('note-input').fill(note);
    await panel.getByTestId('note-add').click();
    await expect(panel.getByTestId('note-item').filter({ hasText: note })).toBeVisible();
    await expect(panel.getByTestId('note-input')).toHaveValue('');

    // Rating with the labels of spec section 9.
    await expect(panel.getByTestId('panel-rating-none')).toBeVisible();
    await panel.getByTestId('rating-option-4').click();
    await expect(panel.getByTestId('panel-rating-value')).toContainText('4 · Excelente');
    await expect(panel.getByTestId('log-item').filter({ hasText: 'Avaliado' })).toBeVisible();

    // After a reload everything is read back from the server.
    await page.reload();
    await expect(panel.getByTestId('note-item').filter({ hasText: note })).toBeVisible({ timeout: 15_000 });
    await expect(panel.getByTestId('panel-rating-value')).toContainText('Excelente');
    await expect(page.getByTestId('message').filter({ hasText: 'minha fatura' })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/console-chat.png` });
    await panel.screenshot({ path: `${SHOTS}/console-contact-panel.png` });
  });

  test('transfer to a user, refused when it already belongs to them', async ({ page }) => {
    const contact = await newContact(page, `Cliente Transferência ${suffix()}`);
    const ticket = await newTicket(page, contact.id);
    const agentId = await userIdOf(page, ACCOUNTS.user);
    await page.goto(`/#/atendimento/${ticket.id}`);
    await expect(page.getByTestId('chat-contact-name')).toHaveText(contact.name);

    // Blueprint's Dialog drops data-testid: the dialog is found by its role and title.
    const transferDialog = page.getByRole('dialog', { name: 'Transferir atendimento', exact: true });
    await page.getByTestId('ticket-transfer').click();
    await expect(transferDialog).toBeVisible();
    await page.getByTestId('transfer-tab-user').click();
    await page.getByTestId('transfer-user').locator(`[data-user-id="${agentId}"]`).click();
    await page.getByTestId('transfer-submit').click();
    await expect(transferDialog).toHaveCount(0);
    await expect.poll(async () => (await api(page, 'GET', `/tickets/${ticket.id}`)).userId).toBe(agentId);

    await page.getByTestId('ticket-transfer').click();
    await page.getByTestId('transfer-tab-user').click();
    await page.getByTestId('transfer-user').locator(`[data-user-id="${agentId}"]`).click();
    await page.getByTestId('transfer-submit').click();
    await expect(page.getByTestId('transfer-error')).toHaveText('Ticket já pertence ao usuário selecionado.');
    await page.screenshot({ path: `${SHOTS}/console-transfer-user-refused.png` });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('panel-logs').getByTestId('log-item').filter({ hasText: /Transferido|Atribuído/ }).first()).toBeVisible();
  });

  test('new ticket dialog: ERR_OTHER_OPEN_TICKET opens the existing ticket, or an admin takes it over', async ({ page }) => {
    const contact = await newContact(page, `Cliente Novo Ticket ${suffix()}`);
    const existing = await newTicket(page, contact.id, { status: 'pending', userId: null });

    const tryCreate = async () => {
      await page.getByTestId('new-ticket-open').click();
      await page.getByTestId('new-ticket-contact-search').fill(contact.name);
      await page.getByTestId('new-ticket-contact-option').filter({ hasText: contact.name }).click();
      await page.getByTestId('new-ticket-channel').selectOption(String(channel!.id));
      await page.getByTestId('new-ticket-submit').click();
      await expect(page.getByTestId('new-ticket-error')).toContainText('Já existe um ticket aberto/pendente para esse contato.');
    };

    const newTicketDialog = page.getByRole('dialog', { name: 'Novo atendimento', exact: true });
    await tryCreate();
    await expect(newTicketDialog).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/console-new-ticket-existing.png` });
    await page.getByTestId('new-ticket-open-existing').click();
    await expect(newTicketDialog).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`#/atendimento/${existing.id}$`));
    await expect(page.getByTestId('chat-contact-name')).toHaveText(contact.name);
    await expect(page.getByTestId('chat-status')).toHaveText('Pendente');

    await tryCreate();
    await page.getByTestId('new-ticket-assign-existing').click();
    await expect(newTicketDialog).toHaveCount(0);
    await expect(page.getByTestId('chat-status')).toHaveText('Aberto');
    const adminId = await userIdOf(page, ACCOUNTS.admin);
    expect((await api(page, 'GET', `/tickets/${existing.id}`)).userId).toBe(adminId);

    // A contact without an ongoing ticket gets a new one, opened at once.
    const fresh = await newContact(page, `Cliente Sem Ticket ${suffix()}`);
    await page.getByTestId('new-ticket-open').click();
    await page.getByTestId('new-ticket-contact-search').fill(fresh.name);
    await page.getByTestId('new-ticket-contact-option').filter({ hasText: fresh.name }).click();
    await page.getByTestId('new-ticket-channel').selectOption(String(channel!.id));
    await page.getByTestId('new-ticket-submit').click();
    await expect(page.getByTestId('chat-contact-name')).toHaveText(fresh.name);
  });

  test('search modal opens the chosen ticket; mass resolve in blocks with progress', async ({ page }) => {
    const marker = `Lote ${suffix()}`;
    const tag = await api(page, 'POST', '/tags', { name: `Massa E2E ${suffix()}`, color: '#238551' });
    const tickets: { id: number }[] = [];
    for (let i = 0; i < 3; i += 1) {
      const contact = await newContact(page, `Cliente ${marker} ${i}`);
      await api(page, 'PUT', `/contact-tags/${contact.id}`, { tags: [tag.id] });
      tickets.push(await newTicket(page, contact.id));
    }

    await page.getByTestId('ticket-search-open').click();
    await page.getByTestId('ticket-search-input').fill(`Cliente ${marker} 1`);
    const hit = page.getByTestId('ticket-search-result').filter({ hasText: `Cliente ${marker} 1` });
    await expect(hit).toBeVisible({ timeout: 15_000 });
    await hit.click();
    await expect(page.getByTestId('chat-contact-name')).toHaveText(`Cliente ${marker} 1`);

    await page.getByTestId('queue-filter').click();
    await page.getByTestId('filter-tags').getByText(tag.name).click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('ticket-row')).toHaveCount(3, { timeout: 15_000 });
    await page.getByTestId('mass-mode').click();
    await page.getByTestId('mass-select-all').click();
    await expect(page.getByTestId('mass-selected')).toHaveText('3 selecionados');
    await page.getByTestId('mass-resolve').click();
    await page.getByTestId('mass-resolve-submit').click();
    await expect(page.getByTestId('mass-progress')).toHaveAttribute('data-done', '3', { timeout: 15_000 });
    await expect(page.getByTestId('mass-progress')).toHaveAttribute('data-failed', '0');
    await page.getByTestId('mass-close').click();
    await expect(page.getByTestId('ticket-row')).toHaveCount(0, { timeout: 15_000 });
    for (const ticket of tickets) expect((await api(page, 'GET', `/tickets/${ticket.id}`)).status).toBe('closed');
  });
});
