import { expect, test, type Page } from '@playwright/test';
import { FakeAsaas } from '../fakes/asaas.fake';
import { api, hashPath, loginThroughUi, storageStatePath } from './e2e-support';

/**
 * Payments end to end: the super administrator points the platform at the payment provider (a
 * local fake of the Asaas API) and charges "Empresa Demo"; the charge falls overdue past the
 * grace days, the demo admin lands on the blocked menu with the invoice to pay, the provider's
 * payment webhook unblocks the tenant and the full menu returns; /pagamentostenants lists it paid.
 */
const FAKE_PORT = Number(process.env.E2E_FAKE_ASAAS_PORT ?? Number(process.env.E2E_PORT ?? '18090') + 7);
const WEBHOOK_TOKEN = 'e2e-webhook-token-0123456789';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const brDay = (iso: string) => iso.split('-').reverse().join('/');

let fake: FakeAsaas;
test.beforeAll(async () => {
  fake = await new FakeAsaas().listen(FAKE_PORT);
});
test.afterAll(async () => fake?.stop());

test('an overdue tenant admin pays from the blocked menu and gets the full menu back; the superadmin sees it paid', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  fake.webhook = { url: `${baseURL}/subscription/whazing/webhook`, token: WEBHOOK_TOKEN };
  const superContext = await browser.newContext();
  const superPage = await superContext.newPage();
  let providerId: string | null = null;
  try {
    await loginThroughUi(superPage, 'superadmin');
    // The super administrator configures the provider and charges the demo tenant.
    await superPage.goto('/#/pagamentostenants');
    const config = superPage.getByTestId('payment-config');
    await config.getByLabel('Endereço da API').fill(fake.url);
    await config.getByLabel('Chave da API').fill(fake.apiKey);
    await config.getByLabel('Token do webhook').fill(WEBHOOK_TOKEN);
    await config.getByLabel('Dias de tolerância').fill('0');
    await superPage.getByTestId('payment-config-save').click();
    await expect(superPage.getByTestId('payment-config-state')).toHaveText('Configurado');

    const form = superPage.getByTestId('create-invoice');
    const tenants: { id: number; name: string }[] = await api(superPage, 'GET', '/admin/payments/tenants');
    const demo = tenants.find((tenant) => tenant.name === 'Empresa Demo')!;
    await form.getByRole('combobox').selectOption(String(demo.id));
    await form.getByLabel('Vencimento').fill(brDay(day(0)));
    await form.getByLabel('Valor').fill('149,90');
    await superPage.getByTestId('create-invoice-submit').click();
    await expect(superPage.getByTestId('all-invoices').getByText('Empresa Demo').first()).toBeVisible();
    const created = [...fake.payments.values()].at(-1)!;
    providerId = created.id;
    expect(created.value).toBe(149.9);

    // At the provider the due date moves to yesterday and the charge falls overdue (grace 0).
    expect((await fake.changeDueDate(providerId, day(-1))).body.applied).toBe(true);
    expect((await fake.overdue(providerId)).body.applied).toBe(true);

    // The demo admin lands on the blocked menu with the invoice to pay.
    const adminContext = await browser.newContext({ storageState: storageStatePath('admin') });
    const adminPage = await adminContext.newPage();
    await adminPage.goto('/#/home');
    await expect.poll(() => hashPath(adminPage)).toBe('/configuracoesbloqueio');
    await expect(adminPage.getByTestId('menu-blockedSettings')).toBeVisible();
    await expect(adminPage.getByTestId('menu-dashboard')).toHaveCount(0);
    await expect(adminPage.getByTestId('blocked-explanation')).toContainText('bloqueado');
    const row = adminPage.getByTestId('blocked-invoices').locator('tbody tr');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('R$ 149,90');
    await expect(row).toContainText('Vencida');
    await expect(row.getByRole('button', { name: 'Pagar' })).toHaveAttribute('href', created.invoiceUrl);
    await expect(row.getByRole('button', { name: 'Boleto' })).toHaveAttribute('href', created.bankSlipUrl);

    // The customer pays at the provider; its webhook unblocks the tenant and the menu returns.
    expect((await fake.pay(providerId)).body.applied).toBe(true);
    providerId = null;
    await expect.poll(() => hashPath(adminPage), { timeout: 15_000 }).toBe('/home');
    await expect(adminPage.getByTestId('menu-dashboard')).toBeVisible();
    await expect(adminPage.getByTestId('menu-blockedSettings')).toHaveCount(0);
    await adminPage.getByTestId('menu-tenantSubscription').click();
    await expect(adminPage.getByTestId('subscription-invoices')).toContainText('Paga');
    await adminContext.close();

    // The super administrator's list shows it paid, also under the status filter.
    await superPage.reload();
    await superPage.getByTestId('invoices-filter-status').selectOption('paid');
    await expect(superPage.getByTestId(`all-invoices-status-${await invoiceIdOf(superPage, created.id)}`)).toHaveText('Paga');
  } finally {
    // Never leave the demo tenant blocked for the specs that follow.
    if (providerId) await fake.pay(providerId).catch(() => undefined);
    await superContext.close();
  }
});

async function invoiceIdOf(page: Page, providerId: string): Promise<number> {
  const invoices: { id: number; providerId: string }[] = await api(page, 'GET', '/invoices/all');
  return invoices.find((invoice) => invoice.providerId === providerId)!.id;
}
