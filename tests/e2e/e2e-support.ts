import { randomBytes } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { FakeGraphApi } from '../fakes/graph-api.fake';

/** Seeded accounts of a fresh server (server/src/seed). */
export const ACCOUNTS = {
  superadmin: 'superadmin@example.com',
  admin: 'admin@demo.example.com',
  super: 'supervisor@demo.example.com',
  user: 'agent@demo.example.com',
} as const;

export type SeededProfile = keyof typeof ACCOUNTS;

export const SEED_PASSWORD = process.env.E2E_SEED_PASSWORD!;

export const ARTIFACTS = 'tests/artifacts';
/**
 * Per server port: runs started side by side (each with its own E2E_PORT and server) must not
 * sign each other's browsers in with tokens of another server.
 */
export const storageStatePath = (profile: SeededProfile) =>
  `${ARTIFACTS}/.auth/${process.env.E2E_PORT ?? '18090'}/${profile}.json`;

/** The path after the '#' of the hash router. */
export const hashPath = (page: Page) => new URL(page.url()).hash.replace(/^#/, '').split('?')[0];

/** Completes the slider captcha from the keyboard (the drag is covered by its own test). */
export async function completeCaptchaWithKeyboard(page: Page) {
  const handle = page.getByTestId('slider-captcha-handle');
  await handle.focus();
  await handle.press('End');
  await expect(handle).toHaveAttribute('aria-valuenow', '100');
}

/** Drags the captcha handle to the end of its track with the mouse. */
export async function dragCaptcha(page: Page) {
  const handle = page.getByTestId('slider-captcha-handle');
  const track = page.locator('.slider-captcha-track');
  const handleBox = (await handle.boundingBox())!;
  const trackBox = (await track.boundingBox())!;
  await page.mouse.move(handleBox.x + handleBox.width / 2, handleBox.y + handleBox.height / 2);
  await page.mouse.down();
  await page.mouse.move(trackBox.x + trackBox.width - 2, handleBox.y + handleBox.height / 2, { steps: 12 });
  await page.mouse.up();
  await expect(handle).toHaveAttribute('aria-valuenow', '100');
}

export async function fillCredentials(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
}

/** Signs in through the login screen and waits for the shell. */
export async function loginThroughUi(page: Page, profile: SeededProfile) {
  await page.goto('/#/login');
  await fillCredentials(page, ACCOUNTS[profile], SEED_PASSWORD);
  await completeCaptchaWithKeyboard(page);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('app-menu')).toBeVisible();
}

export const toast = (page: Page) => page.locator('.bp6-toast');

/** The fake Cloud API on the fixed port the e2e server was pointed at (playwright.config.ts). */
export const startFakeGraphOnFixedPort = (): Promise<FakeGraphApi> => new FakeGraphApi().start(Number(process.env.E2E_FAKE_GRAPH_PORT));

/** A WABA channel's settings wired to the fake Cloud API, its webhooks signed with `appSecret`. */
export const wabaSettingsFor = (fake: FakeGraphApi, appSecret: string) => ({
  wabaPhoneNumberId: fake.phoneNumberId,
  wabaBusinessAccountId: fake.businessAccountId,
  wabaApiVersion: 'v21.0',
  wabaManagerToken: fake.token,
  wabaAppSecret: appSecret,
  wabaVerifyToken: `verify-${randomBytes(8).toString('hex')}`,
});

/** Calls the API with a bearer token and expects success (fixtures, not what is under test); 204 answers null. */
export async function apiAs(request: APIRequestContext, token: string | null, method: string, path: string, body?: unknown) {
  const response = await request.fetch(path, { method, headers: { authorization: `Bearer ${token}` }, data: body });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBe(true);
  return response.status() === 204 ? null : response.json();
}

/** apiAs with the session the browser holds (its stored token). */
export async function api(page: Page, method: string, path: string, body?: unknown) {
  return apiAs(page.request, await page.evaluate(() => localStorage.getItem('token')), method, path, body);
}

/** A WABA channel on the fake Cloud API, created through the API and waited for until CONNECTED (a fixture). */
export async function connectedWabaChannel(page: Page, fake: FakeGraphApi, name: string, appSecret: string): Promise<{ id: number; name: string }> {
  const channel = await api(page, 'POST', '/whatsapp', { type: 'waba', name, ...wabaSettingsFor(fake, appSecret) });
  await expect.poll(async () => (await api(page, 'GET', `/whatsapp/${channel.id}`)).status, { timeout: 20_000 }).toBe('CONNECTED');
  return channel;
}

/**
 * Call inside a describe: the channels whose ids the tests push on the answered list are deleted
 * after each test (the specs share the demo tenant, which allows 3 connections).
 */
export function deleteChannelsAfterEach(): number[] {
  const ids: number[] = [];
  test.afterEach(async ({ page }) => {
    for (const id of ids.splice(0)) await api(page, 'DELETE', `/whatsapp/${id}`).catch(() => undefined);
  });
  return ids;
}
