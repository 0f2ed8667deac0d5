import { expect, test } from '@playwright/test';
import { ARTIFACTS, hashPath, loginThroughUi, toast, type SeededProfile } from './e2e-support';

/**
 * Each seeded profile lands on its route (brief: admin -> home-dashboard, superadmin ->
 * assinatura, user and super -> atendimento) and sees its own menu items and none of the
 * higher profiles' ones.
 */
const EXPECTED: Record<SeededProfile, { landing: string; has: string[]; lacks: string[] }> = {
  user: {
    landing: '/atendimento',
    has: ['tickets', 'contacts', 'tasks'],
    lacks: ['reports', 'channels', 'settings', 'users', 'tenants'],
  },
  super: {
    landing: '/atendimento',
    has: ['tickets', 'reports', 'channels', 'campaigns'],
    lacks: ['settings', 'users', 'ticketPanel', 'tenants'],
  },
  admin: {
    landing: '/home',
    has: ['dashboard', 'reports', 'settings', 'users', 'callLog'],
    lacks: ['tenants', 'plans', 'terminal'],
  },
  superadmin: {
    landing: '/assinatura',
    has: ['subscription', 'tenants', 'plans', 'terminal', 'jobQueues'],
    lacks: ['contacts', 'tickets', 'settings'],
  },
};

for (const [profile, expected] of Object.entries(EXPECTED) as [SeededProfile, (typeof EXPECTED)[SeededProfile]][]) {
  test(`${profile} lands on ${expected.landing} with the ${profile} menu`, async ({ page }) => {
    await loginThroughUi(page, profile);
    await expect(toast(page).filter({ hasText: 'Login sucess!' })).toBeVisible();
    await expect.poll(() => hashPath(page)).toBe(expected.landing);
    for (const item of expected.has) await expect(page.getByTestId(`menu-${item}`)).toBeVisible();
    for (const item of expected.lacks) await expect(page.getByTestId(`menu-${item}`)).toHaveCount(0);
    if (expected.landing === '/atendimento') {
      // The agent console (tests/e2e/console.spec.ts covers it): the ticket list beside the empty chat.
      await expect(page.getByTestId('attendance-page')).toBeVisible();
      await expect(page.getByTestId('chat-empty')).toBeVisible();
    } else if (expected.landing === '/home') {
      // The dashboard (tests/e2e/dashboard.spec.ts covers it).
      await expect(page.getByTestId('dashboard-page')).toBeVisible();
    } else {
      // The super administrator's licence (tests/e2e/payments.spec.ts covers subscriptions).
      await expect(page.getByTestId('licence-panel')).toBeVisible();
    }
    // Stored exactly as spec section 3 lists.
    const stored = await page.evaluate(() => ({ ...localStorage }));
    expect(Object.keys(stored)).toEqual(
      expect.arrayContaining([
        'token',
        'username',
        'profile',
        'userId',
        'usuario',
        'queues',
        'whatsappAllowed',
        'bloquearWavoip',
        'filtrosAtendimento',
      ]),
    );
    expect(stored.profile).toBe(profile);
    expect(JSON.parse(stored.usuario).profile).toBe(profile);
    if (profile === 'admin') await page.screenshot({ path: `${ARTIFACTS}/shell-admin.png` });
  });
}

test('the superadmin is sent away from the dashboard (to tenants) and from contacts', async ({ page }) => {
  await loginThroughUi(page, 'superadmin');
  await page.goto('/#/home');
  await expect.poll(() => hashPath(page)).toBe('/tenants');
  await page.goto('/#/contatos');
  await expect.poll(() => hashPath(page)).toBe('/assinatura');
  await page.goto('/#/');
  await expect.poll(() => hashPath(page)).toBe('/assinatura');
});

test('a profile opening another profile’s screen by URL lands on its own page with a message', async ({ page }) => {
  await loginThroughUi(page, 'user');
  await expect.poll(() => hashPath(page)).toBe('/atendimento');
  await page.goto('/#/tenants');
  await expect.poll(() => hashPath(page)).toBe('/atendimento');
  await expect(toast(page).filter({ hasText: 'Você não tem permissão para acessar esta página.' })).toBeVisible();
  await expect(page.getByTestId('attendance-page')).toBeVisible();
  // A parent route is refused before its redirect to the first child.
  await page.goto('/#/configuracoes');
  await expect.poll(() => hashPath(page)).toBe('/atendimento');
});

test('the toasts of the anonymous visit do not follow the user into the app', async ({ page }) => {
  await page.goto('/#/contatos');
  await expect(toast(page).filter({ hasText: 'Necessário realizar login' })).toBeVisible();
  await loginThroughUi(page, 'admin');
  await expect(toast(page).filter({ hasText: 'Login sucess!' })).toBeVisible();
  await expect(toast(page).filter({ hasText: 'Necessário realizar login' })).toHaveCount(0);
});
