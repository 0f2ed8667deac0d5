import { expect, test } from '@playwright/test';
import { api, ARTIFACTS, storageStatePath, toast } from './e2e-support';

/**
 * The groups screens against the real server and the injected Baileys socket (its control
 * endpoint plays WhatsApp): a QR channel is created and paired, the phone takes part in a group;
 * on /grupo/banlist the supervisor syncs the groups, bans a number in that group and sees the ban
 * listed; when that number joins the group, the server removes it (the fake records the call).
 * The channel is deleted at the end (the demo tenant has 3 connections).
 */

const CONTROL = `http://127.0.0.1:${process.env.E2E_FAKE_BAILEYS_CONTROL_PORT}`;
const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${CONTROL}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  expect(res.ok, `${method} ${path}`).toBe(true);
  return res.json() as Promise<any>;
};

test.describe('groups screens (signed in as admin)', () => {
  test.use({ storageState: storageStatePath('admin') });
  test.setTimeout(120_000);

  test('ban list: sync the groups, ban a number in one group, see it listed; the number joining is removed', async ({ page }) => {
    await page.goto('/#/grupo/banlist');
    await expect(page.getByTestId('page-grupo-banlist')).toBeVisible();
    const name = `Grupos E2E ${Math.random().toString(36).slice(2, 7)}`;
    const channel = (await api(page, 'POST', '/whatsapp', { type: 'baileys', name })) as { id: number };
    try {
      await expect
        .poll(async () => ((await api(page, 'GET', `/whatsapp/${channel.id}`)) as { status: string }).status, { timeout: 20_000 })
        .toBe('qrcode');
      await control('POST', '/pair', {});
      await expect
        .poll(async () => ((await api(page, 'GET', `/whatsapp/${channel.id}`)) as { status: string }).status, { timeout: 20_000 })
        .toBe('CONNECTED');
      const subject = `Clientes ${name}`;
      const { id: groupJid } = await control('POST', '/groups', { subject, participants: ['5511911112222'] });

      await page.reload();
      await expect(page.getByTestId('page-grupo-banlist')).toBeVisible();
      await page.getByTestId('groups-connection').selectOption(String(channel.id));
      await page.getByTestId('groups-sync').click();
      await expect(toast(page).filter({ hasText: 'sincronizados' })).toBeVisible();
      await page.getByTestId('groups-groups').click();
      await page.getByTestId('groups-groups-options').getByText(subject).click();
      await page.keyboard.press('Escape');
      await page.getByTestId('groups-rule-number').fill('+55 11 96666-1234');
      await page.getByTestId('groups-rule-save').click();
      await expect(toast(page).filter({ hasText: 'Salvo.' })).toBeVisible();

      const row = page.getByTestId('groups-rules').locator('tr', { hasText: '5511966661234' });
      await expect(row).toBeVisible();
      await expect(row).toContainText(subject);
      await expect(row).toContainText(name);
      await page.screenshot({ path: `${ARTIFACTS}/groups-banlist.png` });

      // WhatsApp says the banned number joined: the server removes it from the group.
      await control('POST', '/group-participants', { group: groupJid, participants: ['5511966661234'], action: 'add' });
      await expect
        .poll(async () => ((await control('GET', '/group-calls')) as { method: string; args: unknown[] }[]).filter((c) => c.method === 'groupParticipantsUpdate'))
        .toEqual([{ method: 'groupParticipantsUpdate', args: [groupJid, ['5511966661234@s.whatsapp.net'], 'remove'] }]);

      // And the ban can be removed from the list.
      await row.getByRole('button', { name: 'Remover' }).click();
      await expect(row).toHaveCount(0);
    } finally {
      await api(page, 'DELETE', `/whatsapp/${channel.id}`);
    }
  });
});
