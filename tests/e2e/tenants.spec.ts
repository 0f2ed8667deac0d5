import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { api, completeCaptchaWithKeyboard, fillCredentials, hashPath, loginThroughUi, toast } from './e2e-support';

/** The platform super administrator's /tenants and /planos (issue #17). */
test.use({ storageState: { cookies: [], origins: [] } });
test.beforeEach(async ({ page }) => loginThroughUi(page, 'superadmin'));

const tag = () => randomBytes(3).toString('hex');

test('/tenants: creates a tenant whose admin logs in; deactivating it sends that admin\'s open page to login with the message', async ({ page, browser }) => {
  const plan = await api(page, 'POST', '/plans', { name: `Plano E2E ${tag()}`, value: 59.9, maxUsers: 3, maxConnections: 1, trial: true, trialDays: 10 });
  const name = `Empresa E2E ${tag()}`;
  const email = `admin-${tag()}@e2e.example.com`;
  const password = 'Segura#2024';

  await page.goto('/#/tenants');
  await page.getByTestId('tenant-add').first().click();
  const form = page.getByTestId('tenant-form');
  await form.getByTestId('field-name').fill(name);
  await form.getByTestId('field-planId').selectOption(String(plan.id));
  await form.getByTestId('field-trial').check({ force: true });
  await form.getByTestId('field-trialDays').fill('10');
  await form.getByTestId('field-adminName').fill('Admin E2E');
  await form.getByTestId('field-adminEmail').fill(email);
  await form.getByTestId('field-adminPassword').fill(password);
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(form).toBeHidden();
  const row = page.locator(`[data-testid="tenant-row"][data-tenant-name="${name}"]`);
  await expect(row).toContainText(plan.name);
  await expect(row).toContainText('1/3');
  await expect(row).toContainText('Até');

  // The new tenant's admin signs in in another browser.
  const other = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const adminPage = await other.newPage();
  await adminPage.goto('/#/login');
  await fillCredentials(adminPage, email, password);
  await completeCaptchaWithKeyboard(adminPage);
  await adminPage.getByTestId('login-submit').click();
  await expect(adminPage.getByTestId('app-menu')).toBeVisible();

  // Deactivated: that admin's open page is told and sent to login.
  await row.getByTestId('row-status').click();
  await page.locator('.bp6-alert').getByRole('button', { name: 'Desativar', exact: true }).click();
  await expect(row.getByTestId('tenant-status')).toHaveText('Inativo');
  await expect(adminPage.locator('.bp6-toast', { hasText: 'Sua empresa está inativa!' })).toBeVisible();
  await expect.poll(() => hashPath(adminPage), { timeout: 10_000 }).toBe('/login');
  await other.close();

  // Reactivated, then deleted: the deletion runs in the background and the row goes away.
  await row.getByTestId('row-status').click();
  await page.locator('.bp6-alert').getByRole('button', { name: 'Ativar', exact: true }).click();
  await expect(row.getByTestId('tenant-status')).toHaveText('Ativo');
  await row.getByTestId('row-delete').click();
  await page.locator('.bp6-alert').getByRole('button', { name: 'Excluir', exact: true }).click();
  await expect(toast(page).filter({ hasText: 'Exclusão iniciada.' })).toBeVisible();
  await expect(row).toBeHidden({ timeout: 15_000 });
});

test('/planos: creates, edits and deletes a plan', async ({ page }) => {
  const name = `Plano UI ${tag()}`;
  await page.goto('/#/planos');
  await page.getByTestId('plan-add').first().click();
  const form = page.getByTestId('plan-form');
  await form.getByTestId('field-name').fill(name);
  await form.getByTestId('field-value').fill('abc');
  await form.getByTestId('field-maxUsers').fill('0');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(form.getByTestId('form-summary')).toContainText('Ops! Verifique os erros...');
  await form.getByTestId('field-value').fill('129.90');
  await form.getByTestId('field-maxUsers').fill('8');
  await form.getByTestId('field-maxConnections').fill('2');
  await form.getByRole('button', { name: 'Salvar' }).click();
  await expect(form).toBeHidden();
  const row = page.locator(`[data-testid="plan-row"][data-plan-name="${name}"]`);
  await expect(row).toContainText('R$ 129,90');
  await expect(row).toContainText('8');

  await row.getByTestId('row-edit').click();
  await page.getByTestId('plan-form').getByTestId('field-maxUsers').fill('12');
  await page.getByTestId('plan-form').getByRole('button', { name: 'Salvar' }).click();
  await expect(row.locator('td').nth(2)).toHaveText('12');
  const publicPlans = await api(page, 'GET', '/plans/listpublic');
  expect(publicPlans.some((p: { name: string }) => p.name === name)).toBe(true);

  await row.getByTestId('row-delete').click();
  await page.locator('.bp6-alert').getByRole('button', { name: 'Excluir', exact: true }).click();
  await expect(row).toBeHidden();
});
