import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { deliverWebhook, FakeGraphApi, inboundPayload } from '../fakes/graph-api.fake';
import { ARTIFACTS, startFakeGraphOnFixedPort, storageStatePath, wabaSettingsFor } from './e2e-support';

/**
 * What the dashboard and ticket panel specs share: the fake WhatsApp Cloud API on the port the
 * server was started with (playwright.config.ts), one WABA channel of the demo tenant that
 * answers to it, and inbound customer messages delivered as Meta's signed webhooks.
 */

export const suffix = () => randomBytes(3).toString('hex');
export const phone = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

export { startFakeGraphOnFixedPort };

export async function call(page: Page, method: string, path: string, body?: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.fetch(path, { method, headers: { authorization: `Bearer ${token}` }, data: body });
  return { status: response.status(), body: response.status() === 204 ? null : await response.json().catch(() => null) };
}

export async function api(page: Page, method: string, path: string, body?: unknown) {
  const res = await call(page, method, path, body);
  expect(res.status, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

export interface LiveChannel {
  id: number;
  appSecret: string;
  /** Whether this spec created it (and so deletes it). */
  created: boolean;
}

/**
 * A WABA channel wired to the fake: a new one, or, when earlier specs used up the demo plan's
 * connections, an existing WABA channel taken over with this spec's secrets.
 */
export async function wabaChannel(page: Page, fake: FakeGraphApi, name: string): Promise<LiveChannel> {
  const appSecret = `app-secret-${randomBytes(8).toString('hex')}`;
  const settings = {
    ...wabaSettingsFor(fake, appSecret),
  };
  const created = await call(page, 'POST', '/whatsapp', { type: 'waba', name: `${name} ${suffix()}`, ...settings });
  if (created.status === 201) return { id: created.body.id, appSecret, created: true };
  expect(created.body?.error).toBe('ERR_CONNECTION_LIMIT');
  const channels: { id: number; type: string }[] = await api(page, 'GET', '/whatsapp/');
  const reused = channels.find((c) => c.type === 'waba');
  expect(reused, 'a WABA channel to take over').toBeTruthy();
  await api(page, 'PUT', `/whatsapp/${reused!.id}`, settings);
  return { id: reused!.id, appSecret, created: false };
}

/** A customer's text message arriving through the Cloud API webhook (a new contact opens a pending ticket). */
export async function deliverInbound(
  baseURL: string,
  fake: FakeGraphApi,
  channel: LiveChannel,
  from: string,
  name: string,
  text: string,
) {
  const res = await deliverWebhook(
    `${baseURL}/webhooks/waba/${channel.id}`,
    inboundPayload(fake.phoneNumberId, [{ from, name, message: { type: 'text', text: { body: text } } }]),
    channel.appSecret,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * For a describe block signed in as admin: the fake Cloud API started before its tests and
 * stopped after them, the artifacts folder made, and the WABA channel its tests take (once, with
 * `channel(page, name)`) deleted afterwards when they created it. `openPath` is a screen the
 * clean-up page opens to reach the API with the stored session.
 */
export function liveWabaChannel(openPath: string) {
  let fake: FakeGraphApi | undefined;
  let channel: LiveChannel | null = null;
  test.beforeAll(async () => {
    fake = await startFakeGraphOnFixedPort();
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  test.afterAll(async ({ browser }) => {
    if (channel?.created) {
      const context = await browser.newContext({ storageState: storageStatePath('admin') });
      const page = await context.newPage();
      await page.goto(`/#${openPath}`);
      await call(page, 'DELETE', `/whatsapp/${channel.id}`);
      await context.close();
    }
    await fake?.stop();
  });
  return {
    get fake(): FakeGraphApi {
      return fake!;
    },
    async channel(page: Page, name: string): Promise<LiveChannel> {
      channel ??= await wabaChannel(page, fake!, name);
      return channel;
    },
  };
}
