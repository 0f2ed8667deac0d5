import { expect, test } from '@playwright/test';
import type { FakeGraphApi } from '../fakes/graph-api.fake';
import { api, connectedWabaChannel, deleteChannelsAfterEach, startFakeGraphOnFixedPort, storageStatePath, toast } from './e2e-support';

/**
 * Bulk send with variables (`/massa/textovariavel`) against the real server and the fake Cloud
 * API: the shared schema's min/max rule shows on the form, the destinations have a bad line, the
 * confirmation shows the valid count, the refused line and the 2% warning, and the screen follows
 * the send live until it is finished, each destination's message received once with its values.
 * A template with variables (`/massa/template-variavel`): the body comes from the lines, the
 * header and the URL button are typed once in the form; the fake gets every component. A
 * template with a document header (`/massa/template`) asks for its https link and file name.
 */

const run = Math.random().toString(36).slice(2, 8);
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

test.describe('bulk sends (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(120_000);
  let fake: FakeGraphApi;
  const channels = deleteChannelsAfterEach();
  test.beforeAll(async () => {
    fake = await startFakeGraphOnFixedPort();
  });
  test.afterAll(async () => {
    await fake?.stop();
  });

  test('text with variables: validation, confirmation with the warning, watched to completion', async ({ page }) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const channelName = `Massa E2E ${run}`;
    channels.push((await connectedWabaChannel(page, fake, channelName, `secret-${run}-0123456789`)).id);

    await page.goto('/#/massa/textovariavel');
    const screen = page.getByTestId('page-massa-textovariavel');
    await expect(screen.getByRole('heading', { name: 'Envio em massa: texto com variáveis' })).toBeVisible({ timeout: 30_000 });

    const [a, b] = [phone(), phone()];
    await screen.getByTestId('bulk-channel').selectOption({ label: channelName });
    await screen.getByTestId('bulk-destinations').fill(`${a},Ana,#101\nnão é número,x\n${b},Bruno,#102`);
    await screen.getByTestId('bulk-message').fill('Olá {{1}}, seu pedido {{2}} foi enviado.');
    // The shared schema: the maximum must be greater than the minimum.
    await screen.getByTestId('bulk-min-delay').fill('2');
    await screen.getByTestId('bulk-max-delay').fill('2');
    await screen.getByTestId('bulk-submit').click();
    await expect(screen.getByTestId('bulk-max-delay-error')).toContainText('O tempo máximo deve ser maior que o mínimo');
    await screen.getByTestId('bulk-min-delay').fill('0');
    await screen.getByTestId('bulk-max-delay').fill('1');
    await screen.getByTestId('bulk-submit').click();

    const confirm = page.getByTestId('bulk-confirm');
    await expect(confirm).toContainText('Enviar para 2 destino(s) válido(s)?');
    await expect(page.getByTestId('bulk-confirm-invalid')).toContainText('1 linha(s) inválida(s)');
    await expect(page.getByTestId('bulk-spam-warning')).toContainText('2% dos destinatários');
    await page.locator('.bp6-alert').getByRole('button', { name: 'Iniciar envio' }).click();
    await expect(toast(page).filter({ hasText: 'Envio em massa iniciado para 2 destino(s).' })).toBeVisible();

    await expect(screen.getByTestId('bulk-status')).toHaveText('Finalizada', { timeout: 30_000 });
    await expect(screen.getByTestId('bulk-counts')).toContainText('2 de 2 processados (2 entregues, 0 falhas)');
    await expect(screen.getByTestId('bulk-invalid-lines')).toContainText('Linha 2');
    await expect(screen.getByTestId('bulk-invalid-lines')).toContainText('número inválido');
    await expect(screen.getByTestId('bulk-result-status')).toHaveText(['Entregue', 'Entregue']);
    for (const [number, name, order] of [
      [a, 'Ana', '#101'],
      [b, 'Bruno', '#102'],
    ]) {
      const got = fake.sentMessages().filter((m) => m?.to === number);
      expect(got).toHaveLength(1);
      expect(got[0].text.body).toBe(`Olá ${name}, seu pedido ${order} foi enviado.`);
    }
  });
  test('template with variables: header and button inputs (the lines fill the body), preview, sent with every component', async ({ page }) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const channelName = `Massa Modelo ${run}`;
    const channel = await connectedWabaChannel(page, fake, channelName, `secret-${run}-tpl-0123456789`);
    channels.push(channel.id);
    await api(page, 'POST', `/whatsapp/${channel.id}/templates/sync`);

    await page.goto('/#/massa/template-variavel');
    const screen = page.getByTestId('page-massa-template-variavel');
    await screen.getByTestId('bulk-channel').selectOption({ label: channelName }, { timeout: 30_000 });
    await screen.getByTestId('bulk-template').selectOption({ label: 'pedido_enviado (pt_BR)' });
    await expect(screen.getByTestId('bulk-template-header-0')).toBeVisible();
    await expect(screen.getByTestId('bulk-template-buttons-0')).toBeVisible();
    await expect(screen.getByTestId('bulk-template-body-0')).toHaveCount(0);
    await expect(screen.getByTestId('bulk-template-body-from-lines')).toContainText('2');
    await screen.getByTestId('bulk-template-header-0').fill('Loja Centro');
    await screen.getByTestId('bulk-template-buttons-0').fill('{{3}}');
    await expect(screen.getByTestId('bulk-template-preview')).toContainText('Pedido Loja Centro');
    const a = phone();
    await screen.getByTestId('bulk-destinations').fill(`${a},Ana,Curitiba,RA-1`);
    await screen.getByTestId('bulk-min-delay').fill('0');
    await screen.getByTestId('bulk-max-delay').fill('1');
    await screen.getByTestId('bulk-submit').click();
    await expect(page.getByTestId('bulk-confirm')).toContainText('Enviar para 1 destino(s) válido(s)?');
    await page.locator('.bp6-alert').getByRole('button', { name: 'Iniciar envio' }).click();
    await expect(screen.getByTestId('bulk-status')).toHaveText('Finalizada', { timeout: 30_000 });
    const got = fake.sentMessages().filter((m) => m?.to === a);
    expect(got).toHaveLength(1);
    expect(got[0].template.components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'Loja Centro' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ana' },
          { type: 'text', text: 'Curitiba' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'RA-1' }] },
    ]);
  });
  test('template with a document header: the link and file name inputs, https only, sent as the header document', async ({
    page,
  }) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const channelName = `Massa Documento ${run}`;
    const channel = await connectedWabaChannel(page, fake, channelName, `secret-${run}-doc-0123456789`);
    channels.push(channel.id);
    await api(page, 'POST', `/whatsapp/${channel.id}/templates/sync`);

    await page.goto('/#/massa/template');
    const screen = page.getByTestId('page-massa-template');
    await screen.getByTestId('bulk-channel').selectOption({ label: channelName }, { timeout: 30_000 });
    await screen.getByTestId('bulk-template').selectOption({ label: 'boleto_documento (pt_BR)' });
    await expect(screen.getByText('Link do documento do cabeçalho')).toBeVisible();
    await expect(screen.getByTestId('bulk-template-preview')).toHaveText('[documento]\n\nSegue o seu boleto.');
    const a = phone();
    await screen.getByTestId('bulk-destinations').fill(a);
    await screen.getByTestId('bulk-min-delay').fill('0');
    await screen.getByTestId('bulk-max-delay').fill('1');
    await screen.getByTestId('bulk-template-header-media').fill('http://cdn.example.com/boleto.pdf');
    await screen.getByTestId('bulk-submit').click();
    await expect(screen.getByTestId('bulk-template-header-media-error')).toContainText('deve ser um link https:// válido');
    const link = 'https://cdn.example.com/boleto.pdf';
    await screen.getByTestId('bulk-template-header-media').fill(link);
    await screen.getByTestId('bulk-template-header-filename').fill('Boleto.pdf');
    await screen.getByTestId('bulk-submit').click();
    await expect(page.getByTestId('bulk-confirm')).toContainText('Enviar para 1 destino(s) válido(s)?');
    await page.locator('.bp6-alert').getByRole('button', { name: 'Iniciar envio' }).click();
    await expect(screen.getByTestId('bulk-status')).toHaveText('Finalizada', { timeout: 30_000 });
    const got = fake.sentMessages().filter((m) => m?.to === a);
    expect(got).toHaveLength(1);
    expect(got[0].template.components).toEqual([
      { type: 'header', parameters: [{ type: 'document', document: { link, filename: 'Boleto.pdf' } }] },
    ]);
  });
});
