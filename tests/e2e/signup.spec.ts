import { expect, test, type Page } from '@playwright/test';
import { SmtpCapture } from '../fakes/smtp-capture';
import { ARTIFACTS, api, completeCaptchaWithKeyboard, fillCredentials, loginThroughUi, toast } from './e2e-support';

/**
 * Issue #17: the super administrator points the platform's e-mail at an SMTP server (a real one
 * on a loopback port), a company signs up on /signup, receives the confirmation mail, follows its
 * link and its administrator logs in. The settings are removed at the end (the server is shared
 * by the other specs).
 */

const smtp = new SmtpCapture();
const PENDING_TEXT = 'Tenant inválido. Solicite ao Super Administrador a validação do email.';
const unique = () => Math.random().toString(36).slice(2, 8);

test.beforeAll(async () => {
  await smtp.start();
});
test.afterAll(async ({ browser }) => {
  const page = await browser.newPage();
  await loginThroughUi(page, 'superadmin');
  await api(page, 'DELETE', '/admin/platform-mail');
  await api(page, 'PUT', '/admin/signup-settings', { allowSignup: true });
  await page.close();
  await smtp.stop();
});

async function saveSmtpSettings(page: Page) {
  await page.goto('/#/configuracoesTenant/smtp-tenant');
  await expect(page.getByTestId('page-platform-mail')).toBeVisible();
  await page.getByTestId('platform-mail-host').fill('127.0.0.1');
  await page.getByTestId('platform-mail-port').fill(String(smtp.port));
  await page.getByTestId('platform-mail-user').fill('plataforma');
  await page.getByTestId('platform-mail-password').fill('segredo-smtp');
  await page.getByTestId('platform-mail-from').fill('Plataforma <no-reply@plataforma.example>');
  await page.getByTestId('platform-mail-save').click();
  await expect(toast(page).filter({ hasText: 'Configurações de e-mail salvas.' })).toBeVisible();
  await expect(page.getByTestId('platform-mail-source')).toHaveText('Configuração salva aqui');
  // The password is never shown back: the field is empty, with a note that the saved one is kept.
  await expect(page.getByTestId('platform-mail-password')).toHaveValue('');
  await expect(page.getByText('Deixe em branco para manter a senha salva.')).toBeVisible();
}

async function fillSignupForm(page: Page, form: { name: string; email: string; password: string }) {
  await page.locator('[data-testid^="plan-"]').first().check({ force: true });
  await page.getByLabel('Nome').fill(form.name);
  await page.getByLabel('CPF/CNPJ').fill('529.982.247-25');
  await page.getByLabel('E-mail').fill(form.email);
  await page.getByLabel('Celular').fill('(11) 98765-4321');
  await page.getByLabel('Senha', { exact: true }).fill(form.password);
}

test.describe('company sign-up with e-mail confirmation', () => {
  // Several logins, each solving the captcha's proof of work, on a shared machine.
  test.setTimeout(120_000);

  test('platform e-mail set by the super administrator, sign-up, confirmation link, first login', async ({ page, browser }) => {
    await loginThroughUi(page, 'superadmin');
    await saveSmtpSettings(page);

    await page.getByTestId('platform-mail-test-to').fill('teste@destino.example');
    await page.getByTestId('platform-mail-test-send').click();
    await expect(page.getByTestId('platform-mail-test-result')).toHaveText('E-mail de teste enviado para teste@destino.example.');
    expect((await smtp.waitForMail('teste@destino.example')).subject).toBe('E-mail de teste');
    expect(smtp.logins).toContainEqual({ user: 'plataforma', password: 'segredo-smtp' });
    await page.screenshot({ path: `${ARTIFACTS}/platform-mail.png`, fullPage: true });

    const visitor = await browser.newContext();
    const anon = await visitor.newPage();
    await anon.goto('/#/signup');
    await expect(anon.getByTestId('signup-page')).toBeVisible();

    // Empty form: the spec's text, nothing sent.
    await anon.getByTestId('signup-submit').click();
    await expect(anon.getByTestId('signup-notice')).toHaveText('Preencha todos os campos!');
    await expect(anon.getByTestId('signup-taxId-error')).toHaveText('Preencha todos os campos!');

    const form = { name: `Empresa E2E ${unique()}`, email: `dono-${unique()}@empresa-e2e.example`, password: 'Senha#2025' };
    await fillSignupForm(anon, { ...form, password: 'fraca' });
    await anon.getByLabel('CPF/CNPJ').fill('529.982.247-24');
    await anon.getByTestId('signup-submit').click();
    await expect(anon.getByTestId('signup-taxId-error')).toHaveText('CPF/CNPJ inválido.');
    await expect(anon.getByTestId('signup-password-error')).toHaveText(
      'A senha deve ter pelo menos 7 caracteres, com letras, números e um caractere especial.',
    );
    await expect(anon.getByTestId('signup-notice')).toHaveText('Ops! Verifique os erros...');

    await fillSignupForm(anon, form);
    // The captcha comes before the call, as on the login page.
    await anon.getByTestId('signup-submit').click();
    await expect(anon.getByTestId('signup-notice')).toHaveText('Por favor, valide o CAPTCHA antes de continuar.');
    await completeCaptchaWithKeyboard(anon);
    await anon.getByTestId('signup-submit').click();
    await expect(anon.getByTestId('signup-done')).toContainText(`Enviamos um link de confirmação para ${form.email}`);
    await anon.screenshot({ path: `${ARTIFACTS}/signup-done.png`, fullPage: true });

    const mail = await smtp.waitForMail(form.email);
    expect(mail.subject).toBe('Confirme o seu cadastro');
    const token = mail.text.match(/#\/signup\/confirm\/([A-Za-z0-9_-]+)/)?.[1];
    expect(token, mail.text).toBeTruthy();

    // Before the link is followed, the right password is refused with the spec's text.
    await anon.goto('/#/login');
    await fillCredentials(anon, form.email, form.password);
    await completeCaptchaWithKeyboard(anon);
    await anon.getByTestId('login-submit').click();
    await expect(anon.getByTestId('login-error')).toHaveText(PENDING_TEXT);

    // The pending company is listed for the super administrator.
    await page.reload();
    await expect(page.getByTestId('pending-signups')).toContainText(form.email);

    await anon.goto(`/#/signup/confirm/${token}`);
    await expect(anon.getByTestId('signup-confirmed')).toContainText(`E-mail ${form.email} confirmado!`);
    await anon.screenshot({ path: `${ARTIFACTS}/signup-confirmed.png`, fullPage: true });
    await anon.getByTestId('signup-go-login').click();
    await expect(anon.getByTestId('login-page')).toBeVisible();
    await fillCredentials(anon, form.email, form.password);
    await completeCaptchaWithKeyboard(anon);
    await anon.getByTestId('login-submit').click();
    await expect(anon.getByTestId('app-menu')).toBeVisible();
    expect(await anon.evaluate(() => localStorage.getItem('profile'))).toBe('admin');

    // The link works once.
    await anon.goto(`/#/signup/confirm/${token}`);
    await expect(anon.getByTestId('signup-confirm-failed')).toHaveText('Link de confirmação inválido, expirado ou já utilizado.');

    await page.reload();
    await expect(page.getByTestId('signup-administration')).not.toContainText(form.email);
    await visitor.close();
  });

  test('the super administrator switches sign-up off and validates a pending company by hand', async ({ page, browser }) => {
    await loginThroughUi(page, 'superadmin');
    await saveSmtpSettings(page);
    const visitor = await browser.newContext();
    const anon = await visitor.newPage();

    const form = { name: `Empresa Manual ${unique()}`, email: `manual-${unique()}@empresa-e2e.example`, password: 'Senha#2025' };
    await anon.goto('/#/signup');
    await fillSignupForm(anon, form);
    await completeCaptchaWithKeyboard(anon);
    await anon.getByTestId('signup-submit').click();
    await expect(anon.getByTestId('signup-done')).toBeVisible();

    await page.reload();
    const row = page.locator('[data-testid^="pending-signup-"]').filter({ hasText: form.email });
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: 'Validar e-mail' }).click();
    await expect(toast(page).filter({ hasText: `E-mail de ${form.name} validado` })).toBeVisible();
    await expect(row).toHaveCount(0);

    const allow = page.getByTestId('platform-allow-signup');
    await expect(allow).toBeChecked();
    await allow.click({ force: true });
    await expect(toast(page).filter({ hasText: 'Cadastro de empresas desativado.' })).toBeVisible();
    await anon.goto('/#/login');
    await anon.goto('/#/signup');
    await expect(anon.getByTestId('signup-disabled')).toHaveText('Criação de usuários desabilitada pelo administrador.');
    await allow.click({ force: true });
    await expect(toast(page).filter({ hasText: 'Cadastro de empresas ativado.' })).toBeVisible();

    // The company validated by hand logs in.
    await anon.goto('/#/login');
    await fillCredentials(anon, form.email, form.password);
    await completeCaptchaWithKeyboard(anon);
    await anon.getByTestId('login-submit').click();
    await expect(anon.getByTestId('app-menu')).toBeVisible();
    await visitor.close();
  });
});
