import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { inject } from 'vitest';
import type { Clock } from '../../core/clock';
import type { StartOptions } from '../../server';
import { FakeGraphApi } from '../../../../tests/fakes/graph-api.fake';
import { startTestServer, type TestServer, type TestUser } from '../../../../tests/helpers/test-server';
import { upsertActiveTicket } from '../tickets/ticket-upsert';
import { OUTBOUND_SWEEP_JOB } from './outbound-delivery';

/** Test support for the messages suites (not a test file itself). */

/** A clock that stands still until the test moves it (retry backoff without sleeping). */
export function frozenClock(start = new Date()): Clock & { advance(ms: number): void; set(date: Date): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    set(date: Date) {
      now = date.getTime();
    },
  };
}

export interface IsolatedDatabase {
  /** Undefined in embedded mode (each server has its own in-memory database anyway). */
  url?: string;
  drop(): Promise<void>;
}

/**
 * With DATABASE_URL, a database of its own for a suite. The outbound sweep is global (as it
 * must be with several workers), so test servers sharing one database would send each other's
 * messages through their own fake provider, and a suite that moves its clock would make other
 * suites' retries due. Migrations run when the server starts.
 */
export async function isolatedDatabase(): Promise<IsolatedDatabase> {
  const base = inject('testDatabaseUrl');
  if (!base) return { drop: async () => undefined };
  const name = `atende_msg_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: base });
      await c.connect();
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
        name,
      ]);
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    },
  };
}

/**
 * A server whose waba channels talk to a local fake Graph API, on a database of its own (see
 * isolatedDatabase; pass one to start a second server on the same data). Closing the server
 * drops a database it created.
 */
export async function startMessagingServer(
  opts: StartOptions = {},
  graph?: FakeGraphApi,
  database?: IsolatedDatabase,
): Promise<{ server: TestServer; graph: FakeGraphApi }> {
  const fake = graph ?? (await new FakeGraphApi().start());
  const db = database ?? (await isolatedDatabase());
  const server = await startTestServer({ WABA_GRAPH_BASE_URL: fake.url, ...(db.url ? { DATABASE_URL: db.url } : {}) }, opts);
  if (!database) {
    const close = server.close;
    server.close = async () => {
      await close();
      await db.drop();
    };
  }
  return { server, graph: fake };
}

export type LoggedUser = TestUser & { token: string };

export interface MessagingTenant {
  tenant: { id: number; name: string };
  users: Record<'admin' | 'super' | 'user', LoggedUser>;
  channelId: number | null;
  contact: { id: number; number: string; name: string };
  /** Open, assigned to users.user, on the channel. */
  ticketId: number;
}

const digits = () => `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

export async function createContact(
  server: TestServer,
  tenantId: number,
  fields: {
    name?: string;
    number?: string;
    email?: string;
    firstName?: string;
    lastName?: string;
    businessName?: string;
    birthday?: string;
    isGroup?: boolean;
  } = {},
): Promise<{ id: number; number: string; name: string }> {
  const number = fields.number ?? digits();
  const name = fields.name ?? `Cliente ${randomBytes(3).toString('hex')}`;
  const [row] = await server.deps.dataSource.query(
    `INSERT INTO contacts ("tenantId", name, number, email, "firstName", "lastName", "businessName", birthday, "isGroup")
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      tenantId,
      name,
      number,
      fields.email ?? null,
      fields.firstName ?? null,
      fields.lastName ?? null,
      fields.businessName ?? null,
      fields.birthday ?? null,
      fields.isGroup ?? false,
    ],
  );
  return { id: row.id, number, name };
}

export async function createTicket(
  server: TestServer,
  input: {
    tenantId: number;
    contactId: number;
    channelId: number | null;
    userId?: number | null;
    queueId?: number | null;
    status?: 'open' | 'pending';
    isGroup?: boolean;
  },
): Promise<number> {
  const { ticket } = await server.deps.dataSource.transaction((tx) =>
    upsertActiveTicket(tx, {
      tenantId: input.tenantId,
      contactId: input.contactId,
      channelId: input.channelId,
      channelType: input.channelId ? 'waba' : null,
      userId: input.userId ?? null,
      queueId: input.queueId ?? null,
      status: input.status ?? 'open',
      isGroup: input.isGroup,
    }),
  );
  return ticket.id;
}

/** A waba channel created through POST /whatsapp and connected against the fake. */
export async function createWabaChannel(
  server: TestServer,
  graph: FakeGraphApi,
  adminToken: string,
  fields: Record<string, unknown> = {},
): Promise<number> {
  const res = await server.request('POST', '/whatsapp', {
    token: adminToken,
    body: {
      type: 'waba',
      name: `WABA ${randomBytes(3).toString('hex')}`,
      wabaPhoneNumberId: graph.phoneNumberId,
      wabaBusinessAccountId: graph.businessAccountId,
      wabaApiVersion: 'v21.0',
      wabaManagerToken: graph.token,
      wabaAppSecret: 'app-secret-0123456789',
      wabaVerifyToken: 'verify-token-0123',
      ...fields,
    },
  });
  if (res.status !== 201) throw new Error(`POST /whatsapp failed: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.id as number;
  await waitFor(async () => {
    const [row] = await server.deps.dataSource.query(`SELECT status FROM channels WHERE id = $1`, [id]);
    return row?.status === 'CONNECTED';
  }, 'channel connected');
  return id;
}

/** A tenant with admin, super and user logged in, a connected waba channel, a contact and an open ticket of the user. */
export async function createMessagingTenant(
  server: TestServer,
  graph: FakeGraphApi,
  opts: { channel?: boolean; contact?: Parameters<typeof createContact>[2] } = {},
): Promise<MessagingTenant> {
  const { tenant, users } = await server.createTenantWithUsers();
  const channelId = opts.channel === false ? null : await createWabaChannel(server, graph, users.admin.token);
  const contact = await createContact(server, tenant.id, opts.contact);
  const ticketId = await createTicket(server, { tenantId: tenant.id, contactId: contact.id, channelId, userId: users.user.id });
  return { tenant, users, channelId, contact, ticketId };
}

/** Another agent of the tenant, in no queue: sees none of the other agents' queued tickets. */
export async function createAgent(server: TestServer, tenantId: number): Promise<LoggedUser> {
  const user = await server.createUser(tenantId, { profile: 'user' });
  return { ...user, token: (await server.login(user)).token };
}

export async function waitFor(check: () => Promise<boolean> | boolean, what = 'condition', timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function messageRow(server: TestServer, id: number): Promise<any> {
  const [row] = await server.deps.dataSource.query(`SELECT * FROM messages WHERE id = $1`, [id]);
  return row;
}

/** Waits until a message reaches one of `statuses` (and, optionally, `extra` holds). */
export async function waitForMessage(
  server: TestServer,
  id: number,
  check: (row: any) => boolean,
  what = 'message state',
): Promise<any> {
  let last: any;
  await waitFor(
    async () => {
      last = await messageRow(server, id);
      return Boolean(last) && check(last);
    },
    `${what} (last: ${JSON.stringify(last && { status: last.status, sendAttempts: last.sendAttempts, lastError: last.lastError })})`,
  );
  return last;
}

/** Runs the outbound sweep now (due scheduled messages promoted, due pending ones sent). */
export async function runSweep(server: TestServer): Promise<void> {
  await server.deps.periodic.runNow(OUTBOUND_SWEEP_JOB);
}

/** Messages the fake received (POST .../messages), in order. */
export const sentTo = (graph: FakeGraphApi, to: string): any[] => graph.sentMessages().filter((m) => m?.to === to);

export async function multipart(
  server: TestServer,
  method: 'POST' | 'PUT',
  url: string,
  token: string | undefined,
  fields: Record<string, string>,
  files: { name: string; type: string; bytes: Buffer; field?: string }[] = [],
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.field ?? 'medias', new Blob([new Uint8Array(f.bytes)], { type: f.type }), f.name);
  const res = await fetch(server.url + url, { method, headers: token ? { authorization: `Bearer ${token}` } : {}, body: form });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body };
}

/** Stores messages straight in the table (reads, search, paging), oldest first; answers their ids. */
export async function insertMessages(
  server: TestServer,
  ticket: { tenantId: number; ticketId: number; contactId: number },
  bodies: string[],
  fields: {
    fromMe?: boolean;
    read?: boolean;
    status?: string;
    messageId?: (i: number) => string | null;
    whatsappId?: number | null;
  } = {},
): Promise<number[]> {
  const ids: number[] = [];
  for (const [i, body] of bodies.entries()) {
    const [row] = await server.deps.dataSource.query(
      `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", read, status, "messageId", "whatsappId", ack, timestamp)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, extract(epoch FROM now())::bigint) RETURNING id`,
      [
        ticket.tenantId,
        ticket.ticketId,
        ticket.contactId,
        body,
        fields.fromMe ?? false,
        fields.read ?? true,
        fields.status ?? 'received',
        fields.messageId ? fields.messageId(i) : null,
        fields.whatsappId ?? null,
        fields.status === 'sent' ? 1 : 0,
      ],
    );
    ids.push(Number(row.id));
  }
  return ids;
}
