import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DomainEventEnvelope, SyncResponse } from '@shared/events';
import type { MessageDto } from '@shared/schemas/messages';
import { connectAs, issueToken, type RecordingSocket } from '../../../server/src/realtime/realtime.test-support';
import {
  insertContact,
  insertQueue,
  insertTicket,
  setUserQueues,
  type LoggedUser,
  type TicketFields,
} from '../../../server/src/modules/tickets/tickets.test-support';
import type { TestServer } from '../../../tests/helpers/test-server';
import { openSyncCache, type OwnedSyncCache } from './sync-cache';
import { createSyncEngine, type SyncEngine, type SyncEngineOptions, type SyncStatus } from './sync-engine';

/**
 * The sync tests' world: the real server (in-process, embedded PostgreSQL), a tenant whose agent
 * works queue A, and a real encrypted cache in a temporary folder. The one thing wrapped is the
 * global fetch, to record what went over the wire and to cut the network on demand.
 */

export interface SyncWorld {
  tenantId: number;
  admin: LoggedUser;
  /** The agent whose console is synced: queue A only. */
  agent: LoggedUser;
  queueA: number;
  queueB: number;
}

export async function syncWorld(server: TestServer): Promise<SyncWorld> {
  const { tenant, users } = await server.createTenantWithUsers();
  const queueA = await insertQueue(server, tenant.id, `A ${randomBytes(3).toString('hex')}`);
  const queueB = await insertQueue(server, tenant.id, `B ${randomBytes(3).toString('hex')}`);
  await setUserQueues(server, users.user.id, [queueA]);
  return { tenantId: tenant.id, admin: users.admin, agent: users.user, queueA, queueB };
}

/** A ticket without a channel (sends stay pending: no delivery events in the middle of a test). */
export async function ticketOf(server: TestServer, w: SyncWorld, fields: TicketFields & { contactName?: string } = {}) {
  const contactId = fields.contactId ?? (await insertContact(server, w.tenantId, fields.contactName));
  const id = await insertTicket(server, w.tenantId, { queueId: w.queueA, whatsappId: null, ...fields, contactId });
  return { id, contactId };
}

/** A private note through the API: one appMessage:create event. */
export async function note(server: TestServer, token: string, ticketId: number, body: string): Promise<MessageDto> {
  const res = await server.request('POST', `/messages/${ticketId}`, { token, body: { body, isPrivate: true } });
  if (res.status !== 201) throw new Error(`note failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.messages[0];
}

/** A message to the customer (stays pending without a channel): appMessage:create and ticket:update. */
export async function send(server: TestServer, token: string, ticketId: number, body: string): Promise<MessageDto> {
  const res = await server.request('POST', `/messages/${ticketId}`, { token, body: { body } });
  if (res.status !== 201) throw new Error(`send failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.messages[0];
}

export async function serverThread(server: TestServer, token: string, ticketId: number): Promise<number[]> {
  const ids: number[] = [];
  let before: number | null = 2_147_483_647;
  while (before !== null) {
    const res: { body: { messages: MessageDto[]; hasMore: boolean; nextBefore: number | null } } = await server.request('GET', `/messages/${ticketId}?before=${before}`, { token });
    ids.push(...res.body.messages.map((m) => m.id));
    before = res.body.hasMore ? res.body.nextBefore : null;
  }
  return ids;
}

export async function headSeq(server: TestServer, tenantId: number): Promise<number> {
  const [row] = await server.deps.dataSource.query(`SELECT "eventSeq" FROM tenants WHERE id = $1`, [tenantId]);
  return Number(row.eventSeq);
}

export interface WireCall {
  url: string;
  /** The JSON answer of GET /sync calls. */
  sync?: SyncResponse;
}

/** The global fetch, recording each call; `cut` makes matching calls fail as a dropped network does. */
export function wire() {
  const calls: WireCall[] = [];
  let cut: ((url: string) => boolean) | null = null;
  let hold: { rule: (url: string) => boolean; gate: Promise<void> } | null = null;
  const fetchThrough: typeof fetch = async (input, init) => {
    const url = String(input);
    const call: WireCall = { url };
    calls.push(call);
    if (cut?.(url)) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    if (hold?.rule(url)) await hold.gate;
    const response = await fetch(input, init);
    if (new URL(url).pathname === '/sync' && response.ok) call.sync = (await response.clone().json()) as SyncResponse;
    return response;
  };
  return {
    fetch: fetchThrough,
    calls,
    /** GET /sync calls after the head probe, i.e. the replays. */
    replays: () => calls.filter((c) => c.sync && !c.sync.reload),
    cutWhen(rule: ((url: string) => boolean) | null) {
      cut = rule;
    },
    /** Matching requests wait (a slow network) until the returned function is called. */
    holdWhen(rule: (url: string) => boolean): () => void {
      let release!: () => void;
      hold = { rule, gate: new Promise<void>((resolve) => (release = resolve)) };
      return () => {
        hold = null;
        release();
      };
    },
  };
}

export interface Console {
  cache: OwnedSyncCache;
  engine: SyncEngine;
  net: ReturnType<typeof wire>;
  statuses: SyncStatus[];
  close(): void;
}

/** The agent's desktop: its encrypted cache and sync engine, talking to the real server. */
export function openConsole(
  server: TestServer,
  w: SyncWorld,
  user: LoggedUser = w.agent,
  extra: Partial<SyncEngineOptions> = {},
): Console {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'desktop-sync-'));
  const cache = openSyncCache({
    directory,
    account: { serverOrigin: server.url, tenantId: user.tenantId, userId: user.id },
    key: randomBytes(32),
  });
  const net = wire();
  const engine = createSyncEngine({
    cache,
    api: { baseUrl: server.url, getAccessToken: () => user.token, fetch: net.fetch },
    retry: { initialMs: 20, maxMs: 200 },
    ...extra,
  });
  const statuses: SyncStatus[] = [];
  engine.onStatus((s) => statuses.push(s));
  return {
    cache,
    engine,
    net,
    statuses,
    close() {
      engine.stop();
      cache.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The agent's live socket, recording envelopes; the test decides which reach the engine. */
export async function socketOf(server: TestServer, user: LoggedUser): Promise<RecordingSocket> {
  return connectAs(server.url, (await issueToken(server, user)).token);
}

export const seqs = (events: readonly DomainEventEnvelope[]) => events.map((e) => e.seq);
