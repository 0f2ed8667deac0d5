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

  test('opening on /home, the start-up script sends the dashboard\'s calls and asks for its chunks before the main script runs, and the app takes the answers over', async ({ page }) => {
    // Each call of the dashboard's opening, in the order it left, with the time it left.
    const sent: { path: string; at: number }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/statistics-')) sent.push({ path: url.pathname, at: Date.now() });
    });
    await page.goto('/#/home');
    await expect(page.getByTestId('dashboard-chart').first()).toHaveAttribute('data-chart-ready', 'true', { timeout: 20_000 });
    await expect(page.getByTestId('dashboard-live')).toHaveAttribute('data-fetching', 'false');
    const appStart = await page.evaluate(() => performance.getEntriesByName('app:start')[0]?.startTime ?? null);
    const firstCall = await page.evaluate(
      () => performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname.startsWith('/statistics-'))?.startTime ?? null,
    );
    const pageChunk = await page.evaluate(
      () => performance.getEntriesByType('resource').find((entry) => /\/assets\/dashboard-page-[^/]*\.js$/.test(entry.name))?.startTime ?? null,
    );
    expect(appStart).not.toBeNull();
    // The screen's chunk is asked for by boot.ts too (modulepreload), not after the app's start.
    expect(pageChunk).not.toBeNull();
    expect(pageChunk!).toBeLessThan(appStart!);
    // Sent by boot.ts, before the app's own start.
    expect(firstCall).not.toBeNull();
    expect(firstCall!).toBeLessThan(appStart!);
    // Taken over: every call of the opening went out once, none a second time by the app.
    const paths = sent.map((entry) => entry.path);
    for (const path of ['/statistics-tickets-times', '/statistics-tickets-queue', '/statistics-tickets-channels', '/statistics-tickets-evolution-by-period', '/statistics-tickets-hours', '/statistics-tickets-per-users-detail']) {
      expect(paths.filter((p) => p === path), path).toHaveLength(1);
    }
  });
});
