import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '@shared/errors';
import type { TestServer } from './test-server';

type Body = Record<string, unknown>;
type Tenant = Awaited<ReturnType<TestServer['createTenantWithUsers']>>;

export const uniqueSuffix = (): string => randomBytes(4).toString('hex');

/** One CRM catalog (queues, tags, ...) as its route tests see it. */
export interface CatalogRouteSpec {
  /** Base path, e.g. `/queue`. */
  path: string;
  /** Its table, to check rows directly. */
  table: string;
  notFound: ErrorCode;
  /** Socket event names recorded by writes. */
  events: { update: string; delete: string };
  /** A valid create body; unique on every call. */
  createBody(): Body;
  /** A valid update body; unique on every call. */
  updateBody(): Body;
  /** An invalid create/update body and the field the 400 must name. */
  malformed: { body: Body; field: string };
  /** The catalog keeps a `position` and has PUT <path>/reorder. */
  reorder?: boolean;
}

async function lastEvent(server: TestServer, tenantId: number): Promise<{ name: string; payload: any } | undefined> {
  const rows = await server.deps.dataSource.query(
    `SELECT name, payload FROM domain_events WHERE "tenantId" = $1 ORDER BY seq DESC LIMIT 1`,
    [tenantId],
  );
  return rows[0];
}

async function rowOf(server: TestServer, table: string, id: number): Promise<any> {
  const rows = await server.deps.dataSource.query(`SELECT * FROM ${table} WHERE id = $1`, [id]);
  return rows[0];
}

/**
 * The route matrix every catalog shares, for every route: success, another tenant (404 with
 * the module's code and the row unchanged), a profile without the right (403), a malformed body
 * (400 naming the field) and no token (401). Each test builds its own tenants.
 */
export function describeCatalogRoutes(getServer: () => TestServer, spec: CatalogRouteSpec): void {
  const create = async (server: TestServer, t: Tenant, body: Body = spec.createBody()) => {
    const res = await server.request('POST', spec.path, { token: t.users.admin.token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: number } & Body;
  };

  describe(`GET ${spec.path}`, () => {
    it('lists the tenant rows for every profile, never another tenant rows', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const b = await server.createTenantWithUsers();
      const mine = await create(server, a);
      const theirs = await create(server, b);
      for (const profile of ['user', 'super', 'admin'] as const) {
        const res = await server.request('GET', spec.path, { token: a.users[profile].token });
        expect(res.status).toBe(200);
        const ids = (res.body as { id: number }[]).map((r) => r.id);
        expect(ids).toContain(mine.id);
        expect(ids).not.toContain(theirs.id);
      }
    });

    it('answers 401 without a token', async () => {
      const res = await getServer().request('GET', spec.path);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_INVALID_TOKEN');
    });
  });

  describe(`POST ${spec.path}`, () => {
    it('creates in the caller tenant (201) and records the update event', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const body = spec.createBody();
      const res = await server.request('POST', spec.path, { token: a.users.super.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      for (const [key, value] of Object.entries(body)) {
        if (typeof value !== 'object') expect(res.body[key]).toBe(value);
      }
      expect((await rowOf(server, spec.table, res.body.id)).tenantId).toBe(a.tenant.id);
      const event = await lastEvent(server, a.tenant.id);
      expect(event?.name).toBe(spec.events.update);
      expect(event?.payload.action).toBe('create');
    });

    it('answers 403 ERR_NO_PERMISSION to an ordinary user and creates nothing', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const res = await server.request('POST', spec.path, { token: a.users.user.token, body: spec.createBody() });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
      const rows = await server.deps.dataSource.query(`SELECT id FROM ${spec.table} WHERE "tenantId" = $1`, [a.tenant.id]);
      expect(rows).toHaveLength(0);
    });

    it('answers 400 ERR_VALIDATION naming the field of a malformed body', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const res = await server.request('POST', spec.path, { token: a.users.admin.token, body: spec.malformed.body });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(res.body.fields.map((f: { path: string }) => f.path)).toContain(spec.malformed.field);
    });

    it('answers 401 without a token', async () => {
      const res = await getServer().request('POST', spec.path, { body: spec.createBody() });
      expect(res.status).toBe(401);
    });
  });

  if (spec.reorder) {
    describe(`PUT ${spec.path}/reorder`, () => {
      it('puts new rows last and rewrites positions 0..n-1 in the given order', async () => {
        const server = getServer();
        const a = await server.createTenantWithUsers();
        const first = await create(server, a);
        const second = await create(server, a);
        const third = await create(server, a);
        expect([first.position, second.position, third.position]).toEqual([0, 1, 2]);
        const res = await server.request('PUT', `${spec.path}/reorder`, {
          token: a.users.super.token,
          body: { ids: [third.id, first.id, second.id] },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.map((r: { id: number; position: number }) => [r.id, r.position])).toEqual([
          [third.id, 0],
          [first.id, 1],
          [second.id, 2],
        ]);
        const list = await server.request('GET', spec.path, { token: a.users.user.token });
        expect(list.body.map((r: { id: number }) => r.id)).toEqual([third.id, first.id, second.id]);
        const event = await lastEvent(server, a.tenant.id);
        expect(event?.name).toBe(spec.events.update);
        expect(event?.payload).toEqual({ action: 'reorder', ids: [third.id, first.id, second.id] });
      });

      it('refuses a list that misses or repeats a row (400 naming ids)', async () => {
        const server = getServer();
        const a = await server.createTenantWithUsers();
        const first = await create(server, a);
        const second = await create(server, a);
        for (const ids of [[first.id], [first.id, first.id], [first.id, second.id, second.id]]) {
          const res = await server.request('PUT', `${spec.path}/reorder`, { token: a.users.admin.token, body: { ids } });
          expect(res.status).toBe(400);
          expect(res.body.fields[0].path).toBe('ids');
        }
      });

      it('answers 404 for ids of another tenant and leaves their order unchanged', async () => {
        const server = getServer();
        const a = await server.createTenantWithUsers();
        const b = await server.createTenantWithUsers();
        const first = await create(server, a);
        const second = await create(server, a);
        const res = await server.request('PUT', `${spec.path}/reorder`, {
          token: b.users.admin.token,
          body: { ids: [second.id, first.id] },
        });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe(spec.notFound);
        expect((await rowOf(server, spec.table, first.id)).position).toBe(0);
        expect((await rowOf(server, spec.table, second.id)).position).toBe(1);
      });

      it('answers 403 to an ordinary user', async () => {
        const server = getServer();
        const a = await server.createTenantWithUsers();
        const first = await create(server, a);
        const res = await server.request('PUT', `${spec.path}/reorder`, { token: a.users.user.token, body: { ids: [first.id] } });
        expect(res.status).toBe(403);
        expect(res.body.error).toBe('ERR_NO_PERMISSION');
      });

      it('answers 400 naming ids for a malformed body', async () => {
        const server = getServer();
        const a = await server.createTenantWithUsers();
        const res = await server.request('PUT', `${spec.path}/reorder`, { token: a.users.admin.token, body: { ids: 'a,b' } });
        expect(res.status).toBe(400);
        expect(res.body.fields.map((f: { path: string }) => f.path)).toContain('ids');
      });

      it('answers 401 without a token', async () => {
        const res = await getServer().request('PUT', `${spec.path}/reorder`, { body: { ids: [] } });
        expect(res.status).toBe(401);
      });
    });
  }

  describe(`PUT ${spec.path}/:id`, () => {
    it('updates the row (200) and records the update event', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const row = await create(server, a);
      const body = spec.updateBody();
      const res = await server.request('PUT', `${spec.path}/${row.id}`, { token: a.users.super.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const [key, value] of Object.entries(body)) {
        if (typeof value !== 'object') expect(res.body[key]).toBe(value);
      }
      const event = await lastEvent(server, a.tenant.id);
      expect(event?.name).toBe(spec.events.update);
      expect(event?.payload.action).toBe('update');
    });

    it('answers 404 with the module code to another tenant and leaves the row unchanged', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const b = await server.createTenantWithUsers();
      const row = await create(server, a);
      const before = await rowOf(server, spec.table, row.id);
      const res = await server.request('PUT', `${spec.path}/${row.id}`, { token: b.users.admin.token, body: spec.updateBody() });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(spec.notFound);
      expect(await rowOf(server, spec.table, row.id)).toEqual(before);
    });

    it('answers 403 ERR_NO_PERMISSION to an ordinary user and leaves the row unchanged', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const row = await create(server, a);
      const before = await rowOf(server, spec.table, row.id);
      const res = await server.request('PUT', `${spec.path}/${row.id}`, { token: a.users.user.token, body: spec.updateBody() });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
      expect(await rowOf(server, spec.table, row.id)).toEqual(before);
    });

    it('answers 400 ERR_VALIDATION naming the field of a malformed body, or of a bad id', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const row = await create(server, a);
      const res = await server.request('PUT', `${spec.path}/${row.id}`, {
        token: a.users.admin.token,
        body: spec.malformed.body,
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f: { path: string }) => f.path)).toContain(spec.malformed.field);
      const empty = await server.request('PUT', `${spec.path}/${row.id}`, { token: a.users.admin.token, body: {} });
      expect(empty.status).toBe(400);
      const badId = await server.request('PUT', `${spec.path}/abc`, { token: a.users.admin.token, body: spec.updateBody() });
      expect(badId.status).toBe(400);
      expect(badId.body.error).toBe('ERR_VALIDATION');
    });

    it('answers 404 for an id that does not exist', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const res = await server.request('PUT', `${spec.path}/987654321`, { token: a.users.admin.token, body: spec.updateBody() });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(spec.notFound);
    });

    it('answers 401 without a token', async () => {
      const res = await getServer().request('PUT', `${spec.path}/1`, { body: spec.updateBody() });
      expect(res.status).toBe(401);
    });
  });

  describe(`DELETE ${spec.path}/:id`, () => {
    it('deletes the row (204) and records the delete event', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const row = await create(server, a);
      const res = await server.request('DELETE', `${spec.path}/${row.id}`, { token: a.users.super.token });
      expect(res.status).toBe(204);
      expect(await rowOf(server, spec.table, row.id)).toBeUndefined();
      const event = await lastEvent(server, a.tenant.id);
      expect(event).toEqual({ name: spec.events.delete, payload: { action: 'delete', id: row.id } });
    });

    it('answers 404 with the module code to another tenant and keeps the row', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const b = await server.createTenantWithUsers();
      const row = await create(server, a);
      const res = await server.request('DELETE', `${spec.path}/${row.id}`, { token: b.users.admin.token });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(spec.notFound);
      expect(await rowOf(server, spec.table, row.id)).toBeDefined();
    });

    it('answers 403 ERR_NO_PERMISSION to an ordinary user and keeps the row', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const row = await create(server, a);
      const res = await server.request('DELETE', `${spec.path}/${row.id}`, { token: a.users.user.token });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
      expect(await rowOf(server, spec.table, row.id)).toBeDefined();
    });

    it('answers 400 naming the id param when it is not a number', async () => {
      const server = getServer();
      const a = await server.createTenantWithUsers();
      const res = await server.request('DELETE', `${spec.path}/x1`, { token: a.users.admin.token });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    });

    it('answers 401 without a token', async () => {
      const res = await getServer().request('DELETE', `${spec.path}/1`);
      expect(res.status).toBe(401);
    });
  });
}
