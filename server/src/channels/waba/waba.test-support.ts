import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

/** Test support for the waba suites: the app pointed at a fake Graph API, and channels on it. */

export interface WabaTestBed {
  server: TestServer;
  fake: FakeGraphApi;
  close(): Promise<void>;
}

export async function startWabaTestBed(): Promise<WabaTestBed> {
  const fake = await new FakeGraphApi().start();
  const server = await startTestServer({ WABA_GRAPH_BASE_URL: fake.url, PUBLIC_URL: 'https://atende.example.com' });
  return {
    server,
    fake,
    close: async () => {
      await server.close();
      await fake.stop();
    },
  };
}

/** A valid POST /whatsapp body for a waba channel on the fake. */
export function wabaBody(fake: FakeGraphApi, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'waba',
    name: `WABA ${randomBytes(3).toString('hex')}`,
    wabaPhoneNumberId: fake.phoneNumberId,
    wabaBusinessAccountId: fake.businessAccountId,
    wabaApiVersion: 'v21.0',
    wabaManagerToken: fake.token,
    wabaAppSecret: `app-secret-${randomBytes(8).toString('hex')}`,
    wabaVerifyToken: `verify-${randomBytes(8).toString('hex')}`,
    ...extra,
  };
}

/** Creates a waba channel through the API and waits for its credentials check (CONNECTED on the fake). */
export async function createWabaChannel(
  bed: WabaTestBed,
  adminToken: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; appSecret: string; verifyToken: string; body: any }> {
  const body = wabaBody(bed.fake, extra);
  const res = await bed.server.request('POST', '/whatsapp', { token: adminToken, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  await bed.server.deps.channels.idle();
  return {
    id: res.body.id,
    appSecret: body.wabaAppSecret as string,
    verifyToken: body.wabaVerifyToken as string,
    body: res.body,
  };
}

export function webhookUrl(bed: WabaTestBed, channelId: number): string {
  return `${bed.server.url}/webhooks/waba/${channelId}`;
}

/** A fresh Brazilian mobile number as WhatsApp writes it (wa_id). */
export function newWaId(): string {
  return `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
}
