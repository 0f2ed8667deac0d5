import { expect, test } from '@playwright/test';
import { hashPath, loginThroughUi, toast } from './e2e-support';

test('a 401 after the session was revoked clears it and goes to login after about 2 s', async ({ page }) => {
  // Its own login: this test revokes the session, which the stored ones must survive.
  await loginThroughUi(page, 'admin');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();

  // Revoke for real, the way another tab or device would.
  const logout = await page.request.post('/auth/logout/', { headers: { authorization: `Bearer ${token}` } });
  expect(logout.ok()).toBe(true);

  // Any app call now gets a 401 (the socket may report it first: the outcome is the same).
  const started = Date.now();
  await page.getByTestId('dark-mode-toggle').click();
  await expect(toast(page).filter({ hasText: /Token inválido|sessão/ })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  expect(await page.evaluate(() => localStorage.getItem('profile'))).toBeNull();
  expect(hashPath(page)).not.toBe('/login');
  await expect.poll(() => hashPath(page), { timeout: 6_000 }).toBe('/login');
  const elapsed = Date.now() - started;
  expect(elapsed).toBeGreaterThanOrEqual(1_500);
  expect(elapsed).toBeLessThan(5_000);
});

test('logging out goes straight to login without the 401 message', async ({ page }) => {
  await loginThroughUi(page, 'user');
  await page.getByTestId('logout').click();
  await expect.poll(() => hashPath(page)).toBe('/login');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expect(toast(page).filter({ hasText: /Token inválido|sessão expirou/ })).toHaveCount(0);
});
