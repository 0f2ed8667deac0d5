import { expect, test } from '@playwright/test';
import { JOB_QUEUE_REFRESH_MS } from '@shared/limits';
import { loginThroughUi, storageStatePath } from './e2e-support';

/** The super administrator's platform screens (issue #17): job queues, internal data, update, terminal, tenant API. */
test.describe('platform operations (super administrator)', () => {
  // The stored sessions (sessions.setup.ts) hold no super administrator: each test signs in.
  test.beforeEach(async ({ page }) => {
    await loginThroughUi(page, 'superadmin');
  });

  test('the job-queue board lists the queues and refreshes itself every 10 s', async ({ page }) => {
    await page.goto('/#/tenantsQueue');
    await expect(page.getByTestId('job-queue-row').first()).toBeVisible();
    await expect(page.getByTestId('job-queue-driver')).toHaveText('Em processo (sem Redis)');
    await expect(page.getByTestId('job-queue-restarts-left')).toHaveText('Reinícios restantes: 5');
    const refreshed = page.getByTestId('job-queue-refreshed-at');
    const first = await refreshed.textContent();
    // No click: the screen asks the server again on its own.
    await expect(refreshed).not.toHaveText(first ?? '', { timeout: JOB_QUEUE_REFRESH_MS + 5_000 });

    await page.getByTestId('job-queue-show-failed').first().click();
    await expect(page.getByRole('dialog')).toContainText('Tarefas com falha');
  });

  test('internal data shows the versions and hides the secrets', async ({ page }) => {
    await page.goto('/#/tenantsPk');
    await expect(page.getByTestId('internal-data-app')).toContainText('Node.js');
    await expect(page.getByTestId('internal-data-database')).toContainText('PGlite');
    const jwt = page.getByTestId('internal-data-variable').filter({ hasText: 'JWT_SECRET' });
    await expect(jwt).toContainText('definida (oculta)');
    await expect(page.getByTestId('internal-data-environment')).toContainText('NODE_ENV');
  });

  test('the update refuses a file not named update_rapido.zip, with the message', async ({ page }) => {
    await page.goto('/#/atualizar');
    await page
      .getByTestId('update-file')
      .setInputFiles({ name: 'pacote.zip', mimeType: 'application/zip', buffer: Buffer.from('PK') });
    await page.getByTestId('update-send').click();
    await expect(page.getByTestId('update-error')).toHaveText(
      'Arquivo inválido: o arquivo de atualização deve se chamar update_rapido.zip.',
    );
    // The refusal is recorded in the history.
    await expect(page.getByTestId('update-history-row').first()).toContainText('pacote.zip');
    await expect(page.getByTestId('update-history-row').first()).toContainText('Recusada');
  });

  test('the terminal runs uptime and shows the audit line', async ({ page }) => {
    await page.goto('/#/terminal');
    await page.getByTestId('terminal-run-uptime').click();
    await expect(page.getByTestId('terminal-output')).toContainText('Backend:');
    const line = page.getByTestId('terminal-audit-row').first();
    await expect(line).toContainText('uptime');
    await expect(line).toContainText('Executado');
    await expect(line).toContainText('superadmin@example.com');
  });

  test('tenant API: creates a token shown once, then revokes it', async ({ page }) => {
    await page.goto('/#/tenantApi');
    const name = `E2E ${Date.now()}`;
    await page.getByTestId('tenant-api-add').or(page.getByTestId('tenant-api-add-empty')).first().click();
    const form = page.getByTestId('tenant-api-form');
    await form.getByTestId('field-tenantId').selectOption({ index: 1 });
    await form.getByTestId('field-name').fill(name);
    await form.getByTestId('form-save').click();
    const token = page.getByTestId('tenant-api-created-token');
    await expect(token).toHaveValue(/^atk_/);
    const prefix = (await token.inputValue()).slice(0, 12);
    await page.getByTestId('tenant-api-created-close').click();

    const row = page.getByTestId('tenant-api-row').filter({ hasText: name });
    await expect(row).toContainText(prefix);
    await expect(row).toContainText('Ativo');
    await row.getByTestId('tenant-api-revoke').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revogar' }).click();
    await expect(row).toContainText('Revogado em');
  });
});

test.describe('platform operations (other profiles)', () => {
  test.use({ storageState: storageStatePath('admin') });

  test('a tenant administrator is refused the terminal by the server', async ({ page }) => {
    await page.goto('/#/home');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const res = await page.request.post('/platform/terminal', {
      headers: { authorization: `Bearer ${token}` },
      data: { command: 'uptime' },
    });
    expect(res.status()).toBe(403);
    expect((await res.json()).message).toBe('Usuário não autorizado a acessar o terminal');
  });
});
