import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, storageStatePath } from './e2e-support';
import { deliverInbound, liveWabaChannel, phone, suffix } from './dashboard-support';

/**
 * The administrator's dashboard (/home, issue #13) against the real server: the cards and charts
 * of today, and a customer's message through the Cloud API webhook moving them without a reload
 * (a new contact, a new pending ticket, one more message in). A screenshot is kept as an artifact.
 */

/** A card's figure as a number ('1.234' in pt-BR). */
async function figure(page: Page, testId: string): Promise<number> {
  const text = (await page.getByTestId(testId).textContent()) ?? '';
  const digits = text.replace(/\D/g, '');
  return digits === '' ? Number.NaN : Number(digits);
}

test.describe('dashboard (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(90_000);
  const live = liveWabaChannel('/home');

  test('draws today\'s figures and charts, and moves them live when a customer writes', async ({ page, baseURL }, testInfo) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('dashboard-page')).toBeVisible({ timeout: 20_000 });
    // The charts come from their own chunk and draw on a canvas.
    await expect(page.getByTestId('dashboard-chart').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('dashboard-chart').first().locator('canvas')).toHaveCount(1);
    await expect(page.getByTestId('stat-pending')).toHaveText(/\d/, { timeout: 15_000 });

    const channel = await live.channel(page, 'WABA Dashboard');
    // Whatever the channel set-up moved has been counted before the figures are read.
    await expect(page.getByTestId('dashboard-live')).toHaveAttribute('data-fetching', 'false');
    const before = {
      pending: await figure(page, 'stat-pending'),
      contacts: await figure(page, 'stat-new-contacts'),
      messagesIn: await figure(page, 'stat-messages-in'),
    };
    expect(Number.isNaN(before.pending)).toBe(false);

    const marker = await page.evaluate(() => {
      (window as unknown as { __noReload: boolean }).__noReload = true;
      return true;
    });
    expect(marker).toBe(true);

    const name = `Cliente Dashboard ${suffix()}`;
    await deliverInbound(baseURL!, live.fake, channel, phone(), name, 'Olá, quero falar com alguém');

    // Live: the socket's ticket and message events refetch the figures.
    await expect.poll(() => figure(page, 'stat-pending'), { timeout: 15_000 }).toBe(before.pending + 1);
    await expect.poll(() => figure(page, 'stat-new-contacts'), { timeout: 15_000 }).toBe(before.contacts + 1);
    await expect.poll(() => figure(page, 'stat-messages-in'), { timeout: 15_000 }).toBe(before.messagesIn + 1);
    // The same page: nothing reloaded it.
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    const shot = await page.screenshot({ path: `${ARTIFACTS}/dashboard.png`, fullPage: true });
    await testInfo.attach('dashboard', { body: shot, contentType: 'image/png' });
  });
});
