import { randomBytes } from 'node:crypto';
import { expect, test, type Locator } from '@playwright/test';
import { deliverWebhook, FakeGraphApi, inboundPayload } from '../fakes/graph-api.fake';
import { ARTIFACTS, startFakeGraphOnFixedPort, storageStatePath, wabaSettingsFor, api } from './e2e-support';

/**
 * The agent console's composer and message tools against the real server and the fake WhatsApp
 * Cloud API: interactive-button limits, a scheduled message, forwarding (the 10-message limit and
 * one destination found by a 2-letter search), reply, reaction, edit (a ghost note; the Cloud API
 * refuses edits of sent messages), delete, search, the emoji picker and a refused microphone.
 * The spec makes its own channel, contacts and ticket (the e2e tenant is shared by every spec) and
 * removes its channel at the end, so the tenant's connection limit is not used up.
 */


const randomNumber = (prefix: string) => `${prefix}${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

/** Opens the per-message menu of a message row. */
async function openMenu(message: Locator) {
  // The previous menu has finished closing (Blueprint's popover transition).
  await expect(message.page().getByTestId('message-menu')).toHaveCount(0);
  await message.hover();
  await message.getByTestId('message-menu-button').click();
  await expect(message.page().getByTestId('message-menu')).toBeVisible();
}

test.describe('agent console composer (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin'), actionTimeout: 15_000 });
  test.setTimeout(180_000);
  let fake: FakeGraphApi;

  test.beforeAll(async () => {
    fake = await startFakeGraphOnFixedPort();
  });
  test.afterAll(async () => {
    await fake?.stop();
  });

  test('buttons limits, schedule, forward limit, reply, reaction, edit, delete, search, emoji, microphone refused', async ({ page, baseURL }) => {
    // The microphone is refused, as when the agent blocks it in the browser.
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'mediaDevices', {
        configurable: true,
        value: { getUserMedia: () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')) },
      });
    });
    await page.goto('/#/atendimento');
    await expect(page.getByTestId('attendance-page')).toBeVisible();

    const tag = randomBytes(3).toString('hex');
    const appSecret = `app-secret-${randomBytes(8).toString('hex')}`;
    const channel = await api(page, 'POST', '/whatsapp', {
      type: 'waba',
      name: `WABA Composer ${tag}`,
      ...wabaSettingsFor(fake, appSecret),
    });
    const token = await page.evaluate(() => localStorage.getItem('token'));
    try {
      await expect
        .poll(async () => (await api(page, 'GET', `/whatsapp/${channel.id}`)).status, { timeout: 20_000 })
        .toBe('CONNECTED');

      // A customer writes 12 messages; the ticket is started through the API (the list is covered elsewhere).
      const from = randomNumber('55419');
      const customer = `Cliente Composer ${tag}`;
      const now = Math.floor(Date.now() / 1000);
      const lines = Array.from({ length: 12 }, (_, i) => ({
        from,
        name: customer,
        timestamp: now - 60 + i,
        message: { type: 'text', text: { body: `Pergunta ${String(i + 1).padStart(2, '0')} ${tag}` } },
      }));
      expect((await deliverWebhook(`${baseURL}/webhooks/waba/${channel.id}`, inboundPayload(fake.phoneNumberId, lines), appSecret)).status).toBe(200);
      let ticketId = 0;
      await expect
        .poll(async () => {
          const list = await api(page, 'GET', `/tickets?searchParam=${encodeURIComponent(customer)}&status=open,pending`);
          ticketId = list.tickets[0]?.id ?? 0;
          return ticketId;
        }, { timeout: 15_000 })
        .toBeGreaterThan(0);
      await api(page, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
      const destination = await api(page, 'POST', '/contacts', { name: `Destino Encaminhar ${tag}`, number: randomNumber('55519') });

      await page.goto(`/#/atendimento/${ticketId}`);
      await expect(page.getByTestId('chat-contact-name')).toHaveText(customer);
      const message = (text: string) => page.getByTestId('message').filter({ hasText: text });
      // The customer's own rows (a reply quoting one also contains its text).
      const customerMessage = (text: string) => page.locator('[data-testid="message"].from-contact').filter({ hasText: text });
      await expect(message(`Pergunta 12 ${tag}`)).toBeVisible();

      // Interactive buttons: the limits show their messages; a valid one reaches the fake.
      await page.getByTestId('composer-buttons').click();
      const buttons = page.getByRole('dialog', { name: 'Mensagem com botões interativos' });
      await buttons.getByTestId('buttons-text').fill('x'.repeat(61));
      await expect(buttons.getByTestId('buttons-text-error')).toHaveText('O texto deve ter de 1 a 60 caracteres.');
      await buttons.getByTestId('buttons-title-0').fill('Um botão com mais de vinte');
      await expect(buttons.getByTestId('buttons-title-error-0')).toHaveText('O botão deve ter no máximo 20 caracteres.');
      await buttons.getByTestId('buttons-add').click();
      await buttons.getByTestId('buttons-title-0').fill('Sim');
      await buttons.getByTestId('buttons-title-1').fill('sim');
      await expect(buttons.getByTestId('buttons-title-error-1')).toHaveText('Os botões devem ter textos diferentes.');
      await buttons.getByTestId('buttons-submit').click();
      await expect(buttons).toBeVisible();
      await buttons.getByTestId('buttons-text').fill('');
      await buttons.getByTestId('buttons-title-1').fill('Não');
      await expect(buttons.getByTestId('buttons-text-error')).toHaveText('Informe o texto (de 1 a 60 caracteres).');
      await page.screenshot({ path: `${ARTIFACTS}/console-buttons-limits.png` });
      await buttons.getByTestId('buttons-text').fill(`Confirma o pedido ${tag}?`);
      await buttons.getByTestId('buttons-submit').click();
      await expect(buttons).toHaveCount(0);
      await expect(message(`Confirma o pedido ${tag}?`).getByTestId('message-buttons')).toContainText('Sim');
      await expect
        .poll(() => fake.sentMessages().find((m) => m?.type === 'interactive')?.interactive?.action?.buttons?.map((b: { reply: { title: string } }) => b.reply.title), {
          timeout: 20_000,
        })
        .toEqual(['Sim', 'Não']);

      // Schedule (the /agendamentos form, for this ticket): the date is required; the "tomorrow"
      // shortcut fills 09:00 in the tenant's zone; the thread marks it.
      await page.getByTestId('composer-input').fill(`Lembrete agendado ${tag}`);
      await page.getByTestId('composer-schedule').click();
      const schedule = page.getByRole('dialog', { name: 'Agendar mensagem' });
      await expect(schedule.getByTestId('schedule-body')).toHaveValue(`Lembrete agendado ${tag}`);
      await expect(schedule.getByTestId('schedule-contact-search')).toHaveCount(0);
      await schedule.getByTestId('form-save').click();
      await expect(schedule.getByTestId('schedule-date-error')).toHaveText('Informe a data e a hora.');
      await schedule.getByTestId('schedule-shortcut-tomorrow').click();
      await expect(schedule.getByTestId('schedule-date')).toHaveValue(/T09:00$/);
      await schedule.getByTestId('form-save').click();
      await expect(schedule).toHaveCount(0);
      const scheduled = message(`Lembrete agendado ${tag}`);
      await expect(scheduled).toHaveAttribute('data-status', 'scheduled');
      await expect(scheduled.getByTestId('message-scheduled')).toContainText(/Agendada para \d{2}\/\d{2}\/\d{4} 09:00/);
      await expect(page.getByTestId('composer-input')).toHaveValue('');
      const listed = await api(page, 'GET', '/scheduleMessages/');
      expect(listed.messages.some((m: { body: string }) => m.body === `Lembrete agendado ${tag}`)).toBe(true);

      // A second scheduled message, canceled from its menu: it leaves the thread.
      await page.getByTestId('composer-input').fill(`Agendamento cancelado ${tag}`);
      await page.getByTestId('composer-schedule').click();
      await schedule.getByTestId('schedule-shortcut-in30Minutes').click();
      await schedule.getByTestId('form-save').click();
      const canceled = message(`Agendamento cancelado ${tag}`);
      await expect(canceled).toHaveAttribute('data-status', 'scheduled');
      await openMenu(canceled);
      await page.getByTestId('menu-cancel-schedule').click();
      await expect(canceled).toHaveCount(0);

      // Reaction on the customer's message: shown in the thread and sent to the fake.
      const first = message(`Pergunta 01 ${tag}`);
      await openMenu(first);
      await page.getByTestId('react-👍').click();
      await expect(first.getByTestId('message-reaction')).toHaveText('👍');
      await expect.poll(() => fake.sentMessages().find((m) => m?.type === 'reaction')?.reaction?.emoji, { timeout: 20_000 }).toBe('👍');

      // Reply with a quote.
      await openMenu(message(`Pergunta 02 ${tag}`));
      await page.getByTestId('menu-reply').click();
      await expect(page.getByTestId('composer-reply')).toContainText(`Pergunta 02 ${tag}`);
      await page.getByTestId('composer-input').fill(`Respondendo a segunda ${tag}`);
      await page.getByTestId('composer-input').press('Enter');
      const reply = message(`Respondendo a segunda ${tag}`);
      await expect(reply.getByTestId('message-quoted')).toContainText(`Pergunta 02 ${tag}`);
      await expect(page.getByTestId('composer-reply')).toHaveCount(0);
      await expect
        .poll(() => fake.sentMessages().find((m) => m?.text?.body === `Respondendo a segunda ${tag}`)?.context?.message_id, { timeout: 20_000 })
        .toBeTruthy();

      // Edit: the Cloud API cannot edit a sent message (the refusal shows); a ghost note is edited in place.
      await expect(reply.getByTestId('message-ack')).toHaveAttribute('data-ack', 'sent', { timeout: 20_000 });
      await openMenu(reply);
      await page.getByTestId('menu-edit').click();
      await page.getByTestId('edit-body').fill(`Resposta corrigida ${tag}`);
      await page.getByTestId('edit-submit').click();
      await expect(page.getByTestId('edit-error')).toHaveText('Esta operação não é suportada por este tipo de conexão.');
      const editDialog = page.getByRole('dialog', { name: 'Editar mensagem' });
      await editDialog.getByRole('button', { name: 'Cancelar' }).click();
      await expect(editDialog).toHaveCount(0);

      await page.getByTestId('composer-ghost').click();
      await page.getByTestId('composer-input').fill(`Nota interna ${tag}`);
      await page.getByTestId('composer-send').click();
      const note = message(`Nota interna ${tag}`);
      await expect(note.getByTestId('message-private')).toBeVisible();
      await page.getByTestId('composer-ghost').click();
      await openMenu(note);
      await page.getByTestId('menu-edit').click();
      await page.getByTestId('edit-body').fill(`Nota interna revisada ${tag}`);
      await page.getByTestId('edit-submit').click();
      const edited = message(`Nota interna revisada ${tag}`);
      await expect(edited.getByTestId('message-edited')).toHaveText('Editada');
      expect(fake.sentMessages().some((m) => JSON.stringify(m).includes(`Nota interna ${tag}`))).toBe(false);

      // Delete the note: the thread marks it deleted (its id read first: a deleted row no longer shows its text).
      const editedId = await edited.getAttribute('data-message-id');
      await openMenu(edited);
      await page.getByTestId('menu-delete').click();
      await page.getByRole('button', { name: 'Apagar' }).click();
      await expect(page.locator(`[data-message-id="${editedId}"]`).getByTestId('message-deleted')).toBeVisible();

      // Forward: at most 10 messages, one contact found from 2 letters.
      await page.getByTestId('composer-forward').click();
      await expect(page.getByTestId('forward-bar')).toBeVisible();
      for (let i = 1; i <= 10; i++) await customerMessage(`Pergunta ${String(i).padStart(2, '0')} ${tag}`).locator('label.message-select').click();
      await expect(page.getByTestId('forward-count')).toHaveText('10 mensagens selecionadas');
      await customerMessage(`Pergunta 11 ${tag}`).locator('label.message-select').click();
      await expect(page.getByTestId('forward-limit')).toHaveText('Permitido no máximo 10 mensagens.');
      await expect(page.getByTestId('forward-count')).toHaveText('10 mensagens selecionadas');
      await expect(customerMessage(`Pergunta 11 ${tag}`).getByRole('checkbox')).not.toBeChecked();
      await page.screenshot({ path: `${ARTIFACTS}/console-forward-limit.png` });
      for (let i = 3; i <= 10; i++) await customerMessage(`Pergunta ${String(i).padStart(2, '0')} ${tag}`).locator('label.message-select').click();
      await expect(page.getByTestId('forward-count')).toHaveText('2 mensagens selecionadas');
      await page.getByTestId('forward-open').click();
      const forward = page.getByRole('dialog', { name: 'Encaminhar mensagens' });
      await forward.getByTestId('contact-picker-search').fill('D');
      await expect(forward.getByTestId('contact-picker-hint')).toHaveText('Digite ao menos 2 letras para buscar.');
      await forward.getByTestId('contact-picker-search').fill(`Destino Encaminhar ${tag}`);
      await forward.getByTestId('contact-picker-option').filter({ hasText: `Destino Encaminhar ${tag}` }).click();
      await forward.getByTestId('forward-submit').click();
      await expect(forward).toHaveCount(0);
      await expect(page.getByTestId('forward-bar')).toHaveCount(0);
      await expect
        .poll(
          () =>
            fake
              .sentMessages()
              .filter((m) => m?.to === destination.number)
              .map((m) => m?.text?.body),
          { timeout: 20_000 },
        )
        .toEqual(expect.arrayContaining([`Pergunta 01 ${tag}`, `Pergunta 02 ${tag}`]));

      // A contact card: the destination contact as a vCard file, uploaded to the fake as a document.
      await page.getByTestId('composer-contact-card').click();
      const card = page.getByRole('dialog', { name: 'Enviar cartão de contato' });
      await card.getByTestId('contact-picker-search').fill(`Destino Encaminhar ${tag}`);
      await card.getByTestId('contact-picker-option').filter({ hasText: `Destino Encaminhar ${tag}` }).click();
      await card.getByTestId('contact-card-submit').click();
      await expect(card).toHaveCount(0);
      await expect(message(`Destino-Encaminhar-${tag}.vcf`)).toBeVisible();
      await expect
        .poll(() => fake.sentMessages().find((m) => m?.type === 'document' && m?.document?.filename === `Destino-Encaminhar-${tag}.vcf`), { timeout: 20_000 })
        .toBeTruthy();

      // Search the thread and jump to a result.
      await page.getByTestId('composer-search').click();
      await page.getByTestId('message-search-input').fill(`Pergunta 07 ${tag}`);
      const result = page.getByTestId('message-search-result').filter({ hasText: `Pergunta 07 ${tag}` });
      await expect(result).toBeVisible({ timeout: 10_000 });
      await result.click();
      await expect(customerMessage(`Pergunta 07 ${tag}`)).toHaveClass(/is-highlighted/);
      await page.getByTestId('message-search-input').press('Escape');

      // Emoji into the composer, at the caret.
      await page.getByTestId('composer-input').fill('Obrigado ');
      await page.getByTestId('composer-emoji').click();
      await page.getByTestId('emoji-picker').getByText('🙏').click();
      await expect(page.getByTestId('composer-input')).toHaveValue('Obrigado 🙏');

      // Microphone refused.
      await page.getByTestId('composer-record').click();
      await expect(page.getByTestId('audio-error')).toHaveText('Permissão de microfone negada');
      await expect(page.getByTestId('audio-recording')).toHaveCount(0);
      await page.screenshot({ path: `${ARTIFACTS}/console-composer.png` });
    } finally {
      await page.request.fetch(`/whatsapp/${channel.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
    }
  });
});
