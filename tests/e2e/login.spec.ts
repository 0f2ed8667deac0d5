import { expect, test } from '@playwright/test';
import {
  ACCOUNTS,
  ARTIFACTS,
  SEED_PASSWORD,
  completeCaptchaWithKeyboard,
  dragCaptcha,
  fillCredentials,
  hashPath,
  toast,
} from './e2e-support';

test.describe('login screen', () => {
  test('an anonymous visit to a protected route lands on login with "Necessário realizar login"', async ({ page }) => {
    await page.goto('/#/contatos');
    await expect(page).toHaveURL(/#\/login$/);
    await expect(toast(page).filter({ hasText: 'Necessário realizar login' })).toBeVisible();
    await expect(page.getByTestId('login-page')).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/login.png`, fullPage: true });
  });

  test('signup and reset stay reachable without a session', async ({ page }) => {
    await page.goto('/#/signup');
    await expect(page.getByTestId('signup-page')).toBeVisible();
    await page.goto('/#/reset/some-token');
    await expect(page.getByTestId('reset-page')).toBeVisible();
    expect(hashPath(page)).toBe('/reset/some-token');
  });

  test('the captcha must be completed before the login is sent', async ({ page }) => {
    let loginCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/auth/login')) loginCalls += 1;
    });
    await page.goto('/#/login');
    await fillCredentials(page, ACCOUNTS.user, SEED_PASSWORD);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText('Por favor, valide o CAPTCHA antes de continuar.');
    expect(loginCalls).toBe(0);
    await expect(page).toHaveURL(/#\/login$/);
  });

  test('the e-mail is checked (trimmed) before anything is sent', async ({ page }) => {
    await page.goto('/#/login');
    await fillCredentials(page, 'not-an-email', 'whatever');
    await page.getByTestId('login-submit').click();
    await expect(page.getByText('Informe um e-mail válido.')).toBeVisible();
  });

  test('a wrong password shows the mapped message and resets the captcha', async ({ page }) => {
    await page.goto('/#/login');
    await fillCredentials(page, `  ${ACCOUNTS.user}  `, 'wrong-password-1!');
    await dragCaptcha(page);
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText('Informe usuário e senha corretamente.');
    await expect(page.getByTestId('slider-captcha-handle')).toHaveAttribute('aria-valuenow', '0');
    await expect(page).toHaveURL(/#\/login$/);
  });

  test('too many attempts show the one-minute message', async ({ page }) => {
    // Each attempt solves a fresh server captcha (a fraction of a second, more on a loaded machine).
    test.setTimeout(90_000);
    await page.goto('/#/login');
    const error = page.getByTestId('login-error');
    // The limit counts failures per e-mail and address; an unknown address keeps it away from the others.
    for (let attempt = 0; attempt < 8; attempt += 1) {
      await fillCredentials(page, 'nobody-rate-limit@example.com', `wrong-${attempt}!`);
      await completeCaptchaWithKeyboard(page);
      await page.getByTestId('login-submit').click();
      await expect(error).toBeVisible();
      if ((await error.textContent())?.includes('1 minuto')) break;
    }
    await expect(error).toHaveText('Foram realizadas muitas tentativas de login. Tente novamente em 1 minuto');
  });

  test('password recovery confirms the e-mail and returns to login after 3 s', async ({ page }) => {
    await page.goto('/#/login');
    await page.getByTestId('forgot-password').click();
    const dialog = page.getByTestId('password-recovery');
    await dialog.getByLabel('E-mail').fill(ACCOUNTS.user);
    await dialog.getByRole('button', { name: 'Enviar' }).click();
    await expect(toast(page).filter({ hasText: 'E-mail de recuperação de senha enviado.' })).toBeVisible();
    await expect(dialog).toBeHidden({ timeout: 6_000 });
    await expect(page).toHaveURL(/#\/login$/);
  });
});

test.describe('reset and sign-up forms', () => {
  test('reset refuses different passwords and a token the server does not know', async ({ page }) => {
    await page.goto('/#/reset/not-a-real-token');
    await page.getByLabel('Nova senha', { exact: true }).fill('Nova-senha1!');
    await page.getByLabel('Confirme a nova senha').fill('Outra-senha1!');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await expect(page.getByTestId('reset-error')).toHaveText('As senhas não coincidem.');
    await page.getByLabel('Confirme a nova senha').fill('Nova-senha1!');
    await page.getByRole('button', { name: 'Redefinir senha' }).click();
    await expect(page.getByTestId('reset-error')).toHaveText('Erro ao redefinir a senha.');
  });

  test('sign-up validates every field, then asks for the captcha', async ({ page }) => {
    await page.goto('/#/signup');
    const notice = page.getByTestId('signup-notice');
    await page.getByTestId('signup-submit').click();
    await expect(notice).toHaveText('Preencha todos os campos!');

    // Blueprint draws its own radio over the input: click the label, as a person would.
    await page.locator('label:has([data-testid^="plan-"])').first().click();
    await expect(page.locator('[data-testid^="plan-"]').first()).toBeChecked();
    await page.getByLabel('Nome').fill('Maria Souza');
    await page.getByLabel('CPF/CNPJ').fill('529.982.247-24');
    await page.getByLabel('E-mail').fill('maria@example.com');
    await page.getByLabel('Celular').fill('(11) 98765-4321');
    await page.getByLabel('Senha').fill('abc');
    await page.getByTestId('signup-submit').click();
    await expect(page.getByText('CPF/CNPJ inválido.')).toBeVisible();
    await expect(
      page.getByText('A senha deve ter pelo menos 7 caracteres, com letras, números e um caractere especial.'),
    ).toBeVisible();

    await page.getByLabel('CPF/CNPJ').fill('11.222.333/0001-81');
    await page.getByLabel('Senha').fill('segura#2024');
    await page.getByTestId('signup-submit').click();
    // The fields are now valid: what is left is the captcha (tests/e2e/signup.spec.ts signs up).
    await expect(page.getByText('CPF/CNPJ inválido.')).toHaveCount(0);
    await expect(notice).toHaveText('Por favor, valide o CAPTCHA antes de continuar.');
    await page.screenshot({ path: `${ARTIFACTS}/signup.png`, fullPage: true });
  });
});
