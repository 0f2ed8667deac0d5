import { expect, test, type Browser, type Page } from '@playwright/test';
import { ARTIFACTS, api, completeCaptchaWithKeyboard, fillCredentials, storageStatePath } from './e2e-support';

/**
 * The internal chat (`/chat-privado`, issue #18) with two browser contexts, two colleagues of the
 * demo tenant created for the run: a message arrives live with the unread count (conversation and
 * menu), opening it gives the sender's double tick, the typing indicator shows, a file arrives
 * (an image preview), an edit and a delete reach the other side, the tenant's message limit is
 * refused in the composer. Then a team room with both: "read by 1", and once one member is
 * removed from the team that user no longer receives the room's messages.
 */

const run = Math.random().toString(36).slice(2, 8);
const PASSWORD = 'Senha-forte1';
/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

interface Colleague {
  id: number;
  name: string;
  email: string;
}

async function signedIn(browser: Browser, user: Colleague): Promise<Page> {
  // A context of its own, without the admin session the describe's contexts start with.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/#/login');
  await fillCredentials(page, user.email, PASSWORD);
  await completeCaptchaWithKeyboard(page);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-menu')).toBeVisible();
  return page;
}

const conversationItem = (page: Page, kind: 'user' | 'team', id: number) =>
  page.locator(`[data-testid="chat-conversation"][data-kind="${kind}"][data-id="${id}"]`);

/** The message whose own text (not a quote of it) contains `text`. */
const messageWith = (page: Page, text: string) =>
  page
    .getByTestId('chat-thread')
    .getByTestId('chat-message')
    .filter({ has: page.locator('[data-testid="chat-message-body"]', { hasText: text }) });

test.describe('internal chat (two colleagues)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(180_000);

  test('message, unread count, read receipt, typing, attachment, edit, delete, limit; a team room and its membership', async ({
    page,
    browser,
  }) => {
    await page.goto('/#/chat-privado');
    const created: number[] = [];
    let teamId: number | null = null;
    try {
      const colleague = async (first: string): Promise<Colleague> => {
        const email = `${first.toLowerCase()}-${run}@demo.example.com`;
        const user = await api(page, 'POST', '/users', { name: `${first} ${run}`, email, password: PASSWORD, profile: 'user' });
        created.push(user.id);
        return { id: user.id, name: user.name, email };
      };
      const ana = await colleague('Ana');
      const bruno = await colleague('Bruno');
      const a = await signedIn(browser, ana);
      const b = await signedIn(browser, bruno);

      // Ana opens the users tab: Bruno is there, online (he is signed in).
      await a.getByTestId('menu-privateChat').click();
      await expect(a.getByTestId('page-chatPrivado')).toBeVisible();
      const brunoItem = conversationItem(a, 'user', bruno.id);
      await expect(brunoItem).toContainText(bruno.name);
      await expect(brunoItem.getByTestId('chat-presence')).toHaveAttribute('data-presence', 'online');
      await brunoItem.click();
      await expect(a.getByTestId('chat-conversation-title')).toHaveText(bruno.name);

      // Bruno is elsewhere in the app; Ana writes (Enter sends).
      const hello = `Olá Bruno ${run}`;
      const input = a.getByTestId('chat-composer-input');
      await input.fill(hello);
      await input.press('Enter');
      await expect(messageWith(a, hello)).toBeVisible();
      await expect(input).toHaveValue('');
      await expect(messageWith(a, hello).getByTestId('chat-receipt')).toHaveAttribute('data-receipt', 'sent');

      // Bruno: the menu's badge and the conversation's unread count.
      await expect(b.getByTestId('menu-privateChat-unread')).toHaveText('1');
      await b.getByTestId('menu-privateChat').click();
      const anaItem = conversationItem(b, 'user', ana.id);
      await expect(anaItem.getByTestId('chat-conversation-unread')).toHaveText('1');
      await expect(anaItem.getByTestId('chat-conversation-preview')).toHaveText(hello);

      // Bruno opens it: read; Ana sees the double tick, and the counts are gone.
      await anaItem.click();
      await expect(messageWith(b, hello)).toBeVisible();
      await expect(messageWith(a, hello).getByTestId('chat-receipt')).toHaveAttribute('data-receipt', 'read');
      await expect(anaItem.getByTestId('chat-conversation-unread')).toHaveCount(0);
      await expect(b.getByTestId('menu-privateChat-unread')).toHaveCount(0);

      // Bruno types: Ana sees it; Bruno answers with a reply to Ana's message.
      const bInput = b.getByTestId('chat-composer-input');
      await bInput.pressSequentially('Oi', { delay: 50 });
      await expect(a.getByTestId('chat-typing')).toHaveText(`${bruno.name} está digitando...`);
      await messageWith(b, hello).hover();
      await messageWith(b, hello).getByTestId('chat-message-reply').click();
      await expect(b.getByTestId('chat-composer-reply')).toContainText(ana.name);
      await bInput.fill(`Oi Ana ${run}`);
      await bInput.press('Enter');
      const answer = messageWith(a, `Oi Ana ${run}`);
      await expect(answer).toBeVisible();
      await expect(answer.getByTestId('chat-message-quote')).toContainText(hello);
      // His message arrived while Ana reads the conversation: it is read at once.
      await expect(messageWith(b, `Oi Ana ${run}`).getByTestId('chat-receipt')).toHaveAttribute('data-receipt', 'read');

      // A file: an image, shown on Bruno's side.
      await a.getByTestId('chat-composer-file-input').setInputFiles({ name: 'ponto.png', mimeType: 'image/png', buffer: PNG });
      await expect(a.getByTestId('chat-composer-file')).toContainText('ponto.png');
      await a.getByTestId('chat-composer-send').click();
      await expect(a.getByTestId('chat-composer-file')).toHaveCount(0);
      await expect(
        b.getByTestId('chat-thread').getByTestId('chat-message-media').last().getByTestId('message-image'),
      ).toBeVisible();

      // Ana edits her first message: Bruno sees the new text and the mark.
      const edited = `Olá, Bruno! ${run}`;
      await messageWith(a, hello).hover();
      await messageWith(a, hello).getByTestId('chat-message-edit').click();
      const dialog = a.getByTestId('chat-edit-dialog');
      await dialog.getByTestId('chat-edit-body').fill(edited);
      await dialog.getByTestId('chat-edit-save').click();
      await expect(dialog).toBeHidden();
      const editedOnB = messageWith(b, edited);
      await expect(editedOnB.getByTestId('chat-message-edited')).toHaveText('editada');
      await b.screenshot({ path: `${ARTIFACTS}/internal-chat-one-to-one.png` });

      // Ana deletes a message (asked first): "Mensagem apagada" on both sides.
      const oops = `Mensagem errada ${run}`;
      await input.fill(oops);
      await input.press('Enter');
      await expect(messageWith(b, oops)).toBeVisible();
      await messageWith(a, oops).hover();
      await messageWith(a, oops).getByTestId('chat-message-delete').click();
      await a.getByRole('button', { name: 'Apagar' }).last().click();
      await expect(messageWith(a, oops)).toHaveCount(0);
      await expect(messageWith(b, oops)).toHaveCount(0);
      await expect(b.getByTestId('chat-message-deleted').last()).toHaveText(/Mensagem apagada/);

      // The tenant's limit, set on the settings screen: a longer text is refused in the composer
      // with the text the server answers for it.
      await page.goto('/#/configuracoes/geral');
      await page.getByTestId('setting-internalChatMessageMax').fill('20');
      await page.getByTestId('setting-internalChatMessageMax-save').click();
      await expect(page.locator('.bp6-toast').filter({ hasText: 'Configuração salva' }).first()).toBeVisible();
      const refused = await b.request.post('/chat-interno/mensagens', {
        headers: { authorization: `Bearer ${await b.evaluate(() => localStorage.getItem('token'))}` },
        data: { kind: 'user', id: ana.id, body: 'y'.repeat(25) },
      });
      expect(refused.status()).toBe(400);
      expect((await refused.json()).message).toBe('Mensagem maior que o limite de 20 caracteres.');
      await input.fill('x'.repeat(25));
      await expect(a.getByTestId('chat-composer-counter')).toHaveText('25/20');
      await expect(a.getByTestId('chat-composer-error')).toHaveText('Mensagem maior que o limite de 20 caracteres.');
      await expect(a.getByTestId('chat-composer-send')).toBeDisabled();
      await input.press('Enter');
      await expect(messageWith(b, 'x'.repeat(25))).toHaveCount(0);
      await api(page, 'PUT', '/settings/internalChatMessageMax', { value: '4000' });
      await expect(a.getByTestId('chat-composer-counter')).toHaveText('25/4000');
      await input.fill('');

      // Search (2 letters or more, on the server): a result opens its conversation at that message.
      await b.getByTestId('chat-search').fill('o');
      await expect(b.getByTestId('chat-search-hint')).toBeVisible();
      await b.getByTestId('chat-search').fill('olá, bruno');
      const result = b.getByTestId('chat-search-result').filter({ hasText: edited });
      await expect(result).toHaveCount(1);
      await result.click();
      await expect(b.locator('.ichat-message.is-highlighted')).toContainText(edited);
      await b.getByTestId('chat-search').fill('');

      // History by keyset: 55 more messages; reopened, the newest page shows and scrolling up reads the older ones.
      const aToken = await a.evaluate(() => localStorage.getItem('token'));
      for (let n = 1; n <= 55; n += 1) {
        const sent = await a.request.post('/chat-interno/mensagens', {
          headers: { authorization: `Bearer ${aToken}` },
          data: { kind: 'user', id: bruno.id, body: `Lote ${n} ${run}`, clientId: `lote-${run}-${n}` },
        });
        expect(sent.status()).toBe(201);
      }
      await b.reload();
      await expect(messageWith(b, `Lote 55 ${run}`)).toBeVisible();
      await expect(b.getByTestId('chat-load-older')).toBeVisible();
      await expect(messageWith(b, edited)).toHaveCount(0);
      await b.getByTestId('chat-thread').evaluate((el) => (el.scrollTop = 0));
      await expect(b.getByTestId('chat-history-start')).toBeVisible();
      await expect(messageWith(b, edited)).toHaveCount(1);
      // Every message of the conversation once: the first four and the 55 (the deleted one included).
      await expect(b.getByTestId('chat-thread').getByTestId('chat-message')).toHaveCount(59);

      // A team room with both: Bruno reads Ana's message, Ana sees "lida por 1".
      const team = await api(page, 'POST', '/teams', { name: `Sala ${run}`, users: [ana.id, bruno.id] });
      teamId = team.id as number;
      await a.getByTestId('chat-tab-team').click();
      await conversationItem(a, 'team', team.id).click();
      await expect(a.getByTestId('chat-conversation-title')).toHaveText(`Sala ${run}`);
      const roomHello = `Bom dia, sala ${run}`;
      await input.fill(roomHello);
      await input.press('Enter');
      await expect(messageWith(a, roomHello).getByTestId('chat-receipt')).toHaveAttribute('data-receipt', 'sent');
      await b.getByTestId('chat-tab-team').click();
      const roomOnB = conversationItem(b, 'team', team.id);
      await expect(roomOnB.getByTestId('chat-conversation-unread')).toHaveText('1');
      await roomOnB.click();
      await expect(messageWith(b, roomHello).getByTestId('chat-message-author')).toHaveText(ana.name);
      await expect(messageWith(a, roomHello).getByTestId('chat-receipt')).toHaveText('lida por 1');
      await a.screenshot({ path: `${ARTIFACTS}/internal-chat-team.png` });

      // Bruno leaves the team: the room leaves his screen at once, and Ana's next message never reaches him.
      await api(page, 'PUT', `/teams/${team.id}`, { users: [ana.id] });
      await expect(b.getByTestId('chat-not-found')).toBeVisible();
      await expect(conversationItem(b, 'team', team.id)).toHaveCount(0);
      const afterLeaving = `Depois da saída ${run}`;
      await input.fill(afterLeaving);
      await input.press('Enter');
      await expect(messageWith(a, afterLeaving)).toBeVisible();
      await b.reload();
      await b.getByTestId('chat-tab-team').click();
      await expect(conversationItem(b, 'team', team.id)).toHaveCount(0);
      await expect(b.getByText(afterLeaving)).toHaveCount(0);
      const history = await b.request.get(`/chat-interno/mensagens/${team.id}?kind=team`, {
        headers: { authorization: `Bearer ${await b.evaluate(() => localStorage.getItem('token'))}` },
      });
      expect(history.status()).toBe(404);

      await a.context().close();
      await b.context().close();
    } finally {
      await api(page, 'PUT', '/settings/internalChatMessageMax', { value: '4000' }).catch(() => undefined);
      if (teamId !== null) await api(page, 'DELETE', `/teams/${teamId}`).catch(() => undefined);
      for (const id of created) await api(page, 'DELETE', `/users/${id}`).catch(() => undefined);
    }
  });
});
