import { expect, test } from '@playwright/test';
import type { FakeGraphApi } from '../fakes/graph-api.fake';
import { api, connectedWabaChannel, deleteChannelsAfterEach, startFakeGraphOnFixedPort, storageStatePath, toast, wabaSettingsFor } from './e2e-support';

/**
 * Campaigns (`/campanhas`, issue #16) against the real server and the fake Cloud API: a campaign
 * is created from the screen's dialog, two contacts are linked on its contacts page, it is started
 * now from the list (the confirmation shows the 2% complaint warning) and the list shows it
 * finished, with each contact's message received once by the fake. A template campaign: choosing
 * a template with header, body and URL-button variables shows an input for each and the preview;
 * one with an image header asks for the image's https link.
 */

const run = Math.random().toString(36).slice(2, 8);
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

test.describe('campaigns (signed in as admin)', () => {
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

  test('create, link contacts, start now and watch it finish on the list', async ({ page }) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const channelName = `Campanhas E2E ${run}`;
    channels.push((await connectedWabaChannel(page, fake, channelName, `secret-${run}-0123456789`)).id);
    const names = [`Ana Campanha ${run}`, `Bruno Campanha ${run}`];
    const numbers = [phone(), phone()];
    for (const [i, name] of names.entries()) await api(page, 'POST', '/contacts', { name, number: numbers[i] });

    await page.goto('/#/campanhas');
    const screen = page.getByTestId('page-campanhas');
    await expect(screen.getByRole('heading', { name: 'Campanhas' })).toBeVisible({ timeout: 30_000 });
    await screen.getByTestId('campaign-add').click();
    const dialog = page.getByTestId('campaign-form');
    await expect(dialog).toBeVisible();
    // Saving empty: the shared schema's messages.
    await dialog.getByTestId('campaign-name').fill('');
    await dialog.getByTestId('form-save').click();
    await expect(dialog.getByTestId('campaign-name-error')).toContainText('Nome é obrigatório');

    const campaignName = `Promoção ${run}`;
    await dialog.getByTestId('campaign-name').fill(campaignName);
    await dialog.getByTestId('campaign-message1').fill('Olá ');
    await dialog.getByTestId('campaign-message1').focus();
    await dialog.getByTestId('variable-firstName').click();
    await expect(dialog.getByTestId('campaign-message1')).toHaveValue('Olá {{firstName}}');
    await dialog.getByTestId('campaign-channel').selectOption({ label: channelName });
    await dialog.getByTestId('campaign-delay').fill('0');
    await dialog.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Campanha salva.' })).toBeVisible();
    await expect(dialog).toBeHidden();

    const row = screen.getByTestId('campaigns-table-row').filter({ hasText: campaignName });
    await expect(row.getByTestId('campaign-row-status')).toHaveText('Pendente');
    await row.getByTestId('campaign-row-name').click();

    const detail = page.getByTestId('page-campanhaContatos');
    await expect(detail.getByTestId('campaign-detail-status')).toHaveText('Pendente', { timeout: 30_000 });
    for (const name of names) {
      await detail.getByTestId('schedule-contact-search').fill(name);
      await detail.getByTestId('schedule-contact-option').filter({ hasText: name }).click();
      await expect(detail.getByTestId('campaign-contacts-table-row').filter({ hasText: name })).toHaveCount(1);
    }
    await expect(detail.getByTestId('campaign-contact-status')).toHaveText(['Pendente', 'Pendente']);

    await page.goto('/#/campanhas');
    await row.getByTestId('campaign-start').click();
    await page.locator('label').filter({ hasText: 'Iniciar agora, sem esperar' }).click();
    await expect(page.getByTestId('campaign-start-now')).toBeChecked();
    await expect(page.getByTestId('campaign-complaint-warning')).toContainText('2% dos destinatários');
    await page.locator('.bp6-alert').getByRole('button', { name: 'Iniciar agora' }).click();
    await expect(row.getByTestId('campaign-row-status')).toHaveText('Finalizada', { timeout: 30_000 });
    await expect(row.getByTestId('campaign-row-progress')).toHaveAttribute('data-done', '2');
    for (const [i, number] of numbers.entries()) {
      const got = fake.sentMessages().filter((m) => m?.to === number);
      expect(got).toHaveLength(1);
      expect(got[0].text.body).toBe(`Olá ${names[i].split(' ')[0]}`);
    }
  });

  test('a template with header, body and button variables: an input for each, the preview, saved with every part', async ({ page }) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const channelName = `Modelos E2E ${run}`;
    const channel = await connectedWabaChannel(page, fake, channelName, `secret-${run}-tpl-0123456789`);
    channels.push(channel.id);
    await api(page, 'POST', `/whatsapp/${channel.id}/templates/sync`);

    await page.goto('/#/campanhas');
    const screen = page.getByTestId('page-campanhas');
    await expect(screen.getByRole('heading', { name: 'Campanhas' })).toBeVisible({ timeout: 30_000 });
    await screen.getByTestId('campaign-add').click();
    const dialog = page.getByTestId('campaign-form');
    const campaignName = `Modelo ${run}`;
    await dialog.getByTestId('campaign-name').fill(campaignName);
    await dialog.getByTestId('campaign-channel').selectOption({ label: channelName });
    await dialog.getByTestId('campaign-template').selectOption({ label: 'pedido_enviado (pt_BR)' });
    await expect(dialog.getByTestId('campaign-message1')).toHaveCount(0);
    // Saving with the variables empty: each input says so.
    await dialog.getByTestId('form-save').click();
    await expect(dialog.getByTestId('campaign-template-header-0-error')).toBeVisible();
    await expect(dialog.getByTestId('campaign-template-buttons-0-error')).toBeVisible();
    await dialog.getByTestId('campaign-template-header-0').fill('#{{name}}');
    await dialog.getByTestId('campaign-template-body-0').fill('{{firstName}}');
    await dialog.getByTestId('campaign-template-body-1').fill('Curitiba');
    await dialog.getByTestId('campaign-template-buttons-0').fill('R-{{phoneNumber}}');
    await expect(dialog.getByTestId('campaign-template-preview')).toHaveText(
      'Pedido #{{name}}\n\nOlá {{firstName}}, seu pedido saiu para entrega em Curitiba.\n\nLoja Teste',
    );
    await expect(dialog.getByTestId('campaign-template-preview-buttons')).toContainText('https://loja.example.com/rastreio/R-{{phoneNumber}}');
    await dialog.getByTestId('campaign-delay').fill('0');
    await dialog.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Campanha salva.' })).toBeVisible();
    await expect(dialog).toBeHidden();
    const saved = ((await api(page, 'GET', '/campaigns')) as { name: string; templateName: string; templateVariables: unknown }[]).find(
      (c) => c.name === campaignName,
    );
    expect(saved).toMatchObject({
      templateName: 'pedido_enviado',
      templateVariables: { header: ['#{{name}}'], body: ['{{firstName}}', 'Curitiba'], buttons: ['R-{{phoneNumber}}'] },
    });

    // Editing it shows the stored texts in their inputs.
    await screen.getByTestId('campaigns-table-row').filter({ hasText: campaignName }).getByTestId('campaign-more').click();
    await page.getByTestId('campaign-edit').click();
    await expect(dialog.getByTestId('campaign-template-header-0')).toHaveValue('#{{name}}');
    await expect(dialog.getByTestId('campaign-template-buttons-0')).toHaveValue('R-{{phoneNumber}}');
  });

  test('a template with an image header: the link input (https only), the [imagem] preview, saved and shown on edit', async ({
    page,
  }) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const channelName = `Modelos Imagem E2E ${run}`;
    const channel = await connectedWabaChannel(page, fake, channelName, `secret-${run}-img-0123456789`);
    channels.push(channel.id);
    await api(page, 'POST', `/whatsapp/${channel.id}/templates/sync`);

    await page.goto('/#/campanhas');
    const screen = page.getByTestId('page-campanhas');
    await expect(screen.getByRole('heading', { name: 'Campanhas' })).toBeVisible({ timeout: 30_000 });
    await screen.getByTestId('campaign-add').click();
    const dialog = page.getByTestId('campaign-form');
    const campaignName = `Modelo Imagem ${run}`;
    await dialog.getByTestId('campaign-name').fill(campaignName);
    await dialog.getByTestId('campaign-channel').selectOption({ label: channelName });
    await dialog.getByTestId('campaign-template').selectOption({ label: 'oferta_imagem (pt_BR)' });
    await expect(dialog.getByText('Link da imagem do cabeçalho')).toBeVisible();
    await expect(dialog.getByTestId('campaign-template-preview')).toContainText('[imagem]');
    await dialog.getByTestId('campaign-template-body-0').fill('{{firstName}}');
    await dialog.getByTestId('campaign-delay').fill('0');
    await dialog.getByTestId('form-save').click();
    await expect(dialog.getByTestId('campaign-template-header-media-error')).toContainText('é obrigatório');
    await dialog.getByTestId('campaign-template-header-media').fill('http://cdn.example.com/oferta.png');
    await dialog.getByTestId('form-save').click();
    await expect(dialog.getByTestId('campaign-template-header-media-error')).toContainText('deve ser um link https:// válido');
    const link = 'https://cdn.example.com/oferta.png';
    await dialog.getByTestId('campaign-template-header-media').fill(link);
    await expect(dialog.getByTestId('campaign-template-preview')).toHaveText(
      '[imagem]\n\nOi {{firstName}}, confira a oferta da semana.',
    );
    await dialog.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Campanha salva.' })).toBeVisible();
    await expect(dialog).toBeHidden();
    const saved = ((await api(page, 'GET', '/campaigns')) as { name: string; templateVariables: unknown }[]).find(
      (c) => c.name === campaignName,
    );
    expect(saved).toMatchObject({
      templateVariables: { header: [], body: ['{{firstName}}'], buttons: [], headerMedia: { link } },
    });

    await screen.getByTestId('campaigns-table-row').filter({ hasText: campaignName }).getByTestId('campaign-more').click();
    await page.getByTestId('campaign-edit').click();
    await expect(dialog.getByTestId('campaign-template-header-media')).toHaveValue(link);
  });

  test('link contacts by importing a CSV: existing linked, new created, refused lines shown', async ({ page }) => {
    await page.goto('/#/home');
    await expect(page.getByTestId('app-menu')).toBeVisible();
    const channelName = `Importação E2E ${run}`;
    const channel = await api(page, 'POST', '/whatsapp', { type: 'waba', name: channelName, ...wabaSettingsFor(fake, `secret-${run}-9876543210`) });
    channels.push(channel.id);
    const existingName = `Carla Campanha ${run}`;
    const existingNumber = phone();
    await api(page, 'POST', '/contacts', { name: existingName, number: existingNumber });
    const campaign = await api(page, 'POST', '/campaigns', {
      name: `Importada ${run}`,
      start: new Date(Date.now() + 3600_000).toISOString(),
      message1: 'Oi',
      message2: null,
      message3: null,
      delay: 0,
      channelId: channel.id,
    });
    const newName = `Davi Importado ${run}`;
    const csv = ['Nome;Número', `${existingName};${existingNumber}`, `${newName};${phone()}`, 'Sem número;', 'Errado;12ab'].join('\n');

    await page.goto(`/#/campanhas/${campaign.id}`);
    const detail = page.getByTestId('page-campanhaContatos');
    await expect(detail.getByTestId('campaign-detail-status')).toHaveText('Pendente', { timeout: 30_000 });
    await detail.locator('#campaign-import-file').setInputFiles({ name: 'lista.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await detail.getByTestId('campaign-import-submit').click();
    const result = detail.getByTestId('campaign-import-result');
    await expect(result).toContainText('4 linha(s) lida(s): 2 vinculada(s) agora, 1 contato(s) novo(s), 0 repetida(s), 2 recusada(s).');
    await expect(result).toContainText('Linha 4: Número ausente');
    await expect(result).toContainText('Linha 5: Número inválido: 12ab');
    for (const name of [existingName, newName]) {
      await expect(detail.getByTestId('campaign-contacts-table-row').filter({ hasText: name })).toHaveCount(1);
    }
  });

  test('campaign opt-out words are edited on the general settings screen', async ({ page }) => {
    await page.goto('/#/configuracoes/geral');
    const field = page.getByTestId('setting-campaignOptOutWords');
    await expect(field).toHaveValue('SAIR, PARAR', { timeout: 30_000 });
    await expect(page.getByText('Palavras para sair das campanhas')).toBeVisible();
    await field.fill('x'.repeat(61));
    await expect(page.getByTestId('setting-campaignOptOutWords-save')).toBeDisabled();
    await field.fill('SAIR, PARAR, CANCELAR');
    await page.getByTestId('setting-campaignOptOutWords-save').click();
    await expect(toast(page).first()).toBeVisible();
    await expect
      .poll(async () => ((await api(page, 'GET', '/settings')) as { key: string; value: string }[]).find((x) => x.key === 'campaignOptOutWords')?.value)
      .toBe('SAIR, PARAR, CANCELAR');
    await page.reload();
    await expect(page.getByTestId('setting-campaignOptOutWords')).toHaveValue('SAIR, PARAR, CANCELAR', { timeout: 30_000 });
  });
});
