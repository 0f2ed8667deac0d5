import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { deliverWebhook, FakeGraphApi, inboundPayload, statusPayload } from '../fakes/graph-api.fake';
import { ARTIFACTS, startFakeGraphOnFixedPort, storageStatePath, wabaSettingsFor, api } from './e2e-support';

/**
 * The agent console against the real server and a fake WhatsApp Cloud API: the server's
 * WABA_GRAPH_BASE_URL points at the fake's fixed port (playwright.config.ts), the fake delivers
 * signed webhooks to /webhooks/waba/:channelId. An inbound message shows up live in the pending
 * tab; the agent opens and starts the ticket, replies, the fake receives the reply, the ack
 * follows the fake's delivered status, and a draft survives a reload.
 */


/** The fake on the fixed port the server was started with (start() would pick a random one). */

test.describe('agent console (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(120_000);
  let fake: FakeGraphApi;

  test.beforeAll(async () => {
    fake = await startFakeGraphOnFixedPort();
  });
  test.afterAll(async () => {
    await fake?.stop();
  });

  test('inbound live in pending, start, reply, delivered ack, draft after reload', async ({ page, baseURL }) => {
    // The browser Notification API, granted and recorded (headless Chromium shows nothing).
    await page.addInitScript(() => {
      const shown: { title: string; body?: string }[] = [];
      (window as unknown as { __notifications: typeof shown }).__notifications = shown;
      class RecordedNotification {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        constructor(title: string, options?: { body?: string }) {
          shown.push({ title, body: options?.body });
        }
      }
      (window as unknown as { Notification: unknown }).Notification = RecordedNotification;
    });
    await page.goto('/#/atendimento');
    await expect(page.getByTestId('attendance-page')).toBeVisible();
    await expect(page.getByTestId('chat-empty')).toBeVisible();

    const appSecret = `app-secret-${randomBytes(8).toString('hex')}`;
    const channel = await api(page, 'POST', '/whatsapp', {
      type: 'waba',
      name: `WABA E2E ${randomBytes(2).toString('hex')}`,
      ...wabaSettingsFor(fake, appSecret),
    });

    await page.getByTestId('tab-pending').click();
    const from = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const webhookUrl = `${baseURL}/webhooks/waba/${channel.id}`;
    const inbound = await deliverWebhook(
      webhookUrl,
      inboundPayload(fake.phoneNumberId, [{ from, name: 'Cliente Console E2E', message: { type: 'text', text: { body: 'Olá, preciso de ajuda com meu pedido' } } }]),
      appSecret,
    );
    expect(inbound.status).toBe(200);

    // Live: no reload, no refetch of the list.
    const row = page.getByTestId('ticket-row').filter({ hasText: 'Cliente Console E2E' });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await expect(row).toContainText('Olá, preciso de ajuda com meu pedido');
    await expect(row.getByTestId('unread-badge')).toHaveText('1');
    await expect(page).toHaveTitle(/^\(\d+\)/);
    await page.screenshot({ path: `${ARTIFACTS}/console-list.png` });

    await row.click();
    await expect(page.getByTestId('chat-contact-name')).toHaveText('Cliente Console E2E');
    await expect(page.getByTestId('message').filter({ hasText: 'preciso de ajuda' })).toBeVisible();
    await expect(page.getByTestId('day-separator').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
    await page.getByTestId('ticket-start').click();
    await expect(page.getByTestId('chat-status')).toHaveText('Aberto');

    await page.getByTestId('composer-input').fill('Olá! Vou verificar seu pedido agora.');
    await page.getByTestId('composer-send').click();
    const reply = page.getByTestId('message').filter({ hasText: 'Vou verificar seu pedido' });
    await expect(reply).toBeVisible();
    await expect.poll(() => fake.sentMessages().map((m) => m?.text?.body), { timeout: 20_000 }).toContain('Olá! Vou verificar seu pedido agora.');
    await expect(reply.getByTestId('message-ack')).toHaveAttribute('data-ack', 'sent', { timeout: 15_000 });

    const ticketId = Number(new URL(page.url()).hash.split('/').pop());
    const thread = await api(page, 'GET', `/messages/${ticketId}`);
    const sent = thread.messages.find((m: { body: string }) => m.body === 'Olá! Vou verificar seu pedido agora.');
    expect(sent.messageId).toBeTruthy();
    const status = await deliverWebhook(webhookUrl, statusPayload(fake.phoneNumberId, [{ id: sent.messageId, status: 'delivered', recipient: from }]), appSecret);
    expect(status.status).toBe(200);
    await expect(reply.getByTestId('message-ack')).toHaveAttribute('data-ack', 'delivered', { timeout: 15_000 });

    // A send the provider refuses (4xx) fails at once: 'Mensagem não entregue', then a retry goes out.
    fake.failNext({ status: 400, error: { message: 'Invalid parameter', code: 100 } }, { path: '/messages' });
    await page.getByTestId('composer-input').fill('Esta vai falhar na primeira vez');
    await page.getByTestId('composer-input').press('Enter');
    const failing = page.getByTestId('message').filter({ hasText: 'Esta vai falhar' });
    await expect(failing.getByTestId('message-failed')).toContainText('Mensagem não entregue', { timeout: 20_000 });
    await expect(failing.getByTestId('message-ack')).toHaveAttribute('data-ack', 'failed');
    await failing.getByTestId('message-retry').click();
    await expect(failing.getByTestId('message-ack')).toHaveAttribute('data-ack', 'sent', { timeout: 20_000 });
    await expect(failing.getByTestId('message-failed')).toHaveCount(0);

    // An image through the file picker: sent as multipart `medias`, shown inline from the private media route.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAH0lEQVR4nGP4z8DwHwdm+I8DMIwqGFUwqmBUwXBRAACKd/8BjSVJqQAAAABJRU5ErkJggg==',
      'base64',
    );
    await page.getByTestId('composer-file-input').setInputFiles({ name: 'comprovante.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByTestId('composer-files')).toContainText('comprovante.png');
    await page.getByTestId('composer-send').click();
    await expect(page.getByTestId('message-image').last()).toBeVisible({ timeout: 15_000 });
    await expect.poll(() => fake.sentMessages().some((m) => m?.type === 'image'), { timeout: 20_000 }).toBe(true);

    // Files dropped on the chat and pasted into the composer join the attachments.
    await page.evaluate(() => {
      const dropped = new DataTransfer();
      dropped.items.add(new File(['%PDF-1.4'], 'contrato.pdf', { type: 'application/pdf' }));
      document.querySelector('[data-testid="chat-panel"]')!.dispatchEvent(new DragEvent('drop', { dataTransfer: dropped, bubbles: true, cancelable: true }));
      const pasted = new DataTransfer();
      pasted.items.add(new File(['x'], 'print.png', { type: 'image/png' }));
      document.querySelector('[data-testid="composer-input"]')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: pasted, bubbles: true, cancelable: true }));
    });
    await expect(page.getByTestId('composer-files')).toContainText('contrato.pdf');
    await expect(page.getByTestId('composer-files')).toContainText('print.png');
    await page.getByTestId('composer-files').getByRole('button').first().click();
    await page.getByTestId('composer-files').getByRole('button').first().click();
    await expect(page.getByTestId('composer-files')).toHaveCount(0);

    // The customer writes again: live in the open thread, and a notification.
    await deliverWebhook(
      webhookUrl,
      inboundPayload(fake.phoneNumberId, [{ from, name: 'Cliente Console E2E', message: { type: 'text', text: { body: 'Ainda está aí?' } } }]),
      appSecret,
    );
    await expect(page.getByTestId('message').filter({ hasText: 'Ainda está aí?' })).toBeVisible({ timeout: 15_000 });
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __notifications: { body?: string }[] }).__notifications.map((n) => n.body)))
      .toContain('Ainda está aí?');
    await page.screenshot({ path: `${ARTIFACTS}/console-chat.png` });

    // Transfer to a queue: pending in that queue; the same transfer again is refused with the server's text.
    await api(page, 'POST', '/queue', { name: `Financeiro E2E ${randomBytes(2).toString('hex')}` });
    const queues: { id: number; name: string }[] = await api(page, 'GET', '/queue');
    const target = queues.find((q) => q.name.startsWith('Financeiro E2E'))!;
    // Blueprint's Dialog drops data-testid: the dialog is found by its role and title.
    const transferDialog = page.getByRole('dialog', { name: 'Transferir atendimento', exact: true });
    await page.getByTestId('ticket-transfer').click();
    await expect(transferDialog).toBeVisible();
    await page.getByTestId('transfer-queue').selectOption(String(target.id));
    await page.getByTestId('transfer-submit').click();
    await expect(transferDialog).toHaveCount(0);
    await expect(page.getByTestId('chat-status')).toHaveText('Pendente');
    await page.getByTestId('ticket-transfer').click();
    await page.getByTestId('transfer-queue').selectOption(String(target.id));
    await page.getByTestId('transfer-submit').click();
    await expect(page.getByTestId('transfer-error')).toHaveText('Ticket já pertence a esta fila e usuário.');
    await page.screenshot({ path: `${ARTIFACTS}/console-transfer-refused.png` });
    await page.keyboard.press('Escape');

    // A draft survives switching away and a reload.
    await page.getByTestId('composer-input').fill('Rascunho que não pode se perder');
    await page.goto('/#/atendimento/chats');
    await expect(page.getByTestId('chat-empty')).toBeVisible();
    await page.reload();
    await page.goto(`/#/atendimento/${ticketId}`);
    await expect(page.getByTestId('composer-input')).toHaveValue('Rascunho que não pode se perder');

    // Quick reply with no match: the error text, nothing sent.
    await page.getByTestId('composer-input').fill('/naoexiste');
    await page.getByTestId('composer-send').click();
    await expect(page.getByTestId('composer-error')).toHaveText('Nenhuma mensagem rápida encontrada para /naoexiste.');

    // Slash quick replies: several matches offer a chooser, one match sends at once (variables filled by the server).
    await api(page, 'POST', '/fastreply', { key: 'saudacao-manha', message: 'Bom dia, {{name}}!' });
    await api(page, 'POST', '/fastreply', { key: 'saudacao-tarde', message: 'Boa tarde, {{name}}!' });
    await page.getByTestId('composer-input').fill('/saud');
    await page.getByTestId('composer-send').click();
    const chooser = page.getByTestId('quick-reply-chooser');
    await expect(chooser.getByRole('menuitem')).toHaveCount(2);
    await chooser.getByText('/saudacao-tarde').click();
    await expect(page.getByTestId('message').filter({ hasText: 'Boa tarde, Cliente Console E2E!' })).toBeVisible();
    await page.getByTestId('composer-input').fill('/saudacao-manha');
    await page.getByTestId('composer-input').press('Enter');
    await expect(page.getByTestId('message').filter({ hasText: 'Bom dia, Cliente Console E2E!' })).toBeVisible();
    await expect(page.getByTestId('composer-input')).toHaveValue('');

    // 60 more customers write at once: the list stays windowed and loads the rest at its end.
    const many = Array.from({ length: 60 }, (_, i) => ({
      from: `55219${String(10_000_000 + i).padStart(8, '0')}`,
      name: `Cliente Lote ${String(i).padStart(2, '0')}`,
      message: { type: 'text', text: { body: `Mensagem ${i}` } },
    }));
    expect((await deliverWebhook(webhookUrl, inboundPayload(fake.phoneNumberId, many), appSecret)).status).toBe(200);
    await page.goto('/#/atendimento');
    await page.getByTestId('tab-pending').click();
    await expect(page.getByTestId('attendance-list-count')).toHaveText(/^6\d atendimentos/, { timeout: 20_000 });
    const list = page.getByTestId('ticket-list');
    expect(Number(await list.getAttribute('data-rendered'))).toBeLessThan(25);
    expect(await page.getByTestId('ticket-row').count()).toBeLessThan(25);
    // A fresh first page holds 40; reaching the end loads the rest by keyset cursor (the oldest comes last).
    const oldest = page.getByTestId('ticket-row').filter({ hasText: 'Cliente Lote 00' });
    await expect(async () => {
      await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await expect(oldest).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    expect(await page.getByTestId('ticket-row').count()).toBeLessThan(25);
    await page.screenshot({ path: `${ARTIFACTS}/console-list-many.png` });

    // A long thread: the newest 30 first, older ones when scrolled to the top (keyset `before`).
    const chatty = `55319${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const burst = Array.from({ length: 35 }, (_, i) => ({
      from: chatty,
      name: 'Cliente Falante',
      timestamp: Math.floor(Date.now() / 1000) - 35 + i,
      message: { type: 'text', text: { body: `Linha ${String(i + 1).padStart(2, '0')}` } },
    }));
    expect((await deliverWebhook(webhookUrl, inboundPayload(fake.phoneNumberId, burst), appSecret)).status).toBe(200);
    await page.getByTestId('ticket-search').fill('Cliente Falante');
    await page.getByTestId('ticket-row').filter({ hasText: 'Cliente Falante' }).click();
    await expect(page.getByTestId('message').filter({ hasText: 'Linha 35' })).toBeVisible({ timeout: 15_000 });
    // The thread is virtualised: the rows in the DOM are a window; data-loaded-messages counts what is loaded.
    const threadBox = page.getByTestId('message-thread');
    await expect(threadBox).toHaveAttribute('data-loaded-messages', '30');
    await expect(async () => {
      await threadBox.evaluate((el) => el.scrollTo(0, 0));
      await expect(page.getByTestId('message').filter({ hasText: 'Linha 01' })).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 15_000 });
    await expect(threadBox).toHaveAttribute('data-loaded-messages', '35');
  });
});
