import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, hashPath, loginThroughUi, storageStatePath, toast } from './e2e-support';

/**
 * Issue #14 items 7 and 8 against the real server, signed in as the supervisor (the screens are
 * in the supervisor's menu): /aniversarios (a channel's birthday message with a variable, its
 * preview and hour, refused without an hour; the upcoming birthdays with this spec's contacts),
 * /fechamento (a farewell message saved with its preview), /avaliacoes/listar (this spec's
 * ratings: count, average, distribution chart, filters, 'Data inválida') and
 * /avaliacoes/configurar (settings saved and read back). An agent is sent away from them.
 */

async function api(page: Page, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, data?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  return { status: response.status(), body: response.status() === 204 ? null : await response.json().catch(() => null) };
}

const run = Math.random().toString(36).slice(2, 8);
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** yyyy-MM-dd of today + n days in São Paulo (the demo tenant's zone). */
function dayInSaoPaulo(offsetDays = 0): string {
  const now = new Date(Date.now() + offsetDays * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Sao_Paulo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

const queueName = `Avaliações E2E ${run}`;
const todayName = `Aniversariante Hoje ${run}`;
const soonName = `Aniversariante Logo ${run}`;
const scores = [5, 4, 4, 1];
let channelId = 0;
let channelName = '';
let createdChannel = false;
let originalRating: unknown = null;

async function openAsSupervisor(page: Page, path: string, testId: string) {
  await loginThroughUi(page, 'super');
  await page.goto(`/#${path}`);
  const screen = page.getByTestId(testId);
  await expect(screen).toBeVisible({ timeout: 30_000 });
  return screen;
}

test.describe('birthdays, farewell messages and ratings (supervisor)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(90_000);

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ storageState: storageStatePath('admin') });
    const page = await context.newPage();
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    originalRating = (await api(page, 'GET', '/tenants/rating/')).body;
    const channel = await api(page, 'POST', '/whatsapp', { type: 'baileys', name: `Aniversários ${run}` });
    if (channel.status === 201) {
      channelId = channel.body.id;
      channelName = channel.body.name;
      createdChannel = true;
    } else {
      expect(channel.body?.error).toBe('ERR_CONNECTION_LIMIT');
      const first = (await api(page, 'GET', '/whatsapp/')).body[0];
      channelId = first.id;
      channelName = first.name;
    }
    const year = (offset: number) => `1990-${dayInSaoPaulo(offset).slice(5)}`;
    for (const [name, birthday] of [
      [todayName, year(0)],
      [soonName, year(5)],
    ]) {
      const contact = await api(page, 'POST', '/contacts', { name, number: phone(), birthday });
      expect(contact.status, JSON.stringify(contact.body)).toBe(201);
    }
    const queue = await api(page, 'POST', '/queue', { name: queueName, color: '#2f9e44' });
    expect(queue.status, JSON.stringify(queue.body)).toBe(201);
    for (const [index, score] of scores.entries()) {
      const contact = await api(page, 'POST', '/contacts', { name: `Avaliador ${run} ${index}`, number: phone() });
      const ticket = await api(page, 'POST', '/tickets', {
        contactId: contact.body.id,
        whatsappId: channelId,
        queueId: queue.body.id,
        status: 'open',
      });
      expect(ticket.status, JSON.stringify(ticket.body)).toBeLessThan(300);
      const rated = await api(page, 'POST', `/tickets/${ticket.body.id}/rating`, { rating: score });
      expect(rated.status, JSON.stringify(rated.body)).toBe(200);
    }
    await context.close();
  });

  test.afterAll(async ({ browser }) => {
    const context = await browser.newContext({ storageState: storageStatePath('admin') });
    const page = await context.newPage();
    await page.goto('/#/home');
    // Other specs resolve tickets: leave the rating flow as it was.
    if (originalRating) await api(page, 'PUT', '/tenants/rating/', originalRating);
    if (createdChannel) await api(page, 'DELETE', `/whatsapp/${channelId}`);
    else await api(page, 'PUT', `/whatsapp/${channelId}/birthday`, { birthdayMessage: null, birthdayHour: null });
    await context.close();
  });

  test('/aniversarios: a channel’s birthday message with a variable and its hour, and the upcoming birthdays', async ({
    page,
  }) => {
    const screen = await openAsSupervisor(page, '/aniversarios', 'page-aniversarios');
    const card = screen.getByTestId(`birthday-channel-${channelId}`);
    await expect(card).toContainText(channelName);
    const message = card.getByTestId(`birthday-channel-${channelId}-message`);
    await message.fill('Feliz aniversário, ');
    await message.press('End');
    await card.getByTestId(`birthday-channel-${channelId}-message-var-firstName`).click();
    await expect(message).toHaveValue('Feliz aniversário, {{firstName}}');
    await message.press('End');
    await message.pressSequentially('!');
    await expect(card.getByTestId(`birthday-channel-${channelId}-message-preview`)).toContainText('Feliz aniversário, Maria!');

    // A message without an hour is refused by the shared schema, before the server is asked.
    await card.getByTestId(`birthday-channel-${channelId}-hour`).selectOption('');
    await card.getByTestId(`birthday-channel-${channelId}-save`).click();
    await expect(card.getByTestId(`birthday-channel-${channelId}-hour-error`)).toHaveText('Hora do envio é obrigatório');
    await expect(card.getByTestId(`birthday-channel-${channelId}-summary`)).toHaveText('Ops! Verifique os erros...');

    await card.getByTestId(`birthday-channel-${channelId}-hour`).selectOption('9');
    await card.getByTestId(`birthday-channel-${channelId}-save`).click();
    await expect(toast(page).filter({ hasText: 'Mensagem de aniversário' }).first()).toBeVisible();
    const stored = await api(page, 'GET', `/whatsapp/${channelId}`);
    expect(stored.body).toMatchObject({ birthdayMessage: 'Feliz aniversário, {{firstName}}!', birthdayHour: 9 });

    const upcoming = screen.getByTestId('upcoming-birthdays');
    const rows = upcoming.getByTestId('upcoming-table-row');
    await expect(rows.filter({ hasText: todayName })).toHaveCount(1);
    await expect(rows.filter({ hasText: todayName })).toContainText('Hoje');
    await expect(rows.filter({ hasText: todayName })).toContainText(`${channelName} · 09:00`);
    await expect(rows.filter({ hasText: soonName })).toContainText('Em 5 dias');
    await upcoming.getByTestId('upcoming-days').selectOption('7');
    await expect(rows.filter({ hasText: soonName })).toHaveCount(1);
    await page.screenshot({ path: `${ARTIFACTS}/birthdays.png`, fullPage: true });
  });

  test('/fechamento: a channel’s farewell message with its preview', async ({ page }) => {
    const screen = await openAsSupervisor(page, '/fechamento', 'page-fechamento');
    const card = screen.getByTestId(`farewell-channel-${channelId}`);
    const message = card.getByTestId(`farewell-channel-${channelId}-message`);
    await message.fill('Obrigado pelo contato, ');
    await message.press('End');
    await card.getByTestId(`farewell-channel-${channelId}-message-var-name`).click();
    await message.press('End');
    await message.pressSequentially('. Protocolo ');
    await card.getByTestId(`farewell-channel-${channelId}-message-var-protocol`).click();
    await expect(card.getByTestId(`farewell-channel-${channelId}-message-preview`)).toHaveText(
      /Obrigado pelo contato, Maria Silva\. Protocolo \d+/,
    );
    await card.getByTestId(`farewell-channel-${channelId}-save`).click();
    await expect(toast(page).filter({ hasText: 'Mensagem de encerramento' }).first()).toBeVisible();
    expect((await api(page, 'GET', `/whatsapp/${channelId}`)).body.farewellMessage).toBe(
      'Obrigado pelo contato, {{name}}. Protocolo {{protocol}}',
    );
  });

  test('/avaliacoes/listar: this spec’s ratings with their count, average and distribution', async ({ page }) => {
    const screen = await openAsSupervisor(page, '/avaliacoes/listar', 'page-avaliacoes-listar');
    // Dates are checked by the shared schema: 'Data inválida'.
    await screen.getByTestId('ratings-startDate').fill('31/02/2026');
    await screen.getByTestId('ratings-apply').click();
    await expect(screen.getByTestId('ratings-startDate-error')).toHaveText('Data inválida');
    const first = `01/${dayInSaoPaulo().slice(5, 7)}/${dayInSaoPaulo().slice(0, 4)}`;
    await screen.getByTestId('ratings-startDate').fill(first);
    await screen.getByTestId('ratings-queuesIds').click();
    await page.getByTestId('ratings-queuesIds-options').getByText(queueName, { exact: true }).click();
    await page.keyboard.press('Escape');
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/ratings' && new URL(r.url()).searchParams.has('queuesIds'),
    );
    await screen.getByTestId('ratings-apply').click();
    expect((await answered).status()).toBe(200);

    const average = scores.reduce((a, b) => a + b, 0) / scores.length;
    await expect(screen.getByTestId('ratings-count')).toContainText(String(scores.length));
    await expect(screen.getByTestId('ratings-average')).toContainText(average.toFixed(2).replace('.', ','));
    await expect(screen.getByTestId('ratings-distribution-4')).toContainText('4 · Excelente: 2');
    await expect(screen.getByTestId('ratings-distribution-5')).toContainText('5 · Incrível: 1');
    await expect(screen.getByTestId('ratings-distribution-0')).toContainText('0 · Ruim: 0');
    const chart = screen.locator('[data-chart="ratings-distribution"]');
    await expect(chart).toHaveAttribute('data-chart-ready', 'true', { timeout: 15_000 });
    // The chart has room to draw in (its box is this screen's, not the dashboard's).
    expect((await chart.boundingBox())?.height ?? 0).toBeGreaterThan(100);
    await expect(screen.getByTestId('ratings-by-queue')).toContainText(queueName);
    await expect(screen.getByTestId('ratings-table-row')).toHaveCount(scores.length);

    // Only the lowest score.
    await screen.getByTestId('ratings-ratings').click();
    await page.getByTestId('ratings-ratings-options').getByText('1 · Regular', { exact: true }).click();
    await page.keyboard.press('Escape');
    await screen.getByTestId('ratings-apply').click();
    await expect(screen.getByTestId('ratings-table-row')).toHaveCount(1);
    await expect(screen.getByTestId('ratings-table-row')).toContainText('1 · Regular');
    await expect(screen.getByTestId('ratings-average')).toContainText('1,00');
    await expect(page.getByTestId('loading-overlay')).toHaveCount(0);
    await expect(chart).toHaveAttribute('data-chart-ready', 'true');
    await page.screenshot({ path: `${ARTIFACTS}/ratings-list.png`, fullPage: true });
  });

  test('/avaliacoes/configurar: the settings are validated, saved and read back', async ({ page }) => {
    const screen = await openAsSupervisor(page, '/avaliacoes/configurar', 'page-avaliacoes-configurar');
    const enabled = screen.getByTestId('rating-enabled');
    if (!(await enabled.isChecked())) await enabled.check({ force: true });
    await screen.getByTestId('rating-message').fill('');
    await screen.getByTestId('rating-settings-save').click();
    await expect(screen.getByTestId('rating-message-error')).toHaveText(
      'Texto do pedido de avaliação é obrigatório quando a avaliação está ativa',
    );
    await screen.getByTestId('rating-message').fill('Olá ');
    await screen.getByTestId('rating-message').press('End');
    await screen.getByTestId('rating-message-var-firstName').click();
    await screen.getByTestId('rating-message').press('End');
    await screen.getByTestId('rating-message').pressSequentially(', dê uma nota de 0 a 5');
    await expect(screen.getByTestId('rating-message-preview')).toContainText('Olá Maria, dê uma nota de 0 a 5');
    await screen.getByTestId('rating-max-attempts').selectOption('2');
    await screen.getByTestId('rating-thanks').fill('Obrigado pela avaliação!');
    await screen.getByTestId('rating-label-5').fill('Nota máxima');
    await screen.getByTestId('rating-settings-save').click();
    await expect(toast(page).filter({ hasText: 'Configuração de avaliação salva.' })).toBeVisible();
    expect((await api(page, 'GET', '/tenants/rating/')).body).toMatchObject({
      enabled: true,
      message: 'Olá {{firstName}}, dê uma nota de 0 a 5',
      maxAttempts: 2,
      thanksMessage: 'Obrigado pela avaliação!',
      labels: ['Ruim', 'Regular', 'Bom', 'Muito Bom', 'Excelente', 'Nota máxima'],
    });
    // Read back after a reload.
    await page.reload();
    await expect(screen.getByTestId('rating-label-5')).toHaveValue('Nota máxima', { timeout: 30_000 });
    await expect(screen.getByTestId('rating-max-attempts')).toHaveValue('2');
  });
});

test.describe('birthdays, farewell messages and ratings (an agent)', () => {
  test('an agent is sent away from the four screens', async ({ page }) => {
    await loginThroughUi(page, 'user');
    for (const path of ['/aniversarios', '/fechamento', '/avaliacoes/listar', '/avaliacoes/configurar']) {
      await page.goto(`/#${path}`);
      await expect(toast(page).filter({ hasText: 'Você não tem permissão para acessar esta página.' }).first()).toBeVisible();
      await expect.poll(() => hashPath(page)).toBe('/atendimento');
    }
  });
});
