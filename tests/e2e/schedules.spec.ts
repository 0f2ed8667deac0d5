import { expect, test, type Page } from '@playwright/test';
import { storageStatePath, toast } from './e2e-support';

/**
 * Scheduled messages (`/agendamentos`, issue #14) against the real server: a message is
 * scheduled for a contact from the screen's dialog (contact search, a variable, the "tomorrow"
 * shortcut, recurrence and repetitions), listed as pending, edited, then canceled from its row
 * after a confirmation, and found under the canceled filter.
 */

/** Calls the API as the signed-in user of the page (the token the app stored). */
async function api(page: Page, method: 'GET' | 'POST' | 'DELETE', url: string, data?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  return { status: response.status(), body: await response.json().catch(() => null) };
}

const run = Math.random().toString(36).slice(2, 8);
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

test.describe('scheduled messages (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(90_000);

  test('a scheduled message is created and canceled from its list', async ({ page }) => {
    const contactName = `Agenda E2E ${run}`;
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const contact = await api(page, 'POST', '/contacts', { name: contactName, number: phone() });
    expect(contact.status, JSON.stringify(contact.body)).toBeLessThan(300);

    // The supervisor menu's item opens the screen (its code arrives on the first visit).
    await page.goto('/#/agendamentos');
    const screen = page.getByTestId('page-agendamentos');
    await expect(screen.getByRole('heading', { name: 'Agendamentos' })).toBeVisible({ timeout: 30_000 });

    await screen.getByTestId('schedule-add').click();
    const dialog = page.getByTestId('schedule-form');
    await expect(dialog).toBeVisible();
    // Saving empty: the schema's messages under the fields and the form's summary.
    await dialog.getByTestId('form-save').click();
    await expect(dialog.getByTestId('schedule-contact-error')).toContainText('Contato é obrigatório');
    await expect(dialog.getByTestId('form-error')).toContainText('Ops! Verifique os erros...');

    await dialog.getByTestId('schedule-contact-search').fill(contactName);
    await dialog.getByTestId('schedule-contact-option').filter({ hasText: contactName }).click();
    await expect(dialog.getByTestId('schedule-contact')).toHaveText(contactName);
    await dialog.getByTestId('schedule-body').fill('Olá ');
    await dialog.getByTestId('variable-firstName').click();
    await expect(dialog.getByTestId('schedule-body')).toHaveValue('Olá {{firstName}}');
    await dialog.getByTestId('schedule-shortcut-tomorrow').click();
    await expect(dialog.getByTestId('schedule-date')).toHaveValue(/T09:00$/);
    await dialog.getByTestId('schedule-recurrence').selectOption('5');
    await dialog.getByTestId('schedule-repetitions').fill('2');
    await dialog.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Agendamento salvo.' })).toBeVisible();
    await expect(dialog).toBeHidden();

    const row = screen.getByTestId('schedules-table-row').filter({ hasText: contactName });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('schedule-row-status')).toHaveText('Pendente');
    await expect(row).toContainText('Olá {{firstName}}');
    await expect(row).toContainText('A cada 5 dias (1 de 2)');
    await expect(row.getByTestId('schedule-row-date')).toContainText('09:00');

    // The contact filter narrows the list to this contact's schedules.
    await screen.getByTestId('schedule-contact-filter-open').click();
    await page.getByTestId('schedule-contact-search').fill(contactName);
    await page.getByTestId('schedule-contact-option').filter({ hasText: contactName }).click();
    await expect(screen.getByTestId('schedule-contact-filter')).toContainText(contactName);
    await expect(screen.getByTestId('schedules-table-row')).toHaveCount(1);
    await page.keyboard.press('Escape');

    // Edit while pending: the dialog opens with the row's values.
    await row.getByTestId('schedule-edit').click();
    await expect(dialog.getByTestId('schedule-contact')).toHaveText(contactName);
    await expect(dialog.getByTestId('schedule-body')).toHaveValue('Olá {{firstName}}');
    await expect(dialog.getByTestId('schedule-recurrence')).toHaveValue('5');
    await dialog.getByTestId('schedule-body').fill('Olá {{firstName}}, até amanhã');
    await dialog.getByTestId('form-save').click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Olá {{firstName}}, até amanhã');

    // Cancel: asked first, then gone from the pending list.
    await row.getByTestId('schedule-cancel').click();
    await expect(page.getByTestId('schedule-cancel-text')).toContainText(contactName);
    await page.locator('.bp6-alert').getByRole('button', { name: 'Cancelar agendamento' }).click();
    await expect(toast(page).filter({ hasText: 'Agendamento cancelado.' })).toBeVisible();
    await expect(screen.getByTestId('schedules-table-row').filter({ hasText: contactName })).toHaveCount(0);

    await screen.getByTestId('schedule-status-filter').selectOption('canceled');
    const canceled = screen.getByTestId('schedules-table-row').filter({ hasText: contactName });
    await expect(canceled.getByTestId('schedule-row-status')).toHaveText('Cancelado');
    await expect(canceled.getByTestId('schedule-cancel')).toHaveCount(0);
    const listed = await api(page, 'GET', `/scheduleMessages/?status=canceled&contactId=${contact.body.id}`);
    expect(listed.body.messages).toHaveLength(1);
    expect(listed.body.messages[0]).toMatchObject({ status: 'canceled', schedule: { recurrenceDays: 5, repetitions: 2 } });
  });
});
