import { expect, test } from '@playwright/test';
import { ARTIFACTS, hashPath, loginThroughUi, storageStatePath, toast } from './e2e-support';
import { api, deliverInbound, liveWabaChannel, phone, suffix } from './dashboard-support';

/**
 * The administrator's live ticket panel (/painel-atendimentos, issue #13) against the real
 * server: a customer's message through the Cloud API webhook opens a pending ticket that appears
 * in the "Sem atendente" column without a reload, waiting and ticking; a click opens it in the
 * attendance screen. Agents and supervisors are sent away with the permission message.
 */

test.describe('ticket panel (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(90_000);
  const live = liveWabaChannel('/painel-atendimentos');

  test('a new pending ticket appears live, waits and ticks; a click opens it', async ({ page, baseURL }, testInfo) => {
    await page.goto('/#/painel-atendimentos');
    await expect(page.getByTestId('panel-board')).toBeVisible({ timeout: 20_000 });
    const channel = await live.channel(page, 'WABA Painel de atendimentos');
    const queue = await api(page, 'POST', '/queue', { name: `Fila Painel ${suffix()}`, color: '#d13913' });

    const noAgent = page.locator('[data-testid="panel-lane"][data-user-id="none"]');
    await expect(noAgent).toBeVisible();
    const pendingBefore = Number(await noAgent.getByTestId('panel-lane-counts').locator('.bp6-tag').nth(1).textContent());

    const name = `Cliente Painel ${suffix()}`;
    await deliverInbound(baseURL!, live.fake, channel, phone(), name, 'Bom dia, ainda estou aguardando o boleto');

    // Live: no reload. The ticket lands in "Sem atendente", pending, waiting for an answer.
    const card = noAgent.getByTestId('panel-ticket').filter({ hasText: name });
    await expect(card).toBeVisible({ timeout: 15_000 });
    await expect(card).toHaveAttribute('data-status', 'pending');
    await expect(card).toContainText('Pendente');
    await expect(card).toContainText('Bom dia, ainda estou aguardando o boleto');
    await expect(noAgent.getByTestId('panel-lane-counts').locator('.bp6-tag').nth(1)).toHaveText(String(pendingBefore + 1));
    const wait = card.getByTestId('panel-ticket-wait');
    await expect(wait).toHaveText(/^\d+:\d{2}$/);
    // The waiting time ticks on screen (no refetch needed).
    const first = await wait.textContent();
    await expect.poll(async () => wait.textContent(), { timeout: 5_000 }).not.toBe(first);

    // Moving it to a queue recolours it and counts it in the queue summary, live too.
    const ticketId = Number(await card.getAttribute('data-ticket-id'));
    await api(page, 'PUT', `/tickets/${ticketId}`, { isTransference: true, queueId: queue.id });
    const summary = page.locator(`[data-testid="panel-queue"][data-queue-id="${queue.id}"]`);
    await expect(summary).toContainText(queue.name, { timeout: 15_000 });
    await expect(summary.locator('.bp6-tag').nth(1)).toHaveText('1');
    await expect(card).toContainText(queue.name);
    await expect(card).toHaveCSS('border-left-color', 'rgb(209, 57, 19)');

    const shot = await page.screenshot({ path: `${ARTIFACTS}/ticket-panel.png`, fullPage: true });
    await testInfo.attach('ticket-panel', { body: shot, contentType: 'image/png' });

    await card.click();
    await expect.poll(() => hashPath(page)).toBe(`/atendimento/${ticketId}`);
    await expect(page.getByTestId('chat-contact-name')).toHaveText(name);
  });
});

test.describe('ticket panel and dashboard refused to agents', () => {
  test('an agent is sent back to the console with the permission message', async ({ page }) => {
    await loginThroughUi(page, 'user');
    await expect.poll(() => hashPath(page)).toBe('/atendimento');
    for (const path of ['/painel-atendimentos', '/home']) {
      await page.goto(`/#${path}`);
      await expect.poll(() => hashPath(page)).toBe('/atendimento');
      await expect(toast(page).filter({ hasText: 'Você não tem permissão para acessar esta página.' }).first()).toBeVisible();
      await expect(page.getByTestId('attendance-page')).toBeVisible();
    }
    await expect(page.getByTestId('menu-dashboard')).toHaveCount(0);
    await expect(page.getByTestId('menu-ticketPanel')).toHaveCount(0);
  });

  test('a supervisor opens the dashboard but not the ticket panel', async ({ page }) => {
    await loginThroughUi(page, 'super');
    await page.goto('/#/painel-atendimentos');
    await expect.poll(() => hashPath(page)).toBe('/atendimento');
    await expect(toast(page).filter({ hasText: 'Você não tem permissão para acessar esta página.' }).first()).toBeVisible();
    await page.goto('/#/home');
    await expect(page.getByTestId('dashboard-page')).toBeVisible();
    await expect(page.getByTestId('menu-dashboard')).toBeVisible();
  });
});
