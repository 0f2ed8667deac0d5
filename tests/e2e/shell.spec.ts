import { expect, test } from '@playwright/test';
import { ARTIFACTS, hashPath, storageStatePath } from './e2e-support';

test.describe('shell (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });

  test('/ goes to contacts and parent routes redirect to their first child', async ({ page }) => {
    await page.goto('/#/');
    await expect.poll(() => hashPath(page)).toBe('/contatos');
    await page.goto('/#/configuracoes');
    await expect.poll(() => hashPath(page)).toBe('/configuracoes/geral');
    await page.goto('/#/kanban');
    await expect.poll(() => hashPath(page)).toBe('/kanban/kanbans');
    // An id no spec creates (other specs create dozens of tickets in the shared e2e tenant).
    await page.goto('/#/atendimento/987654321?t=1700000000000');
    // The chat route with its t query: an unknown ticket opens the chat with the server's error text.
    await expect(page.getByTestId('attendance-page')).toBeVisible();
    await expect(page.getByTestId('chat-error')).toContainText('Error!');
  });

  test('menu links navigate, and ctrl-click opens the target in a new tab', async ({ page, context }) => {
    await page.goto('/#/home');
    await page.getByTestId('menu-reports').click();
    await expect.poll(() => hashPath(page)).toBe('/relatorios');
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      page.getByTestId('menu-queues').click({ modifiers: ['Control'] }),
    ]);
    await tab.waitForLoadState();
    await expect.poll(() => hashPath(tab)).toBe('/filas');
    expect(hashPath(page)).toBe('/relatorios');
    await page.screenshot({ path: `${ARTIFACTS}/shell-reports.png` });
  });

  test('an unknown path shows not-found and its back button returns', async ({ page }) => {
    await page.goto('/#/contatos');
    await expect(page.getByTestId('page-contatos')).toBeVisible();
    await page.goto('/#/esta-pagina-nao-existe');
    await expect(page.getByTestId('not-found')).toContainText('Página não encontrada');
    await page.screenshot({ path: `${ARTIFACTS}/not-found.png` });
    await page.getByTestId('not-found-back').click();
    await expect.poll(() => hashPath(page)).toBe('/contatos');
  });

  test('the language choice survives a reload', async ({ page }) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('menu-contacts')).toHaveText('Contatos');
    await page.getByTestId('language-select').selectOption('en-us');
    await expect(page.getByTestId('menu-contacts')).toHaveText('Contacts');
    await page.reload();
    await expect(page.getByTestId('menu-contacts')).toHaveText('Contacts');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en-us');
    // A partial locale falls back to English for what it lacks, never to a raw key.
    await page.getByTestId('language-select').selectOption('de');
    await expect(page.getByTestId('menu-contacts')).toHaveText('Kontakte');
    await expect(page.getByTestId('menu-campaigns')).toHaveText('Campaigns');
  });

  test('dark mode is saved to the account and restored', async ({ page }) => {
    await page.goto('/#/home');
    await expect(page.locator('body')).not.toHaveClass(/bp6-dark/);
    const saved = page.waitForResponse((r) => r.url().includes('/configs') && r.request().method() === 'PUT');
    await page.getByTestId('dark-mode-toggle').click();
    expect((await saved).ok()).toBe(true);
    await expect(page.locator('body')).toHaveClass(/bp6-dark/);
    await page.reload();
    await expect(page.locator('body')).toHaveClass(/bp6-dark/);
    await page.screenshot({ path: `${ARTIFACTS}/shell-dark.png` });
    // Back to light, so the stored admin session stays as other specs expect it.
    await page.getByTestId('dark-mode-toggle').click();
    await expect(page.locator('body')).not.toHaveClass(/bp6-dark/);
  });

  test('white-label colours from /publicSystemColors become CSS variables', async ({ page }) => {
    await page.goto('/#/home');
    await expect
      .poll(() => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--primary').trim()))
      .not.toBe('');
    expect(await page.evaluate(() => localStorage.getItem('storedColors'))).toContain('primary');
  });
});
