import { expect, test } from '@playwright/test';
import { storageStatePath, toast } from './e2e-support';

/**
 * Tasks (`/tarefas`, issue #18) against the real server: the dialog refuses an empty task with
 * the required-fields text; a task whose limit date has passed shows as delayed; finishing a
 * 7-day recurring task makes its next occurrence appear a week later; a comment is added and
 * listed with its author.
 */

const run = Math.random().toString(36).slice(2, 8);

/** The datetime-local text of now plus `days` (browser zone = the runner's). */
function localDateTime(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

test.describe('tasks (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(90_000);

  test('a late task shows delayed, a recurring one makes its next occurrence, and a comment is added', async ({ page }) => {
    await page.goto('/#/tarefas');
    const screen = page.getByTestId('page-tarefas');
    await expect(screen.getByRole('heading', { name: 'Tarefas' })).toBeVisible({ timeout: 30_000 });

    // Saving empty: the schema's required-fields text under the fields, and the summary.
    await screen.getByTestId('task-add').click();
    const dialog = page.getByTestId('task-form');
    await expect(dialog).toBeVisible();
    await dialog.getByTestId('form-save').click();
    await expect(dialog.getByTestId('field-name-error')).toContainText('Preencha todos os campos obrigatórios.');
    await expect(dialog.getByTestId('form-summary')).toContainText('Ops! Verifique os erros...');

    // A task whose limit date is yesterday: delayed.
    const lateName = `Atrasada ${run}`;
    await dialog.getByTestId('field-name').fill(lateName);
    await dialog.getByTestId('field-limitDate').fill(localDateTime(-1));
    await dialog.getByTestId('field-priority').selectOption('high');
    await dialog.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Tarefa salva.' }).first()).toBeVisible();
    await expect(dialog).toBeHidden();
    const lateRow = screen.getByTestId('tasks-table-row').filter({ hasText: lateName });
    await expect(lateRow.getByTestId('task-row-status')).toHaveText('Atrasada');
    await expect(lateRow.getByTestId('task-row-priority')).toHaveText('Alta');
    await screen.getByTestId('task-status-filter').selectOption('delayed');
    await expect(screen.getByTestId('tasks-table-row').filter({ hasText: lateName })).toHaveCount(1);
    await expect(screen.getByTestId('tasks-table-row').getByTestId('task-row-status').getByText('Pendente')).toHaveCount(0);
    await screen.getByTestId('task-status-filter').selectOption('');
    // The counters (POST /tasks/summary) count it as delayed.
    await expect(screen.getByTestId('task-counter-delayed')).toContainText(/Atrasada: [1-9]/);

    // A weekly task with one repetition: finishing it makes the next occurrence, a week later.
    const weeklyName = `Semanal ${run}`;
    await screen.getByTestId('task-add').click();
    await dialog.getByTestId('field-name').fill(weeklyName);
    await dialog.getByTestId('field-limitDate').fill(localDateTime(1));
    await dialog.getByTestId('field-recurrenceDays').selectOption('7');
    await dialog.getByTestId('field-repetitions').fill('1');
    await dialog.getByTestId('form-save').click();
    await expect(dialog).toBeHidden();
    const weeklyRows = screen.getByTestId('tasks-table-row').filter({ hasText: weeklyName });
    await expect(weeklyRows).toHaveCount(1);
    await expect(weeklyRows.getByTestId('task-row-status')).toHaveText('Pendente');
    await expect(weeklyRows).toContainText('A cada 7 dias (1 restantes)');
    await weeklyRows.getByTestId('task-finish').click();
    await expect(toast(page).filter({ hasText: 'Próxima ocorrência em' })).toBeVisible();
    await expect(weeklyRows).toHaveCount(2);
    await expect(weeklyRows.filter({ has: page.getByTestId('task-row-status').getByText('Concluída') })).toHaveCount(1);
    const next = weeklyRows.filter({ has: page.getByTestId('task-row-status').getByText('Pendente') });
    await expect(next).toContainText('A cada 7 dias (0 restantes)');
    const nextDate = new Date(Date.now() + 8 * 86_400_000).toLocaleDateString('pt-BR');
    await expect(next.getByTestId('task-row-date')).toContainText(nextDate);

    // A comment on the late task, listed with its author; the row counts it.
    await lateRow.getByTestId('task-comments-open').click();
    const comments = page.getByTestId('task-comments');
    await expect(comments).toBeVisible();
    await comments.getByTestId('task-comment-input').fill('Cliente pediu retorno amanhã');
    await comments.getByTestId('task-comment-add').click();
    await expect(comments.getByTestId('task-comment')).toHaveCount(1);
    await expect(comments.getByTestId('task-comment')).toContainText('Cliente pediu retorno amanhã');
    await page.keyboard.press('Escape');
    await expect(lateRow.getByTestId('task-comments-open')).toHaveText('1');

    // The reminder's link (/tarefas?task=<id>, from the bell) opens that task's comments.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const found = await page.request.get(`/tasks?searchParam=${encodeURIComponent(lateName)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const lateId = ((await found.json()) as { tasks: { id: number }[] }).tasks[0].id;
    await page.goto('/#/home');
    await page.goto(`/#/tarefas?task=${lateId}`);
    await expect(page.getByTestId('task-comments').getByTestId('task-comment')).toContainText('Cliente pediu retorno amanhã');
  });
});
