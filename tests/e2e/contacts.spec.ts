import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ARTIFACTS, hashPath, storageStatePath, toast, api } from './e2e-support';

/**
 * The contacts screen against the real server, signed in as the seeded admin: create, edit and
 * delete through the form; a CSV import followed live to its exact report; CSV and XLSX exports
 * of the current filter read back; duplicate removal, the phone sync refusal, chat mode. The
 * list, the edit dialog and the import report are photographed into tests/artifacts.
 */

/** Blueprint switches hide their input under the drawn indicator: click the label around it. */
const toggle = (input: Locator) => input.locator('xpath=..').click();

const rowOf = (page: Page, name: string) => page.getByTestId('contact-row').filter({ hasText: name });

test.describe('contacts (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  // Whole flows against a real server on a machine shared with other builds: generous budgets.
  test.setTimeout(120_000);

  test('create, edit and delete a contact through the form', async ({ page }) => {
    await page.goto('/#/home');
    await api(page, 'POST', '/tags', { name: 'Cliente VIP', color: '#d6336c' });
    await api(page, 'POST', '/tags', { name: 'Suporte', color: '#1c7ed6' });
    await api(page, 'POST', '/kanban', { name: 'Negociação', color: '#2f9e44' });

    await page.goto('/#/contatos');
    await expect(page.getByTestId('page-contatos')).toBeVisible();
    await page.getByTestId('contact-add').click();
    const form = page.getByTestId('contact-form');
    await form.getByTestId('contact-field-name').fill('Maria Souza E2E');
    await form.getByTestId('contact-field-number').fill('(11) 98765-4321');
    await form.getByTestId('contact-field-email').fill('maria.e2e@exemplo.com.br');
    await form.getByTestId('contact-field-cpfCnpj').fill('123.456.789-00');
    // Portuguese date entry: the slashes come by themselves.
    await form.getByTestId('contact-field-birthday').pressSequentially('17051990');
    await expect(form.getByTestId('contact-field-birthday')).toHaveValue('17/05/1990');
    await form.getByTestId('contact-field-kanban').selectOption({ label: 'Negociação' });
    await form.getByTestId('contact-field-tags').getByText('Cliente VIP').click();
    await form.getByTestId('contact-field-wallets').getByText('Administrador Demo').click();
    await form.getByTestId('contact-extra-add').click();
    await form.getByLabel('Campo 1').fill('Plano');
    await form.getByLabel('Valor 1').fill('Ouro');

    // The check digits are verified before anything is sent.
    await form.getByTestId('form-save').click();
    await expect(form.getByTestId('contact-group-cpfCnpj')).toContainText('CPF/CNPJ inválido: confira os dígitos.');
    await form.getByTestId('contact-field-cpfCnpj').fill('529.982.247-25');
    await form.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Contato salvo.' })).toBeVisible();
    // Other specs fill the shared e2e tenant with contacts: find this one by the search.
    await page.getByTestId('contacts-search').fill('Maria Souza');
    const row = rowOf(page, 'Maria Souza E2E');
    await expect(row).toBeVisible();
    await expect(row.getByTestId('contact-number')).toHaveText('+55 (11) 98765-4321');
    await expect(row.getByTestId('tag-chip')).toHaveText('Cliente VIP');
    await expect(row).toContainText('Administrador Demo');

    // The same person typed the old way (8 digits) is the same number: refused on the number field.
    await page.getByTestId('contact-add').click();
    await form.getByTestId('contact-field-name').fill('Maria de Novo');
    await form.getByTestId('contact-field-number').fill('11 8765-4321');
    await form.getByTestId('form-save').click();
    await expect(form.getByTestId('contact-group-number')).toContainText('Já existe um contato com este número.');
    await form.getByRole('button', { name: 'Cancelar' }).click();

    // Edit: every stored value comes back formatted; change some and save.
    // The photograph of the dialog should not carry the toasts of the steps before.
    await expect(toast(page)).toHaveCount(0, { timeout: 15_000 });
    await row.getByTestId('row-edit').click();
    await expect(form.getByTestId('contact-field-cpfCnpj')).toHaveValue('529.982.247-25');
    await expect(form.getByTestId('contact-field-birthday')).toHaveValue('17/05/1990');
    await expect(form.getByTestId('contact-field-number')).toHaveValue('+55 (11) 98765-4321');
    await form.getByTestId('contact-field-businessName').fill('Loja da Maria');
    await form.getByTestId('contact-field-instagramId').fill('maria.loja');
    await form.getByTestId('contact-field-tags').getByText('Suporte').click();
    await toggle(form.getByTestId('contact-field-blockChatbot'));
    // Tall enough for the whole dialog in the photograph.
    await page.setViewportSize({ width: 1280, height: 1500 });
    await form.locator('.bp6-dialog-body').evaluate((body) => body.scrollTo(0, 0));
    await page.screenshot({ path: `${ARTIFACTS}/contacts-edit-dialog.png` });
    await page.setViewportSize({ width: 1280, height: 800 });
    await form.getByTestId('form-save').click();
    await expect(toast(page).filter({ hasText: 'Contato salvo.' }).first()).toBeVisible();
    await expect(form).toBeHidden();
    await expect(row).toContainText('Loja da Maria');
    await expect(row.getByTestId('tag-chip')).toHaveText(['Cliente VIP', 'Suporte']);
    await expect(row.getByTestId('block-chatbot-switch')).toBeChecked();

    // The block switch of the row writes at once and survives a reload.
    const blocked = page.waitForResponse((r) => r.url().endsWith('/block') && r.request().method() === 'PUT');
    await toggle(row.getByTestId('block-contact-switch'));
    expect((await blocked).ok()).toBe(true);
    await page.reload();
    await page.getByTestId('contacts-search').fill('Maria Souza');
    await expect(rowOf(page, 'Maria Souza E2E').getByTestId('block-contact-switch')).toBeChecked();
    const stored = (await api(page, 'GET', '/contacts?searchParam=Maria%20Souza%20E2E')).contacts[0];
    expect(stored).toMatchObject({
      number: '5511987654321',
      cpfCnpj: '52998224725',
      birthday: '1990-05-17',
      businessName: 'Loja da Maria',
      instagramId: 'maria.loja',
      blockContact: true,
      blockChatbot: true,
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
    });

    // A few more rows for the list photograph, then delete Maria.
    await api(page, 'POST', '/contacts', { name: 'João Pereira', number: '+44 7911 123456', email: 'joao@exemplo.co.uk' });
    await api(page, 'POST', '/contacts', { name: 'Ana Lima', number: '21 99876-5432', businessName: 'Padaria Lima' });
    await page.reload();
    await page.getByTestId('contacts-search').fill('João Pereira');
    await expect(rowOf(page, 'João Pereira').getByTestId('contact-number')).toHaveText('+44 7911 123456');
    await expect(page.locator('.loading-overlay')).toHaveCount(0);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${ARTIFACTS}/contacts-list.png` });

    await page.getByTestId('contacts-search').fill('Maria Souza');
    await rowOf(page, 'Maria Souza E2E').getByTestId('row-delete').click();
    await expect(page.getByTestId('confirm-delete-text')).toContainText('Maria Souza E2E');
    await page.getByRole('button', { name: 'Excluir', exact: true }).click();
    await expect(toast(page).filter({ hasText: 'Contato "Maria Souza E2E" excluído.' })).toBeVisible();
    await expect(rowOf(page, 'Maria Souza E2E')).toHaveCount(0);
  });

  test('search starts at 2 characters and filters by tag', async ({ page }) => {
    await page.goto('/#/home');
    const tag = await api(page, 'POST', '/tags', { name: 'Filtro E2E', color: '#f08c00' });
    await api(page, 'POST', '/contacts', { name: 'Busca Joana', number: '41 99222-0001', tags: [tag.id] });
    await api(page, 'POST', '/contacts', { name: 'Busca Pedro', number: '41 99222-0002' });

    await page.goto('/#/contatos');
    const hint = page.getByTestId('contacts-search-hint');
    await expect(hint).toHaveText('A busca começa a partir de 2 caracteres.');
    await expect(hint).not.toHaveClass(/is-warning/);
    await page.getByTestId('contacts-search').fill('Busca');
    await expect(page.getByTestId('contact-row')).toHaveCount(2);
    // One character is below the minimum: the hint turns into a warning and nothing is searched.
    await page.getByTestId('contacts-search').fill('B');
    await expect(hint).toHaveClass(/is-warning/);
    await page.getByTestId('contacts-search').fill('Busca Jo');
    await expect(page.getByTestId('contact-row')).toHaveCount(1);
    await expect(rowOf(page, 'Busca Joana')).toBeVisible();

    await page.getByTestId('contacts-search').fill('Busca');
    await expect(page.getByTestId('contact-row')).toHaveCount(2);
    await page.getByTestId('filter-tags').click();
    await page.getByTestId('filter-tags-options').getByText('Filtro E2E', { exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('filter-tags')).toHaveText('Etiquetas (1)');
    await expect(page.getByTestId('contact-row')).toHaveCount(1);
    await expect(rowOf(page, 'Busca Joana')).toBeVisible();
    await page.getByTestId('filters-clear').click();
    await expect(page.getByTestId('contact-row')).toHaveCount(2);
    await page.getByTestId('contacts-search').fill('Ninguém com este nome');
    await expect(page.getByTestId('contacts-no-match')).toBeVisible();
  });

  test('import a CSV: live progress, then the exact report, reachable again after a reload', async ({ page }) => {
    // Enough good rows to take a few seconds, and one of each refusal near the top.
    const GOOD_ROWS = 30_000;
    const lines = [
      'Nome;Número;E-mail;CPF;DataNascimento',
      'Ana Importada;11 91234-0001;ana.importada@exemplo.com;529.982.247-25;17/05/1990',
      'Número Ruim;123;;;',
      'CPF Ruim;11 91234-0003;;123.456.789-00;',
      'Ana de Novo;(11) 91234-0001;;;',
    ];
    for (let i = 1; i <= GOOD_ROWS; i += 1)
      lines.push(`Lote Importado ${String(i).padStart(5, '0')};21 98${String(i).padStart(7, '0')};;;`);
    const csv = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');

    await page.goto('/#/contatos');
    const before = (await api(page, 'GET', '/contacts?pageSize=1')).count as number;
    await page.getByTestId('contacts-import').click();
    const dialog = page.getByTestId('contact-import-dialog');
    await expect(dialog.getByTestId('import-date-format')).toHaveValue('dd/MM/yyyy');
    await dialog.getByTestId('import-file-input').setInputFiles({ name: 'contatos-e2e.csv', mimeType: 'text/csv', buffer: csv });
    await expect(dialog.getByTestId('import-chosen-file')).toContainText('contatos-e2e.csv');
    await page.getByTestId('import-start').click();

    // Live progress: the bar shows while the file is read.
    const progress = dialog.getByTestId('import-progress');
    await expect(progress).toBeVisible();
    await expect(dialog.getByTestId('import-progress-bar')).toBeVisible();
    await expect(dialog.getByTestId('import-progress-text')).toContainText('% do arquivo lido');
    await page.screenshot({ path: `${ARTIFACTS}/contacts-import-progress.png` });

    await expect(progress).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
    const expectCounts = async () => {
      await expect(dialog.getByTestId('import-count-total').locator('dd')).toHaveText((GOOD_ROWS + 4).toLocaleString('pt-BR'));
      await expect(dialog.getByTestId('import-count-created').locator('dd')).toHaveText((GOOD_ROWS + 1).toLocaleString('pt-BR'));
      await expect(dialog.getByTestId('import-count-updated').locator('dd')).toHaveText('0');
      await expect(dialog.getByTestId('import-count-duplicates').locator('dd')).toHaveText('0');
      await expect(dialog.getByTestId('import-count-rejected').locator('dd')).toHaveText('3');
      await expect(dialog.getByTestId('import-error-line')).toHaveText(['3', '4', '5']);
      await expect(dialog.getByTestId('import-error-reason')).toHaveText([
        'Número inválido: 123',
        'CPF/CNPJ inválido: 123.456.789-00',
        'Número duplicado no arquivo (igual ao da linha 2)',
      ]);
    };
    await expectCounts();
    await expect(dialog.getByTestId('import-done')).toHaveText(
      `Importação concluída: ${(GOOD_ROWS + 1).toLocaleString('pt-BR')} contatos criados ou atualizados.`,
    );
    await page.screenshot({ path: `${ARTIFACTS}/contacts-import-report.png` });
    await page.getByTestId('import-close').click();
    // The finished import refreshed the list.
    await expect(page.getByTestId('contacts-range')).toContainText(
      `de ${(before + GOOD_ROWS + 1).toLocaleString('pt-BR')} contatos`,
    );

    // After a reload the report is one click away in the recent imports.
    await page.reload();
    await page.getByTestId('contacts-import').click();
    const recent = dialog.getByTestId('import-recent-row').filter({ hasText: 'contatos-e2e.csv' });
    await expect(recent).toContainText('Concluída');
    await recent.getByRole('button', { name: 'Relatório' }).click();
    await expectCounts();
  });

  test('export the current filter as CSV and XLSX and read the files back', async ({ page }) => {
    await page.goto('/#/home');
    const tags = (await api(page, 'GET', '/tags')) as { id: number; name: string }[];
    const vip = tags.find((tag) => tag.name === 'Cliente VIP')!;
    await api(page, 'POST', '/contacts', {
      name: 'Exportação Alfa',
      number: '31 99111-2233',
      email: 'alfa@exemplo.com',
      tags: [vip.id],
    });
    await api(page, 'POST', '/contacts', { name: 'Exportação Beta', number: '31 99111-4455', cpfCnpj: '529.982.247-25' });

    await page.goto('/#/contatos');
    await page.getByTestId('contacts-search').fill('Exportação');
    await expect(page.getByTestId('contact-row')).toHaveCount(2);

    await page.getByTestId('contacts-export').click();
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('contacts-export-csv').click()]);
    expect(csvDownload.suggestedFilename()).toMatch(/^contatos-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = (await readFile((await csvDownload.path())!, 'utf8')).replace(/^\uFEFF/, '');
    const csvRows = csv
      .trim()
      .split(/\r?\n/)
      .map((line) => line.split(';'));
    expect(csvRows[0]).toEqual([
      'Nome',
      'Número',
      'E-mail',
      'CPF',
      'DataNascimento',
      'PrimeiroNome',
      'ÚltimoNome',
      'Empresa',
      'Etiquetas',
      'Carteira',
    ]);
    expect(csvRows.slice(1).map((cells) => cells[0])).toEqual(['Exportação Alfa', 'Exportação Beta']);
    expect(csvRows[1][1]).toBe('5531991112233');
    expect(csvRows[1][8]).toBe('Cliente VIP');
    expect(csvRows[2][3]).toContain('52998224725'.slice(0, 3));

    await page.getByTestId('contacts-export').click();
    const [xlsxDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('contacts-export-xlsx').click()]);
    expect(xlsxDownload.suggestedFilename()).toMatch(/^contatos-\d{4}-\d{2}-\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    // exceljs types its input as an older Buffer; the bytes are what it reads.
    await workbook.xlsx.load((await readFile((await xlsxDownload.path())!)) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const cellText = (row: number, col: number) => String(sheet.getRow(row).getCell(col).value ?? '');
    expect(cellText(1, 1)).toBe('Nome');
    expect(sheet.actualRowCount).toBe(3);
    expect([cellText(2, 1), cellText(3, 1)]).toEqual(['Exportação Alfa', 'Exportação Beta']);
    expect(cellText(2, 2)).toBe('5531991112233');
    expect(cellText(2, 9)).toBe('Cliente VIP');
  });

  test('remove duplicates shows its counts; the phone sync shows its result or says why it cannot run', async ({ page }) => {
    await page.goto('/#/contatos');
    await page.getByTestId('contacts-remove-duplicates').click();
    await expect(page.getByTestId('duplicates-confirm-text')).toContainText('serão unidos no mais antigo');
    await page.getByRole('button', { name: 'Remover duplicados' }).last().click();
    const result = page.getByTestId('duplicates-result');
    await expect(result).toBeVisible();
    for (const id of ['merged', 'removed', 'normalized', 'skipped'])
      await expect(result.getByTestId(`duplicates-${id}`).locator('dd')).toHaveText(/^\d+$/);
    await expect(toast(page).filter({ hasText: /^\d+ contatos? duplicados? removidos?\.$/ })).toBeVisible();
    await page.getByTestId('duplicates-close').click();

    await page.getByTestId('contacts-sync').click();
    // The answer depends on the demo tenant's channels at this moment (other specs add and remove
    // them): the result per channel, or why none can sync (no channel, or none of a type that syncs).
    // When no channel can sync, the result dialog (why, per channel) and the toast both show.
    await expect(
      page
        .getByTestId('contacts-sync-result')
        .or(toast(page).filter({ hasText: /Esta operação não é suportada por este tipo de conexão\.|Nenhuma conexão padrão\. Verifique as conexões\./ }))
        .first(),
    ).toBeVisible();
  });

  test('chat mode lists the same contacts without the file tools', async ({ page }) => {
    await page.goto('/#/home');
    await api(page, 'POST', '/contacts', { name: 'Contato do Chat E2E', number: '51 99333-0001' });
    await page.goto('/#/atendimento/contatos');
    await expect(page.getByTestId('page-atendimento-contatos')).toBeVisible();
    await expect.poll(() => hashPath(page)).toBe('/atendimento/contatos');
    await page.getByTestId('contacts-search').fill('Contato do Chat');
    await expect(rowOf(page, 'Contato do Chat E2E')).toBeVisible();
    await expect(page.getByTestId('contact-add')).toBeVisible();
    await expect(page.getByTestId('contacts-import')).toHaveCount(0);
    await expect(page.getByTestId('contacts-export')).toHaveCount(0);
  });
});
