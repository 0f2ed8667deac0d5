import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { deliverWebhook, FakeGraphApi, inboundPayload } from '../fakes/graph-api.fake';
import { startFakeGraphOnFixedPort, storageStatePath, wabaSettingsFor, api } from './e2e-support';

/**
 * WABA message templates in the agent console, against the real server and the fake Cloud API:
 * the composer shows the closed 24-hour window of a customer who wrote 25 hours ago, the Modelo
 * dialog lists the synced templates, asks for every variable, previews the text and sends it;
 * the fake gets the template with its components. A new customer message opens the window again.
 * A template with an image header asks for the image's https link and sends it as the header.
 */

test.describe('message templates (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin'), actionTimeout: 15_000 });
  test.setTimeout(120_000);
  let fake: FakeGraphApi;

  test.beforeAll(async () => {
    fake = await startFakeGraphOnFixedPort();
  });
  test.afterAll(async () => {
    await fake?.stop();
  });

  test('closed window, template dialog with variables and preview, sent with its components; the window reopens', async ({ page, baseURL }) => {
    await page.goto('/#/atendimento');
    await expect(page.getByTestId('attendance-page')).toBeVisible();
    const tag = randomBytes(3).toString('hex');
    const appSecret = `app-secret-${randomBytes(8).toString('hex')}`;
    const channel = await api(page, 'POST', '/whatsapp', { type: 'waba', name: `WABA Modelos ${tag}`, ...wabaSettingsFor(fake, appSecret) });
    try {
      await expect.poll(async () => (await api(page, 'GET', `/whatsapp/${channel.id}`)).status, { timeout: 20_000 }).toBe('CONNECTED');
      const sync = await api(page, 'POST', `/whatsapp/${channel.id}/templates/sync`);
      expect(sync.counts.total).toBe(fake.templates.length);

      const from = `55419${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const customer = `Cliente Modelos ${tag}`;
      const old = Math.floor(Date.now() / 1000) - 25 * 3600;
      const webhook = `${baseURL}/webhooks/waba/${channel.id}`;
      const first = inboundPayload(fake.phoneNumberId, [
        { from, name: customer, timestamp: old, message: { type: 'text', text: { body: `Oi de ontem ${tag}` } } },
      ]);
      expect((await deliverWebhook(webhook, first, appSecret)).status).toBe(200);
      let ticketId = 0;
      await expect
        .poll(async () => {
          const list = await api(page, 'GET', `/tickets?searchParam=${encodeURIComponent(customer)}&status=open,pending`);
          ticketId = list.tickets[0]?.id ?? 0;
          return ticketId;
        }, { timeout: 15_000 })
        .toBeGreaterThan(0);
      await api(page, 'PUT', `/tickets/${ticketId}`, { status: 'open' });

      await page.goto(`/#/atendimento/${ticketId}`);
      await expect(page.getByTestId('chat-contact-name')).toHaveText(customer);
      await expect(page.getByTestId('messaging-window')).toHaveText('Janela de 24h fechada: envie um modelo');

      await page.getByTestId('composer-template').click();
      const dialog = page.getByRole('dialog', { name: 'Enviar modelo de mensagem' });
      await dialog.getByTestId('template-select').selectOption({ label: 'pedido_enviado (pt_BR)' });
      await dialog.getByTestId('template-submit').click();
      await expect(dialog.getByTestId('template-body-0-error')).toBeVisible();
      await dialog.getByTestId('template-header-0').fill(`#${tag}`);
      await dialog.getByTestId('template-body-0').fill('Ana');
      await dialog.getByTestId('template-body-1').fill('Curitiba');
      await dialog.getByTestId('template-buttons-0').fill('RAST1');
      await expect(dialog.getByTestId('template-preview')).toHaveText(
        `Pedido #${tag}\n\nOlá Ana, seu pedido saiu para entrega em Curitiba.\n\nLoja Teste`,
      );
      await dialog.getByTestId('template-submit').click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId('message').filter({ hasText: `Pedido #${tag}` })).toBeVisible();
      await expect
        .poll(() => fake.sentMessages().find((m) => m?.to === from && m.type === 'template')?.template ?? null, { timeout: 15_000 })
        .toEqual({
          name: 'pedido_enviado',
          language: { code: 'pt_BR' },
          components: [
            { type: 'header', parameters: [{ type: 'text', text: `#${tag}` }] },
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ana' },
                { type: 'text', text: 'Curitiba' },
              ],
            },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'RAST1' }] },
          ],
        });

      // The customer answers: the composer shows the window open for 24 hours again (no reload).
      const answer = inboundPayload(fake.phoneNumberId, [
        { from, name: customer, timestamp: Math.floor(Date.now() / 1000), message: { type: 'text', text: { body: `Obrigado ${tag}` } } },
      ]);
      expect((await deliverWebhook(webhook, answer, appSecret)).status).toBe(200);
      await expect(page.getByTestId('message').filter({ hasText: `Obrigado ${tag}` })).toBeVisible();
      await expect(page.getByTestId('messaging-window')).toHaveText(/^Janela de 24h: fecha em 2[34]h \d+min$/);
    } finally {
      await api(page, 'DELETE', `/whatsapp/${channel.id}`);
    }
  });
  test('a template with an image header: the link input (https only), the [imagem] preview, sent with the header image', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/#/atendimento');
    await expect(page.getByTestId('attendance-page')).toBeVisible();
    const tag = randomBytes(3).toString('hex');
    const appSecret = `app-secret-${randomBytes(8).toString('hex')}`;
    const channel = await api(page, 'POST', '/whatsapp', {
      type: 'waba',
      name: `WABA Imagem ${tag}`,
      ...wabaSettingsFor(fake, appSecret),
    });
    try {
      await expect
        .poll(async () => (await api(page, 'GET', `/whatsapp/${channel.id}`)).status, { timeout: 20_000 })
        .toBe('CONNECTED');
      await api(page, 'POST', `/whatsapp/${channel.id}/templates/sync`);
      const from = `55419${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
      const customer = `Cliente Imagem ${tag}`;
      const hello = inboundPayload(fake.phoneNumberId, [
        {
          from,
          name: customer,
          timestamp: Math.floor(Date.now() / 1000),
          message: { type: 'text', text: { body: `Oi ${tag}` } },
        },
      ]);
      expect((await deliverWebhook(`${baseURL}/webhooks/waba/${channel.id}`, hello, appSecret)).status).toBe(200);
      let ticketId = 0;
      await expect
        .poll(
          async () => {
            const list = await api(page, 'GET', `/tickets?searchParam=${encodeURIComponent(customer)}&status=open,pending`);
            ticketId = list.tickets[0]?.id ?? 0;
            return ticketId;
          },
          { timeout: 15_000 },
        )
        .toBeGreaterThan(0);
      await api(page, 'PUT', `/tickets/${ticketId}`, { status: 'open' });

      await page.goto(`/#/atendimento/${ticketId}`);
      await expect(page.getByTestId('chat-contact-name')).toHaveText(customer);
      await page.getByTestId('composer-template').click();
      const dialog = page.getByRole('dialog', { name: 'Enviar modelo de mensagem' });
      await dialog.getByTestId('template-select').selectOption({ label: 'oferta_imagem (pt_BR)' });
      await expect(dialog.getByText('Link da imagem do cabeçalho')).toBeVisible();
      await dialog.getByTestId('template-body-0').fill('Ana');
      await dialog.getByTestId('template-submit').click();
      await expect(dialog.getByTestId('template-header-media-error')).toContainText('informe o link https:// da imagem');
      await dialog.getByTestId('template-header-media').fill('http://cdn.example.com/oferta.png');
      await dialog.getByTestId('template-submit').click();
      await expect(dialog.getByTestId('template-header-media-error')).toContainText('deve ser um link https:// válido');
      const link = `https://cdn.example.com/oferta-${tag}.png`;
      await dialog.getByTestId('template-header-media').fill(link);
      await expect(dialog.getByTestId('template-preview')).toHaveText('[imagem]\n\nOi Ana, confira a oferta da semana.');
      await dialog.getByTestId('template-submit').click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId('message').filter({ hasText: '[imagem]' })).toBeVisible();
      await expect
        .poll(() => fake.sentMessages().find((m) => m?.to === from && m.type === 'template')?.template ?? null, {
          timeout: 15_000,
        })
        .toEqual({
          name: 'oferta_imagem',
          language: { code: 'pt_BR' },
          components: [
            { type: 'header', parameters: [{ type: 'image', image: { link } }] },
            { type: 'body', parameters: [{ type: 'text', text: 'Ana' }] },
          ],
        });
    } finally {
      await api(page, 'DELETE', `/whatsapp/${channel.id}`);
    }
  });
});
