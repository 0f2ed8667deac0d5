import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { RECORD_ID_MAX } from '@shared/schemas/record-id';
import { VALIDATED_INPUT, type ValidatedInput } from '../../server/src/http/validate';
import {
  createMessagingTenant,
  startMessagingServer,
  type MessagingTenant,
} from '../../server/src/modules/messages/messages.test-support';
import type { FakeGraphApi } from '../fakes/graph-api.fake';
import { platformTenant } from '../helpers/platform-tenant';
import type { TestServer } from '../helpers/test-server';

/**
 * Issue #11: every bad input is a clear 4xx, never a 500. Every route of the app's routers (read
 * from the running app, so a new route is covered without touching this file) is called with
 * generated bad path ids, queries and bodies, as a caller allowed to use it (the tenant's admin,
 * or the super administrator for platform routes), with real ids of the tenant's rows mixed in so
 * requests reach the services and the database. Checked for every answer: no 5xx, and each 4xx
 * is `{ error: 'ERR_...', message }`. For every refused write: no table changed its row count or
 * its newest `updatedAt`, and no domain event was recorded (nothing stored by a refused request).
 *
 * Fixed seed and a bounded number of cases per route keep the run reproducible and within about
 * two minutes on a loaded machine. FUZZ_RUNS / FUZZ_SEED override them for a longer local hunt.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 14);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

interface RouteInfo {
  method: string;
  path: string;
  params: string[];
  inputs: ValidatedInput[];
}

interface Case {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; type: string; text: string } | { kind: 'multipart'; fields: [string, string][]; fileName?: string } | { kind: 'none' };
}

/** Every route of the app: method and path of each router layer (HEAD is GET's twin). */
function appRoutes(server: TestServer): RouteInfo[] {
  const routes: RouteInfo[] = [];
  for (const mw of server.app.middleware as { router?: { stack: any[] } }[]) {
    for (const layer of mw.router?.stack ?? []) {
      const inputs = (layer.stack as Record<symbol, ValidatedInput | undefined>[])
        .map((fn) => fn[VALIDATED_INPUT])
        .filter((v): v is ValidatedInput => v !== undefined);
      const params = (layer.paramNames as { name: string }[]).map((p) => p.name);
      for (const method of layer.methods as string[]) {
        if (method !== 'HEAD') routes.push({ method, path: layer.path, params, inputs });
      }
    }
  }
  return routes;
}

/** Keys a schema declares at its top level (walks wrappers the way validate's strict check does). */
function topKeys(schema: ZodType | undefined): string[] {
  let def = (schema as any)?._zod?.def;
  for (let i = 0; def && i < 20; i++) {
    if (def.type === 'object') return Object.keys(def.shape);
    if (def.type === 'pipe') def = (def.in._zod.def.type === 'transform' ? def.out : def.in)._zod.def;
    else if (def.innerType) def = def.innerType._zod.def;
    else if (def.type === 'union') def = def.options.find((o: any) => o._zod.def.type === 'object')?._zod.def ?? def.options[0]._zod.def;
    else return [];
  }
  return [];
}

// ---- generators ----------------------------------------------------------------------------

const NASTY_TEXT = [
  '\u0000',
  'a\u0000b',
  'x\u0007y',
  '\u001b[31m',
  '\ud800',
  'ok\udc00',
  "' OR 1=1 --",
  "'; DROP TABLE contacts; --",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '%00',
  '../../etc/passwd',
  '\u202e\u200b',
  '😀'.repeat(3),
  '',
  ' ',
  'null',
  'true',
  '1e309',
  'NaN',
  '-1',
  '0',
  String(RECORD_ID_MAX + 1),
  '1.5',
  '9'.repeat(40),
  '{"a":1}',
  '[]',
  '2026-13-45T99:99:99Z',
];
const BAD_NUMBERS = [0, -1, 1.5, RECORD_ID_MAX + 1, 2 ** 53, 1e20, -1e20, 1e308, -0, Number.MIN_VALUE];
const BAD_IDS = ['0', '-1', String(RECORD_ID_MAX + 1), '1e20', 'abc', '1.5', '\u0000', '%00', '9'.repeat(400), ' 1', '0x10', 'NaN'];

function nest(depth: number): unknown {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
}

const leaf = (realIds: number[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXT) },
    { weight: 3, arbitrary: fc.constantFrom(...BAD_NUMBERS) },
    { weight: 3, arbitrary: fc.constantFrom(...realIds) },
    { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 1, arbitrary: fc.double() },
    { weight: 2, arbitrary: fc.boolean() },
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(70_000), 'é'.repeat(5000)) },
  );

const value = (realIds: number[]) =>
  fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf(realIds),
      fc.array(tie('v'), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie('v'), { maxKeys: 3 }),
    ),
  })).v;

/** An object with the schema's own keys (some of them), bad or plausible values, sometimes a key too many. */
const knownKeysObject = (keys: string[], realIds: number[]) =>
  fc
    .tuple(
      fc.subarray(keys),
      fc.array(value(realIds), { minLength: keys.length, maxLength: keys.length }),
      fc.option(fc.tuple(fc.constantFrom('unknownField', 'tenantId', '__proto__', 'isAdmin', 'a\u0000'), value(realIds)), { freq: 3 }),
    )
    .map(([chosen, values, extra]) => {
      const out: Record<string, unknown> = {};
      chosen.forEach((k) => (out[k] = values[keys.indexOf(k)]));
      if (extra) Object.defineProperty(out, extra[0], { value: extra[1], enumerable: true, writable: true, configurable: true });
      return out;
    });

function caseArb(route: RouteInfo, realParams: Record<string, string>, realIds: number[]): fc.Arbitrary<Case> {
  const params = fc.record(
    Object.fromEntries(
      route.params.map((p) => [p, fc.oneof({ weight: 2, arbitrary: fc.constant(realParams[p] ?? '1') }, { weight: 3, arbitrary: fc.constantFrom(...BAD_IDS) })]),
    ) as Record<string, fc.Arbitrary<string>>,
  );
  const queryKeys = topKeys(route.inputs.find((i) => i.source === 'query')?.schema);
  const query = fc.oneof(
    fc.constant({}),
    knownKeysObject(queryKeys.length ? queryKeys : ['searchParam', 'pageNumber', 'status'], realIds),
    fc.dictionary(fc.constantFrom('searchParam', 'pageNumber', 'ticketId', 'a\u0000', '__proto__'), leaf(realIds), { maxKeys: 3 }),
  );
  const bodyKeys = topKeys(route.inputs.find((i) => i.source === 'body')?.schema);
  const hasBody = route.method !== 'GET';
  const json = fc.oneof(
    { weight: 6, arbitrary: knownKeysObject(bodyKeys.length ? bodyKeys : ['name', 'body', 'id'], realIds) },
    { weight: 2, arbitrary: value(realIds) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 3000 }).map(nest) },
    { weight: 1, arbitrary: fc.array(knownKeysObject(bodyKeys, realIds), { maxLength: 2 }) },
  );
  const body: fc.Arbitrary<Case['body']> = hasBody
    ? fc.oneof(
        { weight: 10, arbitrary: json.map((v) => ({ kind: 'json' as const, value: v })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(
              { type: 'application/json', text: '{"a":' },
              { type: 'application/json', text: '\u0000' },
              { type: 'application/json', text: '"\\u0000"' },
              { type: 'application/json', text: '[' .repeat(5000) },
              { type: 'application/x-www-form-urlencoded', text: 'name=a%00b&body=x&tags[]=1' },
              { type: 'text/plain', text: 'hello' },
              { type: 'application/xml', text: '<a/>' },
            )
            .map((r) => ({ kind: 'raw' as const, ...r })),
        },
        {
          weight: 2,
          arbitrary: fc
            .tuple(
              fc.array(fc.tuple(fc.constantFrom(...bodyKeys, 'body', 'na\u0000me', 'x'), fc.constantFrom(...NASTY_TEXT)), { maxLength: 4 }),
              fc.option(fc.constantFrom('ok.png', 'a\u0000.png', '../../x.csv', 'x\u0007.csv', 'c.csv'), { nil: undefined }),
            )
            .map(([fields, fileName]) => ({ kind: 'multipart' as const, fields, fileName })),
        },
      )
    : fc.constant({ kind: 'none' as const });
  return fc.record({ params, query, body });
}

function urlOf(route: RouteInfo, c: Case): string {
  let path = route.path;
  for (const p of route.params) path = path.replace(`:${p}`, encodeURIComponent(c.params[p]));
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(c.query)) {
    for (const item of Array.isArray(v) ? v : [v]) qs.append(k, typeof item === 'string' ? item : JSON.stringify(item) ?? '');
  }
  const q = qs.toString();
  return q ? `${path}?${q}` : path;
}

async function send(server: TestServer, method: string, url: string, token: string | undefined, body: Case['body']) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: string | FormData | undefined;
  if (body.kind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body.value) ?? 'null';
  } else if (body.kind === 'raw') {
    headers['content-type'] = body.type;
    payload = body.text;
  } else if (body.kind === 'multipart') {
    const form = new FormData();
    for (const [k, v] of body.fields) form.append(k, v);
    if (body.fileName) form.append('medias', new Blob([new Uint8Array([0x4e, 0x61, 0x6d, 0x65, 0x00, 0x0a])], { type: 'text/csv' }), body.fileName);
    payload = form;
  }
  const res = await fetch(server.url + url, { method, headers, body: payload });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: res.status, body: json };
}

// ---- storage snapshot ----------------------------------------------------------------------

/**
 * Every table's row count and latest `updatedAt`. Left out: the migrations and periodic_runs, the
 * scheduler's own bookkeeping, which background jobs write at their own times whatever the
 * requests do (a sweep finishing during a refused request once failed CI); and the platform's
 * audit trails, terminal_audit and platform_updates, whose purpose is to record refused attempts
 * too (a refused terminal command, an unsigned update package).
 */
async function snapshotSql(server: TestServer): Promise<string> {
  const tables: { table_name: string; has_updated: boolean }[] = await server.deps.dataSource.query(
    `SELECT t.table_name,
            EXISTS (SELECT 1 FROM information_schema.columns c
                     WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'updatedAt') AS has_updated
       FROM information_schema.tables t
      WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND t.table_name NOT IN ('migrations', 'periodic_runs', 'terminal_audit', 'platform_updates')
      ORDER BY t.table_name`,
  );
  const parts = tables.map(
    (t) =>
      `SELECT '${t.table_name}' AS t, count(*)::text AS n, ${t.has_updated ? `max("updatedAt")::text` : `''`} AS u FROM "${t.table_name}"`,
  );
  parts.push(`SELECT 'tenants.eventSeq', coalesce(sum("eventSeq"), 0)::text, '' FROM tenants`);
  return parts.join(' UNION ALL ');
}

async function snapshot(server: TestServer, sql: string): Promise<Record<string, string>> {
  const rows: { t: string; n: string; u: string | null }[] = await server.deps.dataSource.query(sql);
  return Object.fromEntries(rows.map((r) => [r.t, `${r.n}|${r.u ?? ''}`]));
}

const changed = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).filter((k) => a[k] !== b[k]);

// ---- the test ------------------------------------------------------------------------------

describe('every route answers bad input with a clear 4xx', () => {
  let server: TestServer;
  let graph: FakeGraphApi;
  let t: MessagingTenant;
  let superToken: string;
  let superUser: { email: string; password: string };
  const realParams: Record<string, string> = {};
  const realIds: number[] = [];
  const idByPrefix: Record<string, string> = {};

  beforeAll(async () => {
    ({ server, graph } = await startMessagingServer());
    const platform = await platformTenant(server);
    superUser = await server.createUser(platform.id, { profile: 'superadmin' });
    superToken = (await server.login(superUser)).token;
    t = await createMessagingTenant(server, graph);
    const admin = t.users.admin.token;
    const create = async (url: string, body: unknown, token = admin): Promise<number> => {
      const res = await server.request('POST', url, { token, body });
      if (res.status >= 300) throw new Error(`setup ${url}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.id;
    };
    const queueId = await create('/queue', { name: 'Fila fuzz' });
    const tagId = await create('/tags', { name: 'Etiqueta fuzz', color: '#ff0000' });
    const teamId = await create('/teams', { name: 'Equipe fuzz' });
    const kanbanId = await create('/kanban', { name: 'Coluna fuzz' });
    const laneId = await create('/lanes', { name: 'Lane fuzz' });
    const demandId = await create('/demands', { name: 'Motivo fuzz' });
    const fastReplyId = await create('/fastreply', { key: 'fuzz', message: 'Mensagem fuzz' });
    const noteId = await create(`/tickets/${t.ticketId}/notes`, { note: 'nota' });
    const sent = await server.request('POST', `/messages/${t.ticketId}`, { token: t.users.user.token, body: { body: 'olá' } });
    const messageId = sent.body?.id ?? sent.body?.message?.id ?? 1;
    const scheduleId = await create('/messagesSchedule', {
      ticketId: t.ticketId,
      body: 'depois',
      scheduleDate: new Date(Date.now() + 86_400_000).toISOString(),
    });
    // The internal chat: a one-to-one message (admin -> agent), so /chat-interno/* meet a real conversation and message.
    const chatMessageId = await create('/chat-interno/mensagens', { kind: 'user', id: t.users.user.id, body: 'oi' });
    const victim = await server.createUser(t.tenant.id, { profile: 'user' });
    const [userTenant] = await server.deps.dataSource.query(`SELECT id FROM user_tenants WHERE "userId" = $1`, [victim.id]);
    Object.assign(realParams, {
      contactId: String(t.contact.id),
      ticketId: String(t.ticketId),
      whatsappId: String(t.channelId),
      channelId: String(t.channelId),
      queueId: String(queueId),
      tagId: String(tagId),
      teamId: String(teamId),
      kanbanId: String(kanbanId),
      laneId: String(laneId),
      demandId: String(demandId),
      fastReplyId: String(fastReplyId),
      noteId: String(noteId),
      messageId: String(messageId),
      settingKey: 'forceSignature',
      importId: randomUUID(),
    });
    Object.assign(idByPrefix, {
      '/users/': String(victim.id),
      '/usersIsOnline/': String(victim.id),
      '/userTenants/': String(userTenant.id),
      '/messages/': String(messageId),
      '/messagesSchedule/': String(scheduleId),
      '/chat-interno/mensagens/': String(t.users.user.id),
    });
    realIds.push(t.contact.id, t.ticketId, t.channelId ?? 1, queueId, tagId, teamId, kanbanId, laneId, demandId, fastReplyId, noteId, victim.id, chatMessageId);
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await graph?.stop();
  });

  it('no 5xx, every 4xx is { error: ERR_..., message }, and a refused write stores nothing', { timeout: 300_000 }, async () => {
    const all = appRoutes(server);
    // Routes that end the caller's session or delete rows run last, so the others meet live data.
    const rank = (r: RouteInfo) => (r.path.startsWith('/auth') ? 3 : r.method === 'DELETE' ? 2 : 1);
    const routes = [...all].sort((a, b) => rank(a) - rank(b));
    expect(routes.length).toBeGreaterThan(100);
    const sql = await snapshotSql(server);
    const tokens = { admin: t.users.admin.token, super: superToken };
    const failures: string[] = [];
    let cases = 0;
    const started = Date.now();

    for (const route of routes) {
      const params = { ...realParams };
      if (params.id === undefined) {
        const prefix = Object.keys(idByPrefix).find((p) => route.path.startsWith(p) && route.path.includes(':id'));
        params.id = prefix ? idByPrefix[prefix] : '1';
      }
      // The platform's own routes are the super administrator's; a tenant admin refused on a probe means the same.
      let who: keyof typeof tokens = route.path.startsWith('/admin/') ? 'super' : 'admin';
      if (who === 'admin') {
        const probe = await send(server, route.method, urlOf(route, { params, query: {}, body: { kind: 'none' } }), tokens.admin, {
          kind: route.method === 'GET' ? 'none' : 'json',
          value: {},
        } as Case['body']);
        if (probe.status === 403 && /NO_PERMISSION|TERMINAL_FORBIDDEN/.test(String(probe.body?.error))) who = 'super';
      }
      const label = `${route.method} ${route.path}`;
      await fc.assert(
        fc.asyncProperty(caseArb(route, params, realIds), async (c) => {
          cases++;
          const url = urlOf(route, c);
          const isWrite = route.method !== 'GET';
          const before = isWrite ? await snapshot(server, sql) : undefined;
          const res = await send(server, route.method, url, tokens[who], c.body);
          const shown = `${label} as ${who}: ${route.method} ${url.slice(0, 200)} body=${String(JSON.stringify(c.body)).slice(0, 300)} -> ${res.status} ${String(JSON.stringify(res.body)).slice(0, 300)}`;
          if (res.status >= 500) failures.push(`5xx ${shown}`);
          else if (res.status >= 400) {
            if (!(typeof res.body?.error === 'string' && /^ERR_/.test(res.body.error) && typeof res.body.message === 'string')) {
              failures.push(`bad error body ${shown}`);
            }
            if (before) {
              const diff = changed(before, await snapshot(server, sql));
              if (diff.length) failures.push(`stored by a refused request (${diff.join(', ')}) ${shown}`);
            }
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      // A route may have ended a session (logout) or changed the caller: log in again for the next ones.
      for (const [key, user] of [['admin', t.users.admin], ['super', superUser]] as const) {
        const check = await server.request('GET', '/queue', { token: tokens[key] });
        if (check.status === 401 || check.status === 403) tokens[key] = (await server.login(user)).token;
      }
    }
    console.log(`fuzz: ${routes.length} routes, ${cases} generated cases, ${Math.round((Date.now() - started) / 1000)} s, seed ${SEED}`);
    expect(failures.slice(0, 40)).toEqual([]);
  });
});
