import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import type { FakeGraphApi } from '../fakes/graph-api.fake';
import { ACCOUNTS, api, loginThroughUi, startFakeGraphOnFixedPort, storageStatePath, wabaSettingsFor } from './e2e-support';

/**
 * Presence and transfer notifications (issue #18) against the real server, with an
 * administrator's browser and an agent's: the agent's presence shows (and changes live) in the
 * users screen and in the transfer dialog; a ticket the administrator transfers to the agent
 * shows in the agent's bell at once, and opening it opens the ticket.
 */

const suffix = () => randomBytes(3).toString('hex');
const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

async function userOf(page: Page, email: string): Promise<{ id: number; name: string }> {
  const { users } = await api(page, 'GET', `/users?searchParam=${encodeURIComponent(email)}`);
  return users.find((u: { email: string }) => u.email === email);
}

test.describe('presence and the transfer notification', () => {
  test.setTimeout(90_000);
  let fake: FakeGraphApi;
  test.beforeAll(async () => {
    fake = await startFakeGraphOnFixedPort();
  });
  test.afterAll(async () => {
    await fake?.stop();
  });

  test("the agent's presence shows live; a ticket transferred to the agent shows in the agent's bell and opens", async ({ browser }) => {
    const admin = await (await browser.newContext({ storageState: storageStatePath('admin') })).newPage();
    await admin.goto('/#/usuarios');
    await expect(admin.getByTestId('user-table')).toBeVisible({ timeout: 30_000 });
    const agentUser = await userOf(admin, ACCOUNTS.user);
    const adminUser = await userOf(admin, ACCOUNTS.admin);

    // A channel of this spec (the demo plan's connections are shared: take one over if none is left).
    let createdChannel: number | null = null;
    let channelId: number;
    const created = await admin.request.fetch('/whatsapp', {
      method: 'POST',
      headers: { authorization: `Bearer ${await admin.evaluate(() => localStorage.getItem('token'))}` },
      data: { type: 'waba', name: `WABA Presença ${suffix()}`, ...wabaSettingsFor(fake, `secret-${suffix()}`) },
    });
    if (created.status() === 201) channelId = createdChannel = (await created.json()).id;
    else {
      expect((await created.json()).error).toBe('ERR_CONNECTION_LIMIT');
      const channels: { id: number; type: string }[] = await api(admin, 'GET', '/whatsapp/');
      channelId = channels.find((c) => c.type === 'waba')!.id;
    }
    let ticketId: number | null = null;
    const agentContext = await browser.newContext();
    try {
      // The agent signs in: online for the administrator, live.
      const agent = await agentContext.newPage();
      await loginThroughUi(agent, 'user');
      await expect(agent.getByTestId('notification-bell')).toBeVisible({ timeout: 30_000 });
      await api(agent, 'PUT', '/notifications/read-all');
      await agent.reload();
      await expect(agent.getByTestId('notification-bell')).toBeVisible({ timeout: 30_000 });
      await expect(agent.getByTestId('notification-count')).toHaveCount(0);

      const agentRow = admin.getByTestId('user-row').filter({ hasText: ACCOUNTS.user });
      await admin.getByTestId('user-search').fill(ACCOUNTS.user);
      await expect(agentRow.getByTestId('presence-dot')).toHaveAttribute('data-presence', 'online', { timeout: 15_000 });
      await expect(agentRow.getByTestId('presence-dot')).toHaveAttribute('aria-label', 'Online');

      // A ticket of the administrator, transferred to the agent from the transfer dialog.
      const contact = await api(admin, 'POST', '/contacts', { name: `Cliente Presença ${suffix()}`, number: phone() });
      const ticket = await api(admin, 'POST', '/tickets', { contactId: contact.id, whatsappId: channelId, status: 'open', userId: adminUser.id });
      ticketId = ticket.id;
      await admin.goto(`/#/atendimento/${ticket.id}`);
      await expect(admin.getByTestId('chat-contact-name')).toHaveText(contact.name, { timeout: 15_000 });
      const transferDialog = admin.getByRole('dialog', { name: 'Transferir atendimento', exact: true });
      await admin.getByTestId('ticket-transfer').click();
      await expect(transferDialog).toBeVisible();
      await admin.getByTestId('transfer-tab-user').click();
      await admin.getByTestId('transfer-user-search').fill(agentUser.name);
      const option = admin.getByTestId('transfer-user').locator(`[data-user-id="${agentUser.id}"]`);
      await expect(option.getByTestId('presence-dot')).toHaveAttribute('data-presence', 'online');
      await option.click();
      // The list option (the item's parent) is the selected one.
      await expect(option.locator('xpath=..')).toHaveAttribute('aria-selected', 'true');
      await admin.screenshot({ path: 'test-results/screenshots/transfer-user-presence.png' });
      await admin.getByTestId('transfer-submit').click();
      await expect(transferDialog).toHaveCount(0);

      // The agent's bell, live: one unread transfer that opens the ticket.
      await expect(agent.getByTestId('notification-count')).toHaveText('1', { timeout: 15_000 });
      await agent.getByTestId('notification-bell').click();
      const item = agent.getByTestId('notification-item').filter({ hasText: `Ticket #${ticket.id} transferido para você por ${adminUser.name}` });
      await expect(item).toHaveAttribute('data-kind', 'transfer');
      await expect(item).toHaveAttribute('data-read', 'false');
      await agent.screenshot({ path: 'test-results/screenshots/bell-transfer.png' });
      await item.getByTestId('notification-open').click();
      await expect(agent).toHaveURL(new RegExp(`#/atendimento/${ticket.id}`));
      await expect(agent.getByTestId('chat-contact-name')).toHaveText(contact.name, { timeout: 15_000 });
      await expect(agent.getByTestId('notification-count')).toHaveCount(0);
      const inbox = await api(agent, 'GET', '/notifications?limit=100');
      expect(inbox.notifications.filter((n: { kind: string; link: string }) => n.kind === 'transfer' && n.link === `/atendimento/${ticket.id}`)).toHaveLength(1);

      // The agent leaves: offline for the administrator, live.
      await admin.goto('/#/usuarios');
      await admin.getByTestId('user-search').fill(ACCOUNTS.user);
      await expect(agentRow.getByTestId('presence-dot')).toHaveAttribute('data-presence', 'online', { timeout: 15_000 });
      await agentContext.close();
      await expect(agentRow.getByTestId('presence-dot')).toHaveAttribute('data-presence', 'offline', { timeout: 15_000 });
    } finally {
      await agentContext.close().catch(() => undefined);
      if (ticketId !== null) await api(admin, 'PUT', `/tickets/${ticketId}`, { status: 'closed', sendFarewellMessage: false, requestRating: false }).catch(() => undefined);
      if (createdChannel !== null) await api(admin, 'DELETE', `/whatsapp/${createdChannel}`).catch(() => undefined);
    }
  });
});
