import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ARTIFACTS, loginThroughUi, storageStatePath, toast } from './e2e-support';
import { api, call, deliverInbound, liveWabaChannel, phone, suffix } from './dashboard-support';

/**
 * Chatbot flows (issue #14): a supervisor builds a two-step flow in the visual builder (a step
 * added, a message interaction, a condition made by connecting the two steps, the start step's
 * "any -> close" condition deleted after its confirmation), undoes an edit, saves and activates
 * it, exports it as a file and imports the file again; the list shows active and inactive flows,
 * duplicates and deletes after a confirmation. The last describe runs a flow against the fake
 * WhatsApp Cloud API through the engine (merged from branch chatflow-engine), started from the
 * transfer dialog's select of active flows; it skips itself on a server without the engine
 * (POST /chat-flow/:id/test is not a route).
 */

const FAREWELL = 'Obrigado, até logo!';

/** Drags from one step's right handle to another step's left handle (React Flow's connection). */
async function connect(page: Page, from: string, to: string) {
  const source = page.locator(`[data-step-id="${from}"]`).getByTestId('flow-node-source');
  const target = page.locator(`[data-step-id="${to}"]`).getByTestId('flow-node-target');
  const a = (await source.boundingBox())!;
  const b = (await target.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 15 });
  await page.mouse.up();
}

const node = (page: Page, stepId: string): Locator => page.locator(`.react-flow__node[data-id="${stepId}"]`);

/** Records Content-Security-Policy violations from the first script on (as csp.spec.ts does). */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const list: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = list;
    document.addEventListener('securitypolicyviolation', (event) =>
      list.push(`${event.effectiveDirective} blocked ${event.blockedURI}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
}

async function confirmDelete(page: Page, text: string | RegExp) {
  await expect(page.getByTestId('confirm-delete-text')).toContainText(text);
  await page.locator('.bp6-alert').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.locator('.bp6-alert')).toHaveCount(0);
}

test.describe('chat-flow builder and list (signed in as supervisor)', () => {
  test.use({ acceptDownloads: true });
  test.beforeEach(async ({ page }) => loginThroughUi(page, 'super'));

  test('build a two-step flow, save and activate it, export and re-import it; duplicate and delete in the list', async ({
    page,
  }) => {
    const name = `Atendimento E2E ${suffix()}`;
    const cspViolations = await watchCsp(page);
    await page.goto('/#/chat-flow');
    await expect(page.getByTestId('page-chatFlow')).toBeVisible();
    await page.getByTestId('chatflow-add').click();
    await expect(page.getByTestId('page-chatFlowBuilder')).toBeVisible();
    await expect(node(page, 'inicio')).toBeVisible();

    await page.getByTestId('builder-name').fill(name);
    await page.getByTestId('builder-description').fill('Boas-vindas e despedida');
    await page.getByTestId('builder-test-number').fill('5511999990001');

    // Step 2: added, named, a message, and "any answer -> close".
    await page.getByTestId('builder-add-step').click();
    await expect(node(page, 'etapa1')).toBeVisible();
    const panel = page.getByTestId('step-panel');
    await panel.getByTestId('step-name').fill('Despedida');
    await panel.getByTestId('step-apply').click();
    await expect(node(page, 'etapa1')).toContainText('Despedida');
    await panel.getByTestId('interaction-new-type').selectOption('message');
    await panel.getByTestId('interaction-add').click();
    const interactionForm = page.getByTestId('interaction-form');
    await interactionForm.getByTestId('form-save').click();
    await expect(interactionForm.getByTestId('interaction-text-error')).toBeVisible();
    await interactionForm.getByTestId('interaction-text').fill(FAREWELL);
    await interactionForm.getByTestId('form-save').click();
    await expect(panel.getByTestId('interaction-item')).toContainText(FAREWELL);
    await panel.getByTestId('condition-add').click();
    const conditionForm = page.getByTestId('condition-form');
    await conditionForm.getByTestId('condition-type').selectOption('any');
    await conditionForm.getByTestId('condition-target-type').selectOption('close');
    await conditionForm.getByTestId('form-save').click();
    await expect(panel.getByTestId('condition-item')).toContainText('Encerrar');

    // The new step is unreachable until a condition of the start leads to it.
    await expect(page.getByTestId('builder-problem')).toContainText('não é alcançável');
    await connect(page, 'inicio', 'etapa1');
    await expect(page.locator('.react-flow__edge')).toHaveCount(1);
    await expect(page.getByTestId('builder-no-problems')).toBeVisible();

    // The start's own "any -> close" would answer first: deleted after its confirmation.
    await node(page, 'inicio').click();
    await expect(panel.getByTestId('condition-item')).toHaveCount(2);
    await panel.getByTestId('condition-item').first().getByTestId('condition-delete').click();
    await confirmDelete(page, 'Excluir a condição');
    await expect(panel.getByTestId('condition-item')).toHaveCount(1);
    await expect(panel.getByTestId('condition-item')).toContainText('Despedida');
    await page.screenshot({ path: `${ARTIFACTS}/chatflow-step-panel.png` });

    // Undo: a third step comes and goes with Ctrl+Z (and the button's redo brings it back once).
    await page.getByTestId('builder-add-step').click();
    await expect(page.locator('.react-flow__node')).toHaveCount(3);
    await page.getByTestId('flow-canvas').click({ position: { x: 20, y: 20 } });
    await page.keyboard.press('Control+z');
    await expect(page.locator('.react-flow__node')).toHaveCount(2);
    await page.getByTestId('builder-redo').click();
    await expect(page.locator('.react-flow__node')).toHaveCount(3);
    await page.getByTestId('builder-undo').click();
    await expect(page.locator('.react-flow__node')).toHaveCount(2);

    // Flow settings: welcome message, no-answer time and where such a ticket goes.
    await page.getByTestId('builder-settings').click();
    const settings = page.getByTestId('settings-panel');
    await settings.getByTestId('settings-welcome').fill('Bem-vindo!');
    await settings.getByTestId('settings-no-answer').fill('5');
    await settings.getByTestId('settings-no-answer-target-type').selectOption('close');
    await settings.getByTestId('settings-max-attempts').fill('99');
    await settings.getByTestId('settings-apply').click();
    await expect(settings.getByTestId('settings-max-attempts-error')).toContainText('no máximo 10');
    await settings.getByTestId('settings-max-attempts').fill('2');
    await settings.getByTestId('settings-apply').click();
    await expect(settings.getByTestId('settings-max-attempts-error')).toHaveCount(0);

    // Save active.
    await page.getByTestId('builder-active').locator('..').click();
    await expect(page.getByTestId('builder-active')).toBeChecked();
    await page.getByTestId('builder-save').click();
    await expect(toast(page).filter({ hasText: 'Fluxo salvo.' })).toBeVisible();
    await expect(page).toHaveURL(/chat-flow\/builder\?id=\d+/);
    await expect(page.getByTestId('builder-dirty')).toHaveCount(0);
    // The first save of a new flow keeps the editor (and what can be undone).
    await expect(page.getByTestId('builder-undo')).toBeEnabled();
    await page.screenshot({ path: `${ARTIFACTS}/chatflow-builder.png` });
    // "Testar" asks the engine to run the saved flow for the test number; whatever it answers is said in the builder.
    await page.getByTestId('builder-test').click();
    await expect(page.getByTestId('builder-test-outcome')).not.toBeEmpty();

    // Export: the file is the flow as built.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('builder-export').click()]);
    expect(download.suggestedFilename()).toMatch(/^fluxo-atendimento-e2e-[a-f0-9]+\.json$/);
    const exportedPath = `${ARTIFACTS}/chatflow-export.json`;
    await download.saveAs(exportedPath);
    const exported = JSON.parse(readFileSync(exportedPath, 'utf8'));
    expect(exported).toMatchObject({ kind: 'chatflow', name, description: 'Boas-vindas e despedida' });
    expect(exported.flow.steps.map((s: { name: string }) => s.name)).toEqual(['Início', 'Despedida']);
    expect(exported.flow.steps[0].conditions).toEqual([{ id: 'c2', type: 'any', target: { type: 'step', stepId: 'etapa1' } }]);
    expect(exported.flow.steps[1].interactions).toEqual([{ id: 'i1', type: 'message', text: FAREWELL }]);
    expect(exported.flow.settings).toMatchObject({
      welcomeMessage: 'Bem-vindo!',
      noAnswerMinutes: 5,
      noAnswerTarget: { type: 'close' },
      maxAttempts: 2,
    });

    // The builder's chunk (React Flow and its styles) runs under the app's CSP.
    expect(await cspViolations()).toEqual([]);

    // The list: active, then the re-imported file arrives inactive.
    await page.getByTestId('builder-back').click();
    const rows = page.getByTestId('chatflow-table-row').filter({ hasText: name });
    await expect(rows).toHaveCount(1);
    await expect(rows.getByTestId('chatflow-row-active')).toBeChecked();
    await page.getByTestId('chatflow-import-file').setInputFiles(exportedPath);
    await expect(toast(page).filter({ hasText: 'importado (inativo)' })).toBeVisible();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1).getByTestId('chatflow-row-active')).not.toBeChecked();

    // A file that is not a valid flow is refused with the path of each problem.
    const broken = { ...exported, flow: { ...exported.flow, steps: [{ ...exported.flow.steps[0], name: '' }] } };
    await page
      .getByTestId('chatflow-import-file')
      .setInputFiles({ name: 'quebrado.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
    await expect(page.getByTestId('flow-issue')).toContainText('flow.steps.0.name');
    await page.getByTestId('flow-issues-close').click();

    // Duplicate: an inactive copy; then delete the copy after the confirmation.
    await rows.first().getByTestId('chatflow-duplicate').click();
    const copy = page.getByTestId('chatflow-table-row').filter({ hasText: `${name} (cópia)` });
    await expect(copy).toHaveCount(1);
    await expect(copy.getByTestId('chatflow-row-active')).not.toBeChecked();
    await page.screenshot({ path: `${ARTIFACTS}/chatflow-list.png` });
    await copy.getByTestId('chatflow-delete').click();
    await confirmDelete(page, `${name} (cópia)`);
    await expect(copy).toHaveCount(0);

    // Switching the imported copy off and on from the list (its graph is runnable).
    await rows.nth(1).getByTestId('chatflow-row-active').locator('..').click();
    await expect(toast(page).filter({ hasText: 'Fluxo ativado.' })).toBeVisible();
    await expect(rows.nth(1).getByTestId('chatflow-row-active')).toBeChecked();
  });

  test('activation is refused while the flow has problems, and the problems are listed', async ({ page }) => {
    await page.goto('/#/chat-flow/builder');
    await page.getByTestId('builder-name').fill(`Rascunho E2E ${suffix()}`);
    await page.getByTestId('builder-add-step').click();
    await page.getByTestId('builder-active').locator('..').click();
    await expect(page.getByTestId('flow-issue')).toContainText('não é alcançável');
    await page.getByTestId('flow-issues-close').click();
    await expect(page.getByTestId('builder-active')).not.toBeChecked();
    // Leaving with unsaved changes asks first; staying keeps the editor.
    await page.getByTestId('builder-back').click();
    await expect(page.getByTestId('builder-leave-text')).toBeVisible();
    await page.locator('.bp6-alert').getByRole('button', { name: 'Cancelar' }).click();
    await expect(page.getByTestId('page-chatFlowBuilder')).toBeVisible();
    // Saved as an inactive draft; then leaving asks nothing.
    await page.getByTestId('builder-save').click();
    await expect(toast(page).filter({ hasText: 'Fluxo salvo.' })).toBeVisible();
    await page.getByTestId('builder-back').click();
    await expect(page.getByTestId('page-chatFlow')).toBeVisible();
  });
});

test.describe('transfer dialog (signed in as agent)', () => {
  test.beforeEach(async ({ page }) => loginThroughUi(page, 'user'));

  test('agents read the active flows for "transfer to chatbot" and nothing more', async ({ page }) => {
    await page.goto('/#/atendimento');
    const active = await call(page, 'GET', '/chat-flow?active=true');
    expect(active.status).toBe(200);
    for (const flow of active.body as { id: number; name: string; active: boolean }[])
      expect(Object.keys(flow).sort()).toEqual(['active', 'id', 'name']);
    expect((await call(page, 'GET', '/chat-flow')).status).toBe(403);
  });
});

/**
 * End to end through the engine: a flow transferred to a customer's ticket greets them over the
 * Cloud API fake, and their answer takes the second step. Needs the engine (chatflow-engine).
 */
test.describe('a flow runs against the Cloud API fake (needs the engine)', () => {
  test.use({ storageState: storageStatePath('admin') });
  const live = liveWabaChannel('/chat-flow');

  test('the start step greets, any answer goes to the farewell step', async ({ page, baseURL }) => {
    await page.goto('/#/chat-flow');
    const greeting = `Olá! Responda qualquer coisa ${suffix()}`;
    const farewell = `${FAREWELL} ${suffix()}`;
    const flow = await api(page, 'POST', '/chat-flow', {
      name: `Fluxo motor E2E ${suffix()}`,
      active: true,
      testNumber: phone(),
      flow: {
        startStepId: 'inicio',
        steps: [
          {
            id: 'inicio',
            name: 'Início',
            interactions: [{ id: 'i1', type: 'message', text: greeting }],
            conditions: [{ id: 'c1', type: 'any', target: { type: 'step', stepId: 'fim' } }],
          },
          {
            id: 'fim',
            name: 'Despedida',
            interactions: [{ id: 'i1', type: 'message', text: farewell }],
            conditions: [{ id: 'c1', type: 'any', target: { type: 'close' } }],
          },
        ],
      },
    });
    const channel = await live.channel(page, 'Chatflow E2E');
    const from = phone();
    const contactName = `Cliente Fluxo ${suffix()}`;
    await deliverInbound(baseURL!, live.fake, channel, from, contactName, 'Oi');
    let ticketId = 0;
    await expect
      .poll(
        async () => {
          const list = (await api(page, 'GET', `/tickets?searchParam=${from}&showAll=true&status=pending`)).tickets as {
            id: number;
          }[];
          ticketId = list[0]?.id ?? 0;
          return ticketId;
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);

    // Transfer to the chatbot through the dialog's select of active flows.
    await page.goto(`/#/atendimento/${ticketId}`);
    await page.getByTestId('ticket-transfer').click();
    await page.getByTestId('transfer-tab-chatbot').click();
    await page.getByTestId('transfer-chatflow').selectOption(String(flow.id));
    await page.getByTestId('transfer-submit').click();

    const texts = (to: string) => () =>
      live.fake
        .sentMessages()
        .filter((m) => m.to === to)
        .map((m) => m.text?.body as string | undefined);
    await expect.poll(texts(from), { timeout: 15_000 }).toContain(greeting);
    await deliverInbound(baseURL!, live.fake, channel, from, contactName, 'qualquer coisa');
    await expect.poll(texts(from), { timeout: 15_000 }).toContain(farewell);

    // The connection's chatbot flow, chosen in the connection form: a new customer's first message starts it by itself.
    await page.goto('/#/sessoes');
    const card = page.locator(`[data-testid="channel-card"][data-channel-id="${channel.id}"]`);
    await card.getByTestId('channel-more').click();
    await page.getByTestId('channel-edit').click();
    await page.getByTestId('channel-chatflow').selectOption(String(flow.id));
    await page.getByTestId('form-save').click();
    await expect(page.getByTestId('channel-form')).toHaveCount(0);
    expect((await api(page, 'GET', `/whatsapp/${channel.id}`)).chatFlowId).toBe(flow.id);
    try {
      const newcomer = phone();
      await deliverInbound(baseURL!, live.fake, channel, newcomer, `Cliente Novo ${suffix()}`, 'Bom dia');
      await expect.poll(texts(newcomer), { timeout: 15_000 }).toContain(greeting);
    } finally {
      await api(page, 'PUT', `/whatsapp/${channel.id}`, { chatFlowId: null });
    }
  });
});
