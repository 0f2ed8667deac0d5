import { expect, test, type Page } from '@playwright/test';
import { ARTIFACTS, storageStatePath, toast } from './e2e-support';

/**
 * /auto-resposta against the real server, signed in as the seeded admin: a bot is created from
 * the screen with two steps and an action leading from the first to the second, then edited,
 * then its action and the bot itself are deleted after their confirmations.
 */

const NAME = `Menu E2E ${Date.now().toString(36)}`;

const card = (page: Page, name: string) => page.getByTestId('auto-reply-row').filter({ hasText: name });

/**
 * An active bot answers every new ticket of the shared e2e tenant: whatever happens in the test,
 * this spec's bots are deleted through the API at the end, so no other spec meets them.
 */
async function deleteLeftBots(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const list = await page.request.get('/auto-reply', { headers });
  if (!list.ok()) return;
  const bots = (await list.json()) as { id: number; name: string }[];
  for (const bot of bots.filter((b) => b.name?.startsWith(NAME))) await page.request.delete(`/auto-reply/${bot.id}`, { headers });
}

test.describe('auto-reply screen (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });

  test.afterEach(async ({ page }) => {
    await deleteLeftBots(page);
  });

  test('creates a bot with a step and an action, edits them, deletes with confirmation', async ({ page }) => {
    await page.goto('/#/auto-resposta');
    await expect(page.getByTestId('page-autoResposta')).toBeVisible();

    // The bot.
    await page.getByTestId('auto-reply-add').click();
    const botForm = page.getByTestId('auto-reply-form');
    await botForm.getByTestId('form-save').click();
    await expect(botForm.getByTestId('auto-reply-name-error')).toBeVisible();
    await botForm.getByLabel('Nome').fill(NAME);
    await botForm.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Auto resposta salva.' })).toBeVisible();
    await expect(card(page, NAME)).toBeVisible();

    // Two steps: the first is the initial one.
    await card(page, NAME).getByTestId('auto-reply-add-step').click();
    const stepForm = page.getByTestId('auto-reply-step-form');
    await stepForm.getByLabel('Mensagem da etapa').fill('Olá! Digite 1 para vendas.');
    await stepForm.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Etapa salva.' }).first()).toBeVisible();
    await expect(card(page, NAME).getByTestId('auto-reply-step')).toHaveCount(1);
    await expect(card(page, NAME).getByTestId('auto-reply-step-initial-tag')).toHaveCount(1);
    await card(page, NAME).getByTestId('auto-reply-add-step').click();
    await stepForm.getByLabel('Mensagem da etapa').fill('Qual produto?');
    await stepForm.getByTestId('form-save').click();
    await expect(card(page, NAME).getByTestId('auto-reply-step')).toHaveCount(2);

    // An action on the first step, leading to the second.
    const first = card(page, NAME).getByTestId('auto-reply-step').first();
    await first.getByTestId('auto-reply-add-action').click();
    const actionForm = page.getByTestId('auto-reply-action-form');
    await actionForm.getByLabel('Palavras').fill('1, vendas');
    await actionForm.getByTestId('form-save').click();
    // No next step chosen: the shared schema's message under the field.
    await expect(actionForm.getByTestId('auto-reply-action-next-step-error')).toContainText('escolha a próxima etapa');
    await actionForm.getByTestId('auto-reply-action-next-step').selectOption({ index: 1 });
    await actionForm.getByLabel('Resposta da ação').fill('Ótimo!');
    await actionForm.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Ação salva.' })).toBeVisible();
    const actionRow = first.getByTestId('auto-reply-action-row');
    await expect(actionRow).toHaveCount(1);
    await expect(actionRow).toContainText('1, vendas');
    await expect(actionRow).toContainText('Ótimo!');

    // Edit the bot and the action.
    await page.getByRole('button', { name: `Editar: ${NAME}` }).click();
    await botForm.getByLabel('Nome').fill(`${NAME} editado`);
    await botForm.getByTestId('form-save').click();
    await expect(card(page, `${NAME} editado`)).toBeVisible();
    await page.getByRole('button', { name: 'Editar: 1, vendas' }).click();
    await actionForm.getByLabel('Palavras').fill('1, comprar');
    await actionForm.getByTestId('form-save').click();
    await expect(card(page, NAME).getByTestId('auto-reply-action-row')).toContainText('1, comprar');
    await page.screenshot({ path: `${ARTIFACTS}/auto-reply.png` });

    // Delete the action, after the confirmation (cancel first: nothing goes).
    await page.getByRole('button', { name: 'Excluir: 1, comprar' }).click();
    await expect(page.getByTestId('confirm-delete-text')).toContainText('1, comprar');
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await expect(card(page, NAME).getByTestId('auto-reply-action-row')).toHaveCount(1);
    await page.getByRole('button', { name: 'Excluir: 1, comprar' }).click();
    await page.locator('.crud-delete-alert').getByRole('button', { name: 'Excluir' }).click();
    await expect(card(page, NAME).getByTestId('auto-reply-action-row')).toHaveCount(0);
    // That confirmation has finished closing (Blueprint's transition) before the next one opens.
    await expect(page.locator('.crud-delete-alert')).toHaveCount(0);

    // Delete the bot.
    await page.getByRole('button', { name: `Excluir: ${NAME} editado` }).click();
    await expect(page.getByTestId('confirm-delete-text')).toContainText(`${NAME} editado`);
    await page.locator('.crud-delete-alert').getByRole('button', { name: 'Excluir' }).click();
    await expect(toast(page).filter({ hasText: 'Excluído com sucesso.' }).first()).toBeVisible();
    await expect(card(page, NAME)).toHaveCount(0);
  });
});
