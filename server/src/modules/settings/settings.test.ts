import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { DEFAULT_SETTINGS } from '@shared/settings';
import { startTestServer, type TestServer } from '../../../../tests/helpers/test-server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

const valueIn = (list: { key: string; value: string }[], key: string) => list.find((s) => s.key === key)?.value;

async function storedValue(tenantId: number, key: string): Promise<string | undefined> {
  const rows = await server.deps.dataSource.query(`SELECT value FROM settings WHERE "tenantId" = $1 AND key = $2`, [
    tenantId,
    key,
  ]);
  return rows[0]?.value;
}

describe('GET /settings', () => {
  it('answers every known key to every profile, defaults included for keys without a row', async () => {
    const a = await server.createTenantWithUsers();
    await server.deps.dataSource.query(`DELETE FROM settings WHERE "tenantId" = $1 AND key = 'forceSignature'`, [a.tenant.id]);
    for (const profile of ['user', 'super', 'admin'] as const) {
      const res = await server.request('GET', '/settings', { token: a.users[profile].token });
      expect(res.status).toBe(200);
      expect(res.body.map((s: { key: string }) => s.key)).toEqual(expect.arrayContaining(Object.keys(DEFAULT_SETTINGS)));
      expect(valueIn(res.body, 'forceSignature')).toBe('disabled');
      expect(valueIn(res.body, 'autoCloseTicketsMinutes')).toBe('0');
    }
  });

  it("never shows another tenant's values", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    await server.request('PUT', '/settings/forceSignature', { token: b.users.admin.token, body: { value: 'enabled' } });
    const res = await server.request('GET', '/settings', { token: a.users.admin.token });
    expect(valueIn(res.body, 'forceSignature')).toBe('disabled');
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('GET', '/settings')).status).toBe(401);
  });
});

describe('PUT /settings/:settingKey', () => {
  it('lets an admin change a value, which every later read sees at once, and records settings:update', async () => {
    const a = await server.createTenantWithUsers();
    // Warm the cache first: the write must invalidate it.
    await server.request('GET', '/settings', { token: a.users.user.token });
    const res = await server.request('PUT', '/settings/NotViewAssignedTickets', {
      token: a.users.admin.token,
      body: { value: 'enabled' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ key: 'NotViewAssignedTickets', value: 'enabled' });
    const list = await server.request('GET', '/settings', { token: a.users.user.token });
    expect(valueIn(list.body, 'NotViewAssignedTickets')).toBe('enabled');
    const [event] = await server.deps.dataSource.query(
      `SELECT name, payload FROM domain_events WHERE "tenantId" = $1 ORDER BY seq DESC LIMIT 1`,
      [a.tenant.id],
    );
    expect(event).toEqual({
      name: SOCKET_EVENTS.settingsUpdate,
      payload: { action: 'update', setting: { key: 'NotViewAssignedTickets', value: 'enabled' } },
    });
  });

  it('writes a key that has no row yet (tenants created before the key existed)', async () => {
    const a = await server.createTenantWithUsers();
    await server.deps.dataSource.query(`DELETE FROM settings WHERE "tenantId" = $1 AND key = 'forceSignature'`, [a.tenant.id]);
    const res = await server.request('PUT', '/settings/forceSignature', {
      token: a.users.admin.token,
      body: { value: 'enabled' },
    });
    expect(res.status).toBe(200);
    expect(await storedValue(a.tenant.id, 'forceSignature')).toBe('enabled');
  });

  it('accepts the auto-close options (text or number) and 0, and refuses other values naming value', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    expect((await server.request('PUT', '/settings/autoCloseTicketsMinutes', { token, body: { value: 60 } })).body).toEqual({
      key: 'autoCloseTicketsMinutes',
      value: '60',
    });
    expect((await server.request('PUT', '/settings/autoCloseTicketsMinutes', { token, body: { value: '14400' } })).status).toBe(
      200,
    );
    expect((await server.request('PUT', '/settings/autoCloseTicketsMinutes', { token, body: { value: '0' } })).status).toBe(200);
    const bad = await server.request('PUT', '/settings/autoCloseTicketsMinutes', { token, body: { value: '15' } });
    expect(bad.status).toBe(400);
    expect(bad.body.fields[0].path).toBe('value');
    const toggle = await server.request('PUT', '/settings/nullticket', { token, body: { value: 'yes' } });
    expect(toggle.status).toBe(400);
    expect(toggle.body.fields[0].path).toBe('value');
    expect(await storedValue(a.tenant.id, 'nullticket')).toBe('disabled');
  });

  it('refuses enabling the three exclusive ticket-view settings together (400 ERR_SETTINGS_CONFLICT)', async () => {
    const a = await server.createTenantWithUsers();
    const token = a.users.admin.token;
    const put = (key: string, value: string) => server.request('PUT', `/settings/${key}`, { token, body: { value } });
    expect((await put('NotViewAssignedTickets', 'enabled')).status).toBe(200);
    expect((await put('NotViewTicketsChatBot', 'enabled')).status).toBe(200);
    const conflict = await put('nullticket', 'enabled');
    expect(conflict.status).toBe(400);
    expect(conflict.body.error).toBe('ERR_SETTINGS_CONFLICT');
    expect(conflict.body.message).toContain('Não visualizar tickets atribuídos a outros usuários');
    expect(conflict.body.message).toContain('Não visualizar tickets no ChatBot');
    expect(conflict.body.message).toContain('Visualizar tickets sem fila e sem usuário');
    expect(await storedValue(a.tenant.id, 'nullticket')).toBe('disabled');
    expect((await put('NotViewTicketsChatBot', 'disabled')).status).toBe(200);
    expect((await put('nullticket', 'enabled')).status).toBe(200);
    expect((await put('NotViewTicketsChatBot', 'enabled')).status).toBe(400);
  });

  it("changes only the caller's tenant", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const res = await server.request('PUT', '/settings/mostrarGruposParaTodos', {
      token: b.users.admin.token,
      body: { value: 'enabled' },
    });
    expect(res.status).toBe(200);
    expect(await storedValue(a.tenant.id, 'mostrarGruposParaTodos')).toBe('disabled');
    expect(await storedValue(b.tenant.id, 'mostrarGruposParaTodos')).toBe('enabled');
  });

  it('answers 403 ERR_NO_PERMISSION to supervisors and users, and changes nothing', async () => {
    const a = await server.createTenantWithUsers();
    for (const profile of ['super', 'user'] as const) {
      const res = await server.request('PUT', '/settings/supervisorAdmin', {
        token: a.users[profile].token,
        body: { value: 'enabled' },
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect(await storedValue(a.tenant.id, 'supervisorAdmin')).toBe('disabled');
  });

  it('answers 404 ERR_NO_SETTING_FOUND for an unknown key', async () => {
    const a = await server.createTenantWithUsers();
    const res = await server.request('PUT', '/settings/semChave', { token: a.users.admin.token, body: { value: 'enabled' } });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_SETTING_FOUND');
  });

  it('answers 400 naming value for a malformed body', async () => {
    const a = await server.createTenantWithUsers();
    for (const body of [{}, { value: { nested: true } }]) {
      const res = await server.request('PUT', '/settings/forceSignature', { token: a.users.admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields[0].path).toBe('value');
    }
  });

  it('answers 401 without a token', async () => {
    expect((await server.request('PUT', '/settings/forceSignature', { body: { value: 'enabled' } })).status).toBe(401);
  });
});
