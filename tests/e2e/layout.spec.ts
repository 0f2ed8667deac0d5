import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { storageStatePath } from './e2e-support';

/**
 * The main screens at 1280, 1440 and 1920 px: a screenshot of each into
 * test-results/screenshots (to be looked at), no horizontal overflow of the page, no field of
 * the channel dialog past the dialog's edge, the ticket header's actions clear of the contact
 * panel, and no console error (an unknown icon name or a missing favicon logs one).
 */
const SHOTS = 'test-results/screenshots';
const SIZES = [
  { width: 1280, height: 800 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;
const SCREENS = [
  { path: '/home', ready: 'dashboard-page' },
  { path: '/painel-atendimentos', ready: 'panel-board' },
  { path: '/contatos', ready: 'page-contatos' },
  { path: '/sessoes', ready: 'page-sessoes' },
  { path: '/filas', ready: 'page-filas' },
  { path: '/usuarios', ready: 'page-usuarios' },
  { path: '/kanban/kanbans', ready: 'page-kanban-kanbans' },
  { path: '/configuracoes/geral', ready: 'page-configuracoes-geral' },
] as const;

const suffix = () => randomBytes(3).toString('hex');
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function api(page: Page, method: string, path: string, body?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(path, { method, headers: { authorization: `Bearer ${token}` }, data: body });
  return { status: response.status(), body: response.status() === 204 ? null : await response.json().catch(() => null) };
}

/** Network quiet and the loading overlay gone, so a shot shows the screen and not the dimmed page. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle');
  await expect(page.getByTestId('loading-overlay')).toHaveCount(0, { timeout: 15_000 });
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, 'element has a box').not.toBeNull();
  return found!;
}

test('the web app links a favicon that answers', async ({ page, request }) => {
  await page.goto('/#/login');
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toBe('./favicon.svg');
  const icon = await request.get('/favicon.svg');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');
  expect(await icon.text()).toContain('<svg');
});

test.describe('layout at 1280, 1440 and 1920 px (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(120_000);
  let channelId: number | null = null;
  let createdChannel = false;
  let ticketId: number | null = null;

  test.beforeAll(async ({ browser }) => {
    mkdirSync(SHOTS, { recursive: true });
    const context = await browser.newContext({ storageState: storageStatePath('admin') });
    const page = await context.newPage();
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    // A ticket to show the header and the contact panel: on a channel of this spec, or on an
    // existing one when the demo plan's connections are all taken by other specs.
    const created = await api(page, 'POST', '/whatsapp', { type: 'baileys', name: `Layout ${suffix()}` });
    if (created.status === 201) {
      channelId = created.body.id;
      createdChannel = true;
    } else {
      expect(created.body?.error).toBe('ERR_CONNECTION_LIMIT');
      channelId = (await api(page, 'GET', '/whatsapp/')).body[0].id;
    }
    const contact = await api(page, 'POST', '/contacts', {
      name: `Cliente Layout Com Um Nome Bem Comprido ${suffix()}`,
      number: phone(),
    });
    expect(contact.status).toBeLessThan(300);
    const ticket = await api(page, 'POST', '/tickets', { contactId: contact.body.id, whatsappId: channelId, status: 'open' });
    expect(ticket.status, JSON.stringify(ticket.body)).toBeLessThan(300);
    ticketId = ticket.body.id;
    await context.close();
  });

  test.afterAll(async ({ browser }) => {
    if (!createdChannel || channelId === null) return;
    const context = await browser.newContext({ storageState: storageStatePath('admin') });
    const page = await context.newPage();
    await page.goto('/#/home');
    await api(page, 'DELETE', `/whatsapp/${channelId}`);
    await context.close();
  });

  for (const size of SIZES) {
    test(`main screens at ${size.width} px`, async ({ page }) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(`${message.text()} @ ${message.location().url}`);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await page.setViewportSize(size);

      for (const screen of SCREENS) {
        await page.goto(`/#${screen.path}`);
        await expect(page.getByTestId(screen.ready)).toBeVisible({ timeout: 20_000 });
        await settle(page);
        const name = screen.path.slice(1).replaceAll('/', '-');
        await page.screenshot({ path: `${SHOTS}/layout-${name}-${size.width}.png` });
        expect(await horizontalOverflow(page), `${screen.path} overflows sideways`).toBeLessThanOrEqual(0);
      }

      // The channel dialog: every field inside the dialog's body.
      await page.goto('/#/sessoes');
      await page.getByTestId('channel-add').click();
      const dialog = page.locator('.bp6-dialog');
      await expect(dialog).toBeVisible();
      // Measured once the opening transition (a scale) is over: the dialog's box no longer moves.
      let last = '';
      await expect
        .poll(async () => {
          const now = JSON.stringify(await dialog.boundingBox());
          const still = now === last;
          last = now;
          return still;
        }, { intervals: [100] })
        .toBe(true);
      for (const type of ['waba', 'baileys', 'telegram']) {
        await page.getByTestId('channel-type').selectOption(type);
        const body = await box(dialog.locator('.bp6-dialog-body'));
        const fields = dialog.locator(
          '.bp6-dialog-body input:visible, .bp6-dialog-body select:visible, .bp6-dialog-body textarea:visible',
        );
        for (const field of await fields.all()) {
          const fieldBox = await box(field);
          const label = (await field.getAttribute('data-testid')) ?? (await field.getAttribute('id')) ?? 'field';
          expect(fieldBox.x, `${type} ${label} starts inside the dialog`).toBeGreaterThanOrEqual(body.x - 0.5);
          expect(fieldBox.x + fieldBox.width, `${type} ${label} ends inside the dialog`).toBeLessThanOrEqual(
            body.x + body.width + 0.5,
          );
        }
        // The shot shows the dialog's end, where the hour field used to be cut off.
        await dialog.getByTestId('channel-birthday-hour').scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/layout-channel-dialog-${type}-${size.width}.png` });
      }
      await page.keyboard.press('Escape');

      // The ticket with the contact panel open: the header's actions stay clear of the panel.
      await page.goto(`/#/atendimento/${ticketId}`);
      await expect(page.getByTestId('chat-panel')).toBeVisible();
      const panel = page.getByTestId('contact-panel');
      // Wide screens open the panel by itself once the ticket has loaded: wait for it before toggling.
      const opened = await panel.waitFor({ state: 'visible', timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      if (!opened) await page.getByTestId('ticket-toggle-panel').click();
      await expect(panel).toBeVisible();
      await settle(page);
      await page.screenshot({ path: `${SHOTS}/layout-ticket-${size.width}.png` });
      const actions = await box(page.locator('.chat-header .ticket-actions'));
      const header = await box(page.locator('.chat-header'));
      const panelBox = await box(panel);
      expect(actions.x + actions.width, 'ticket actions end before the contact panel').toBeLessThanOrEqual(panelBox.x + 0.5);
      expect(actions.x + actions.width, 'ticket actions end inside the header').toBeLessThanOrEqual(
        header.x + header.width + 0.5,
      );
      for (const button of await page.locator('.chat-header .ticket-actions .bp6-button').all()) {
        const b = await box(button);
        expect(b.x + b.width, 'an action button ends before the contact panel').toBeLessThanOrEqual(panelBox.x + 0.5);
        expect(b.y + b.height, 'an action button stays inside the header').toBeLessThanOrEqual(header.y + header.height + 0.5);
      }
      expect(await horizontalOverflow(page), 'ticket screen overflows sideways').toBeLessThanOrEqual(0);

      expect(errors).toEqual([]);
    });
  }
});
