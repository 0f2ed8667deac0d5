import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, loginThroughUi, storageStatePath } from './e2e-support';

/** A 2x2 PNG of one solid colour (#ff6600), made here so the spec needs no fixture file. */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4n8YARAwQCgArFgWVjjyH6QAAAABJRU5ErkJggg==',
  'base64',
);
const NEW_PRIMARY = '#c2185b';

async function superadminPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await loginThroughUi(page, 'superadmin');
  return page;
}

const cssVariable = (page: Page, name: string) =>
  page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);

test.describe('white-label (/customizar)', () => {
  test('name, colour and logo set by the super administrator apply on the next load of the login page and of a tenant shell, without a rebuild', async ({ browser }) => {
    const superadmin = await superadminPage(browser);
    const originalColors = await api(superadmin, 'GET', '/tenants/systemColors/');
    const appName = `Marca ${Date.now().toString(36)}`;
    try {
      await superadmin.goto('/#/customizar');
      await expect(superadmin.getByTestId('customize-page')).toBeVisible();
      await superadmin.getByTestId('white-label-app-name').fill(appName);
      await expect(superadmin.getByTestId('white-label-preview-name')).toHaveText(appName);
      await superadmin.getByTestId('white-label-color-primary').fill(NEW_PRIMARY);
      await superadmin.getByTestId('white-label-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
      await expect(superadmin.getByTestId('white-label-logo-current')).toBeVisible();
      await superadmin.getByTestId('white-label-save').click();
      await expect(superadmin.locator('.bp6-toast').filter({ hasText: 'Personalização salva.' })).toBeVisible();

      // A renamed executable is refused with the spec's text, and the logo stays.
      await superadmin
        .getByTestId('white-label-favicon-input')
        .setInputFiles({ name: 'favicon.png', mimeType: 'image/png', buffer: Buffer.from('MZ\x90\x00not an image at all', 'latin1') });
      await expect(superadmin.locator('.bp6-toast').filter({ hasText: 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.' })).toBeVisible();

      // The login page of a browser that never signed in.
      const anonymous = await (await browser.newContext()).newPage();
      await anonymous.goto('/#/login');
      await expect(anonymous.getByTestId('brand-name')).toHaveText(appName);
      await expect(anonymous).toHaveTitle(appName);
      await expect.poll(() => cssVariable(anonymous, '--primary')).toBe(NEW_PRIMARY);
      const logo = anonymous.getByTestId('brand-logo');
      await expect(logo).toBeVisible();
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
      // Something visible: the brand title is painted in the new primary colour.
      await expect(anonymous.locator('.app-brand-title')).toHaveCSS('color', 'rgb(194, 24, 91)');
      await anonymous.screenshot({ path: 'test-results/white-label-login.png' });

      // A tenant user's shell (another tenant than the super administrator's).
      const admin = await (await browser.newContext({ storageState: storageStatePath('admin') })).newPage();
      await admin.goto('/#/home');
      await expect(admin.locator('.app-navbar').getByTestId('brand-name')).toHaveText(appName);
      await expect(admin.locator('.app-navbar').getByTestId('brand-logo')).toBeVisible();
      await expect(admin).toHaveTitle(new RegExp(`${appName}$`));
      await expect.poll(() => cssVariable(admin, '--primary')).toBe(NEW_PRIMARY);
      await admin.screenshot({ path: 'test-results/white-label-shell.png' });

      // Live: a new name reaches the open shell without a reload (branding:update).
      await superadmin.getByTestId('white-label-app-name').fill(`${appName} 2`);
      await superadmin.getByTestId('white-label-save').click();
      await expect(admin.locator('.app-navbar').getByTestId('brand-name')).toHaveText(`${appName} 2`);
    } finally {
      await api(superadmin, 'PUT', '/tenants/systemColors/', originalColors);
      await api(superadmin, 'PUT', '/admin/branding', { appName: null });
      await api(superadmin, 'DELETE', '/admin/media-upload/logo');
    }
  });
});

test.describe('notifications (/notificacao and the bell)', () => {
  test("a notification sent by the super administrator shows live in an admin's bell with the unread count; mark read", async ({ browser }) => {
    const admin = await (await browser.newContext({ storageState: storageStatePath('admin') })).newPage();
    await admin.goto('/#/home');
    await expect(admin.getByTestId('notification-bell')).toBeVisible();
    // Start from nothing unread, so the count shown is this test's.
    await api(admin, 'PUT', '/notifications/read-all');
    await admin.reload();
    await expect(admin.getByTestId('notification-count')).toHaveCount(0);

    const superadmin = await superadminPage(browser);
    await superadmin.goto('/#/notificacao');
    const message = `Manutenção programada ${Date.now().toString(36)}`;
    await superadmin.getByTestId('notification-message').fill(message);
    await superadmin.getByTestId('notification-send').click();
    await expect(superadmin.locator('.bp6-toast').filter({ hasText: 'Notificação enviada.' })).toBeVisible();
    await expect(superadmin.getByTestId('sent-notification-row').first()).toContainText(message);

    // Live, without a reload.
    await expect(admin.getByTestId('notification-count')).toHaveText('1');
    await admin.getByTestId('notification-bell').click();
    const item = admin.getByTestId('notification-item').filter({ hasText: message });
    await expect(item).toHaveAttribute('data-read', 'false');
    await item.getByTestId('notification-mark-read').click();
    await expect(item).toHaveAttribute('data-read', 'true');
    await expect(admin.getByTestId('notification-count')).toHaveCount(0);

    // The read flag is the admin's own and survives a reload; the sent list counts one read.
    await admin.reload();
    await expect(admin.getByTestId('notification-count')).toHaveCount(0);
    await superadmin.reload();
    await expect(superadmin.getByTestId('sent-notification-row').first()).toContainText(message);
    const sent = await api(superadmin, 'GET', '/admin/notifications?limit=1');
    expect(sent.notifications[0]).toMatchObject({ message, readCount: 1 });
  });
});
