import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicPlan } from '@shared/schemas/plans';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

async function createPlan(fields: {
  name: string;
  value: string;
  active: boolean;
  trial?: boolean;
  trialDays?: number;
}): Promise<number> {
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO plans (name, value, "maxConnections", "maxUsers", trial, "trialDays", active) VALUES ($1, $2, 2, 5, $3, $4, $5) RETURNING id`,
    [fields.name, fields.value, fields.trial ?? false, fields.trialDays ?? 0, fields.active],
  );
  return row.id;
}

describe('GET /plans/listpublic', () => {
  it('lists active plans, cheapest first, with the sign-up fields only, without a token', async () => {
    const tag = randomBytes(3).toString('hex');
    const premium = await createPlan({ name: `Premium ${tag}`, value: '199.90', active: true, trial: true, trialDays: 7 });
    const basic = await createPlan({ name: `Básico ${tag}`, value: '49.00', active: true });
    const retired = await createPlan({ name: `Antigo ${tag}`, value: '10.00', active: false });

    const res = await server.request('GET', '/plans/listpublic');
    expect(res.status).toBe(200);
    const mine = (res.body as PublicPlan[]).filter((p) => [premium, basic, retired].includes(p.id));
    expect(mine).toEqual([
      { id: basic, name: `Básico ${tag}`, value: 49, maxUsers: 5, maxConnections: 2, trial: false, trialDays: 0 },
      { id: premium, name: `Premium ${tag}`, value: 199.9, maxUsers: 5, maxConnections: 2, trial: true, trialDays: 7 },
    ]);
    for (const plan of res.body as Record<string, unknown>[]) {
      expect(Object.keys(plan).sort()).toEqual(['id', 'maxConnections', 'maxUsers', 'name', 'trial', 'trialDays', 'value']);
    }
  });

  it('answers the same to a signed-in caller and with a trailing slash', async () => {
    const { users } = await server.createTenantWithUsers();
    const id = await createPlan({ name: `Plano ${randomBytes(3).toString('hex')}`, value: '5.50', active: true });
    // Other files may add plans meanwhile (shared database): compare this file's plan only.
    const pick = (body: PublicPlan[]) => body.find((p) => p.id === id);
    const anonymous = await server.request('GET', '/plans/listpublic');
    const signedIn = await server.request('GET', '/plans/listpublic/', { token: users.user.token });
    expect(signedIn.status).toBe(200);
    expect(pick(anonymous.body)).toMatchObject({ id, value: 5.5 });
    expect(pick(signedIn.body)).toEqual(pick(anonymous.body));
  });
});
