import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { RATING_LABELS } from '@shared/limits';
import type { Profile } from '@shared/profiles';
import {
  DEFAULT_BUSINESS_HOURS,
  DEFAULT_RATING_SETTINGS,
  DEFAULT_SYSTEM_COLORS,
  type BusinessHoursDay,
} from '@shared/schemas/tenant-settings';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import { platformTenant } from '../../../../tests/helpers/platform-tenant';
import { startTestServer, type TestServer, type TestTenant, type TestUser } from '../../../../tests/helpers/test-server';

let server: TestServer;
let platform: TestTenant;
let superadmin: TestUser & { token: string };

beforeAll(async () => {
  server = await startTestServer();
  platform = await platformTenant(server);
  superadmin = await signedIn(platform.id, 'superadmin');
});
afterAll(async () => server?.close());

async function signedIn(tenantId: number, profile: Profile): Promise<TestUser & { token: string }> {
  const user = await server.createUser(tenantId, { profile });
  return { ...user, token: (await server.login(user)).token };
}

async function tenantRow(id: number) {
  const [row] = await server.deps.dataSource.query(
    `SELECT "businessHours", "messageBusinessHours", "ratingSettings", "systemColors" FROM tenants WHERE id = $1`,
    [id],
  );
  return row;
}

const fieldPaths = (body: any): string[] => (body.fields ?? []).map((f: { path: string }) => f.path);

/** A week different from the default, so a saved week is recognisable. */
function customWeek(): BusinessHoursDay[] {
  return DEFAULT_BUSINESS_HOURS.map((d) => ({
    ...d,
    type: 'H' as const,
    hr1: '09:00',
    hr2: '12:30',
    hr3: '12:30',
    hr4: '17:45',
  }));
}

describe('GET /tenants/business-hours/', () => {
  it('answers a tenant that never saved hours the default week, to any signed-in profile', async () => {
    const { users } = await server.createTenantWithUsers();
    for (const caller of [users.user, users.super, users.admin]) {
      const res = await server.request('GET', '/tenants/business-hours/', { token: caller.token });
      expect(res.status, caller.profile).toBe(200);
      expect(res.body.messageBusinessHours).toBeNull();
      expect(res.body.businessHours).toHaveLength(7);
      expect(res.body.businessHours.map((d: BusinessHoursDay) => d.day)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      for (const d of res.body.businessHours as BusinessHoursDay[]) {
        if (d.day === 0 || d.day === 6) expect(d.type).toBe('C');
        else expect(d).toMatchObject({ type: 'H', hr1: '08:00', hr2: '12:00', hr3: '13:00', hr4: '18:00' });
      }
    }
    // The path without the trailing slash answers the same.
    const bare = await server.request('GET', '/tenants/business-hours', { token: users.user.token });
    expect(bare.status).toBe(200);
    expect(bare.body.businessHours).toHaveLength(7);
  });

  it("reads only the caller's tenant", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    await server.deps.dataSource.query(
      `UPDATE tenants SET "businessHours" = $1::jsonb, "messageBusinessHours" = 'A fechado' WHERE id = $2`,
      [JSON.stringify(customWeek()), a.tenant.id],
    );
    const resA = await server.request('GET', '/tenants/business-hours/', { token: a.users.user.token });
    expect(resA.body.businessHours[1].hr1).toBe('09:00');
    expect(resA.body.messageBusinessHours).toBe('A fechado');
    const resB = await server.request('GET', '/tenants/business-hours/', { token: b.users.admin.token });
    expect(resB.body.businessHours).toEqual(DEFAULT_BUSINESS_HOURS);
    expect(resB.body.messageBusinessHours).toBeNull();
  });

  it('requires a token (401)', async () => {
    const res = await server.request('GET', '/tenants/business-hours/');
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('ERR_INVALID_TOKEN');
  });
});

describe('PUT /tenants/business-hours/', () => {
  it("saves the week of the caller's tenant (admin and supervisor), sorted, and records tenant:update", async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const week = customWeek();
    const res = await server.request('PUT', '/tenants/business-hours/', { token: users.admin.token, body: [...week].reverse() });
    expect(res.status).toBe(200);
    expect(res.body.businessHours).toEqual(week);
    expect((await tenantRow(tenant.id)).businessHours).toEqual(week);

    const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.tenantUpdate);
    expect(event?.audience).toEqual({ scope: 'tenant' });
    expect(event?.payload).toEqual({ tenantId: tenant.id, businessHours: week });

    const closedSunday = week.map((d) => (d.day === 3 ? { ...d, type: 'O' as const } : d));
    const bySupervisor = await server.request('PUT', '/tenants/business-hours', { token: users.super.token, body: closedSunday });
    expect(bySupervisor.status).toBe(200);
    expect(bySupervisor.body.businessHours[3].type).toBe('O');
  });

  it('refuses a tenantId in the body (an unknown field, 400 naming it) and writes no tenant', async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const body = customWeek().map((d) => ({ ...d, tenantId: a.tenant.id }));
    const res = await server.request('PUT', '/tenants/business-hours/', { token: b.users.admin.token, body });
    expect(res.status).toBe(400);
    expect(res.body.fields).toContainEqual({ path: '0.tenantId', message: 'campo desconhecido' });
    expect((await tenantRow(a.tenant.id)).businessHours).toEqual([]);
    expect((await tenantRow(b.tenant.id)).businessHours).toEqual([]);
    expect(await lastEvent(server, a.tenant.id, SOCKET_EVENTS.tenantUpdate)).toBeUndefined();
  });

  it('refuses a plain user (403) and changes nothing', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const before = await eventCount(server, tenant.id);
    const res = await server.request('PUT', '/tenants/business-hours/', { token: users.user.token, body: customWeek() });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect((await tenantRow(tenant.id)).businessHours).toEqual([]);
    expect(await eventCount(server, tenant.id)).toBe(before);
  });

  it('rejects malformed weeks with 400 ERR_VALIDATION naming the field', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const week = customWeek();
    const withDay = (index: number, patch: Partial<Record<keyof BusinessHoursDay, unknown>>) =>
      week.map((d, i) => (i === index ? { ...d, ...patch } : d));
    const cases: [unknown, string][] = [
      [week.slice(0, 6), 'body'],
      [{ businessHours: week }, 'body'],
      [withDay(2, { day: 7 }), '2.day'],
      [withDay(2, { day: 1 }), '2.day'],
      [withDay(4, { type: 'X' }), '4.type'],
      [withDay(1, { hr1: '8:00' }), '1.hr1'],
      [withDay(1, { hr4: '24:00' }), '1.hr4'],
      [withDay(5, { type: 'H', hr1: '12:00', hr2: '09:00' }), '5.hr2'],
      [withDay(5, { type: 'H', hr3: '18:00', hr4: '17:00' }), '5.hr4'],
      [withDay(5, { type: 'H', hr2: '14:00', hr3: '13:00' }), '5.hr3'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('PUT', '/tenants/business-hours/', { token: users.admin.token, body });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body), field).toContain(field);
    }
    // Closed and open days do not need ordered hours.
    const closed = await server.request('PUT', '/tenants/business-hours/', {
      token: users.admin.token,
      body: withDay(0, { type: 'C', hr1: '18:00', hr2: '08:00' }),
    });
    expect(closed.status).toBe(200);
    expect((await tenantRow(tenant.id)).businessHours[0]).toMatchObject({ type: 'C', hr1: '18:00' });
  });

  it('requires a token (401)', async () => {
    const res = await server.request('PUT', '/tenants/business-hours/', { body: customWeek() });
    expect(res.status).toBe(401);
  });
});

describe('PUT /tenants/message-business-hours/', () => {
  it("saves the absence message of the caller's tenant and records tenant:update", async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', '/tenants/message-business-hours/', {
      token: users.super.token,
      body: { messageBusinessHours: '  Estamos fora do horário de atendimento.  ' },
    });
    expect(res.status).toBe(200);
    expect(res.body.messageBusinessHours).toBe('Estamos fora do horário de atendimento.');
    expect(res.body.businessHours).toHaveLength(7);
    expect((await tenantRow(tenant.id)).messageBusinessHours).toBe('Estamos fora do horário de atendimento.');
    const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.tenantUpdate);
    expect(event?.audience).toEqual({ scope: 'tenant' });
    expect(event?.payload).toEqual({ tenantId: tenant.id, messageBusinessHours: 'Estamos fora do horário de atendimento.' });
  });

  it("writes only the caller's tenant", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const res = await server.request('PUT', '/tenants/message-business-hours', {
      token: b.users.admin.token,
      body: { messageBusinessHours: 'B', tenantId: a.tenant.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toContainEqual({ path: 'tenantId', message: 'campo desconhecido' });
    expect((await tenantRow(a.tenant.id)).messageBusinessHours).toBeNull();
    expect((await tenantRow(b.tenant.id)).messageBusinessHours).toBeNull();
    const own = await server.request('PUT', '/tenants/message-business-hours', { token: b.users.admin.token, body: { messageBusinessHours: 'B' } });
    expect(own.status).toBe(200);
    expect((await tenantRow(a.tenant.id)).messageBusinessHours).toBeNull();
    expect((await tenantRow(b.tenant.id)).messageBusinessHours).toBe('B');
  });

  it('refuses a plain user (403)', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', '/tenants/message-business-hours/', {
      token: users.user.token,
      body: { messageBusinessHours: 'x' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect((await tenantRow(tenant.id)).messageBusinessHours).toBeNull();
  });

  it('rejects a malformed body with 400 naming messageBusinessHours', async () => {
    const { users } = await server.createTenantWithUsers();
    for (const body of [{}, { messageBusinessHours: 5 }, { messageBusinessHours: 'x'.repeat(5000) }]) {
      const res = await server.request('PUT', '/tenants/message-business-hours/', { token: users.admin.token, body });
      expect(res.status).toBe(400);
      expect(fieldPaths(res.body)).toContain('messageBusinessHours');
    }
  });

  it('requires a token (401)', async () => {
    const res = await server.request('PUT', '/tenants/message-business-hours/', { body: { messageBusinessHours: 'x' } });
    expect(res.status).toBe(401);
  });
});

describe('GET /tenants/rating/', () => {
  it('answers the defaults (labels of spec section 9) until the tenant saves its own, to any profile', async () => {
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('GET', '/tenants/rating/', { token: users.user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULT_RATING_SETTINGS);
    expect(res.body.labels).toEqual([...RATING_LABELS]);
  });

  it("reads only the caller's tenant", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    await server.request('PUT', '/tenants/rating/', { token: a.users.admin.token, body: { enabled: true, message: 'Avalie A' } });
    const resB = await server.request('GET', '/tenants/rating', { token: b.users.user.token });
    expect(resB.body).toEqual(DEFAULT_RATING_SETTINGS);
  });

  it('requires a token (401)', async () => {
    expect((await server.request('GET', '/tenants/rating/')).status).toBe(401);
  });
});

describe('PUT /tenants/rating/', () => {
  it('saves the settings, filling defaults for left-out fields, and records tenant:update', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', '/tenants/rating/', {
      token: users.admin.token,
      body: { enabled: true, message: 'Dê uma nota de 0 a 5', maxAttempts: 2 },
    });
    expect(res.status).toBe(200);
    const expected = { ...DEFAULT_RATING_SETTINGS, enabled: true, message: 'Dê uma nota de 0 a 5', maxAttempts: 2 };
    expect(res.body).toEqual(expected);
    expect((await tenantRow(tenant.id)).ratingSettings).toEqual(expected);
    const event = await lastEvent(server, tenant.id, SOCKET_EVENTS.tenantUpdate);
    expect(event?.audience).toEqual({ scope: 'tenant' });
    expect(event?.payload).toEqual({ tenantId: tenant.id, ratingSettings: expected });

    const labels = ['0', '1', '2', '3', '4', '5'];
    const bySupervisor = await server.request('PUT', '/tenants/rating', {
      token: users.super.token,
      body: { enabled: false, message: '', labels },
    });
    expect(bySupervisor.status).toBe(200);
    expect(bySupervisor.body).toMatchObject({ enabled: false, labels });
  });

  it("writes only the caller's tenant", async () => {
    const a = await server.createTenantWithUsers();
    const b = await server.createTenantWithUsers();
    const res = await server.request('PUT', '/tenants/rating/', {
      token: b.users.admin.token,
      body: { enabled: true, message: 'B', tenantId: a.tenant.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.fields).toContainEqual({ path: 'tenantId', message: 'campo desconhecido' });
    const own = await server.request('PUT', '/tenants/rating/', { token: b.users.admin.token, body: { enabled: true, message: 'B' } });
    expect(own.status).toBe(200);
    expect((await tenantRow(a.tenant.id)).ratingSettings).toEqual({});
    expect((await tenantRow(b.tenant.id)).ratingSettings.message).toBe('B');
  });

  it('refuses a plain user (403)', async () => {
    const { tenant, users } = await server.createTenantWithUsers();
    const res = await server.request('PUT', '/tenants/rating/', {
      token: users.user.token,
      body: { enabled: true, message: 'x' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    expect((await tenantRow(tenant.id)).ratingSettings).toEqual({});
  });

  it('rejects malformed settings with 400 naming the field', async () => {
    const { users } = await server.createTenantWithUsers();
    const cases: [unknown, string][] = [
      [{ enabled: 'sim', message: 'x' }, 'enabled'],
      [{ enabled: true }, 'message'],
      [{ enabled: true, message: '   ' }, 'message'],
      [{ enabled: false, message: 'x', labels: ['a', 'b', 'c', 'd', 'e'] }, 'labels'],
      [{ enabled: false, message: 'x', labels: ['a', 'b', 'c', 'd', 'e', ''] }, 'labels.5'],
      [{ enabled: false, message: 'x', maxAttempts: 0 }, 'maxAttempts'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('PUT', '/tenants/rating/', { token: users.admin.token, body });
      expect(res.status, field).toBe(400);
      expect(fieldPaths(res.body), field).toContain(field);
    }
  });

  it('requires a token (401)', async () => {
    expect((await server.request('PUT', '/tenants/rating/', { body: { enabled: false, message: '' } })).status).toBe(401);
  });
});

describe('system colours', () => {
  const palette = [
    { label: 'Primary', primary: '#112233' },
    { label: 'Secondary', secondary: 'rgb(10, 20, 30)' },
    { accent: 'hsl(210deg 50% 40% / 0.5)', neutral: '#abcd' },
  ];

  it('GET /tenants/systemColors/ and GET /publicSystemColors answer the default palette until one is saved', async () => {
    await server.deps.dataSource.query(`UPDATE tenants SET "systemColors" = '[]'::jsonb WHERE id = $1`, [platform.id]);
    const { users } = await server.createTenantWithUsers();
    const res = await server.request('GET', '/tenants/systemColors/', { token: users.user.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DEFAULT_SYSTEM_COLORS);
    const pub = await server.request('GET', '/publicSystemColors');
    expect(pub.status).toBe(200);
    expect(pub.body).toEqual(DEFAULT_SYSTEM_COLORS);
  });

  it('PUT /tenants/systemColors/ by the super administrator saves the platform palette on tenant 1 for everyone', async () => {
    const res = await server.request('PUT', '/tenants/systemColors/', { token: superadmin.token, body: palette });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(palette);
    expect((await tenantRow(platform.id)).systemColors).toEqual(palette);
    const event = await lastEvent(server, platform.id, SOCKET_EVENTS.tenantUpdate);
    expect(event?.audience).toEqual({ scope: 'tenant' });
    expect(event?.payload).toEqual({ tenantId: platform.id, systemColors: palette });

    // Every tenant reads the platform palette, signed in or not.
    const { users } = await server.createTenantWithUsers();
    expect((await server.request('GET', '/tenants/systemColors', { token: users.user.token })).body).toEqual(palette);
    expect((await server.request('GET', '/publicSystemColors/')).body).toEqual(palette);
  });

  it('GET /publicSystemColors answers only colours, nothing else of tenant 1', async () => {
    await server.request('PUT', '/tenants/systemColors/', { token: superadmin.token, body: palette });
    const res = await server.request('GET', '/publicSystemColors');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    for (const entry of res.body as Record<string, unknown>[]) {
      for (const value of Object.values(entry)) expect(typeof value).toBe('string');
    }
    const text = JSON.stringify(res.body);
    for (const leak of ['Plataforma', 'businessHours', 'ratingSettings', 'eventSeq', 'paymentToken', '"id"', 'tenantId'])
      expect(text).not.toContain(leak);
  });

  it('PUT refuses tenant admins and a "superadmin" outside the platform tenant (403), changing nothing', async () => {
    await server.request('PUT', '/tenants/systemColors/', { token: superadmin.token, body: palette });
    const { tenant, users } = await server.createTenantWithUsers();
    const stray = await signedIn(tenant.id, 'superadmin');
    const platformEvents = await eventCount(server, platform.id);
    for (const caller of [users.admin, users.super, users.user, stray]) {
      const res = await server.request('PUT', '/tenants/systemColors/', { token: caller.token, body: [{ primary: '#000000' }] });
      expect(res.status, caller.profile).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await tenantRow(platform.id)).systemColors).toEqual(palette);
    expect((await tenantRow(tenant.id)).systemColors).toEqual([]);
    expect(await eventCount(server, platform.id)).toBe(platformEvents);
  });

  it('PUT rejects anything but a list of { name: CSS colour } with 400 naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ primary: '#000' }, 'body'],
      [[], 'body'],
      [[{ primary: 'red; background: url(http://x)' }], '0.primary'],
      [[{ primary: '#12345' }], '0.primary'],
      [[{ label: 'Primary', primary: 'var(--x)' }], '0.primary'],
      [[{ primary: '#000' }, { 'bad name!': '#fff' }], '1.bad name!'],
      [[{ label: '<script>', primary: '#000' }], '0.label'],
      [[{ label: 'Only a label' }], '0'],
      [['#000'], '0'],
    ];
    for (const [body, field] of cases) {
      const res = await server.request('PUT', '/tenants/systemColors/', { token: superadmin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(fieldPaths(res.body), JSON.stringify(body)).toContain(field);
    }
  });

  it('requires a token on /tenants/systemColors/ (401)', async () => {
    expect((await server.request('GET', '/tenants/systemColors/')).status).toBe(401);
    expect((await server.request('PUT', '/tenants/systemColors/', { body: palette })).status).toBe(401);
  });
});
