import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, storageStatePath, toast } from './e2e-support';

/**
 * A queue's own business hours (issue #14 item 4), edited in the queue dialog with the same week
 * table as /horario-atendimento; switching them off gives the queue back to the tenant's hours.
 */

async function api(page: Page, url: string) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.get(url, { headers: { authorization: `Bearer ${token}` } });
  return response.json();
}

test.describe('queue business hours (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });

  test('sets a queue week in its dialog, refuses a wrong period, and clears it', async ({ page }) => {
    const name = `Plantão E2E ${Date.now().toString(36)}`;
    await page.goto('/#/filas');
    await page.getByTestId('queue-add').click();
    const form = page.getByTestId('queue-form');
    await form.getByLabel('Nome').fill(name);
    await form.getByText('Horário próprio da fila').click();
    await expect(form.getByTestId('business-hours-table')).toBeVisible();
    await form.getByTestId('day-0-type').selectOption('O');
    await form.getByTestId('day-1-hr1').fill('13:00');
    await form.getByTestId('form-save').click();
    // Monday's first period now ends before it starts: marked on the field, nothing saved.
    await expect(form.getByTestId('day-1-error').first()).toBeVisible();
    await form.getByTestId('day-1-hr1').fill('07:00');
    await page.screenshot({ path: `${ARTIFACTS}/queue-hours-dialog.png` });
    await form.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Fila salva.' })).toBeVisible();

    const saved = (
      (await api(page, '/queue')) as {
        name: string;
        id: number;
        businessHours: { day: number; type: string; hr1: string }[] | null;
      }[]
    ).find((q) => q.name === name)!;
    expect(saved.businessHours?.[0].type).toBe('O');
    expect(saved.businessHours?.[1]).toMatchObject({ type: 'H', hr1: '07:00' });

    // Edit: the switch is on with the saved week; off gives the queue back to the tenant hours.
    await page.getByTestId('queue-row').filter({ hasText: name }).getByTestId('row-edit').click();
    await expect(form.getByTestId('day-0-type')).toHaveValue('O');
    await form.getByText('Horário próprio da fila').click();
    await expect(form.getByTestId('business-hours-table')).toHaveCount(0);
    await form.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Fila salva.' }).first()).toBeVisible();
    await expect
      .poll(
        async () =>
          ((await api(page, '/queue')) as { name: string; businessHours: unknown }[]).find((q) => q.name === name)?.businessHours,
      )
      .toBeNull();
  });
});
