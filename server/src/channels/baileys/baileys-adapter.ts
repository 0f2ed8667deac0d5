import type { BaileysEventMap, Contact, proto, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import type { DataSource } from 'typeorm';
import { AppError } from '../../core/app-error';
import type { Logger } from '../../core/logger';
import type { AdapterContext, SessionChange } from '../adapter-context';
import {
  ChannelSendError,
  type ChannelAdapter,
  type ChannelGroup,
  type ChannelGroupsApi,
  type GroupEvent,
  type GroupParticipantAction,
  type GroupParticipantResult,
  type InboundMessage,
  type PhoneContact,
  type InteractiveButton,
  type OutboundMedia,
  type OutboundTarget,
  type SendOptions,
  type SendResult,
  type SessionStatus,
} from '../channel-adapter';
import { outboundMediaKind } from '../media-types';
import { loadBaileys, type BaileysLib, type SocketConfigLike, type WASocketLike } from './baileys-lib';
import {
  buttonsAsText,
  groupChangeOf,
  groupOf,
  isGroupJid,
  memberOf,
  normaliseInbound,
  participantJid,
  phoneContactOf,
  statusOf,
  targetJid,
  userOf,
} from './baileys-messages';
import { clearAuthState, usePgAuthState, type PgAuthState } from './pg-auth-state';

/** Baileys' DisconnectReason codes the session reacts to. */
export const DISCONNECT = {
  loggedOut: 401,
  forbidden: 403,
  timedOut: 408,
  multideviceMismatch: 411,
  connectionClosed: 428,
  connectionReplaced: 440,
  badSession: 500,
  restartRequired: 515,
} as const;

export interface BaileysTimings {
  /** First reconnect delay; doubles each failed attempt. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Failed reconnects in a row before the session gives up (DISCONNECTED, login kept). */
  maxReconnects: number;
  /** QR codes shown without a scan before the session gives up (TIMEOUT). Baileys itself stops after ~6. */
  maxQrCodes: number;
  /** How long connect() waits for the first QR code, pairing code or open connection. */
  connectWaitMs: number;
  /** How long a history request (syncOld) accepts history sync chunks. */
  historyWindowMs: number;
}

export const DEFAULT_TIMINGS: BaileysTimings = {
  backoffBaseMs: 2_000,
  backoffMaxMs: 60_000,
  maxReconnects: 12,
  maxQrCodes: 6,
  connectWaitMs: 20_000,
  historyWindowMs: 120_000,
};

export interface BaileysDeps {
  dataSource: Pick<DataSource, 'query'>;
  logger: Logger;
  /** BAILEYS_SOCKET_MODULE (tests only). */
  socketModule?: string;
  timings?: Partial<BaileysTimings>;
  /** Live sessions of this server process, by channel id (see BaileysSessions). */
  sessions: BaileysSessions;
}

/** Reconnect delay of the n-th attempt (1-based): base, 2×base, 4×base … up to max. */
export function backoffDelay(attempt: number, t: Pick<BaileysTimings, 'backoffBaseMs' | 'backoffMaxMs'>): number {
  return Math.min(t.backoffBaseMs * 2 ** Math.max(0, attempt - 1), t.backoffMaxMs);
}

const REASONS = {
  loggedOut: 'A sessão foi encerrada no celular (aparelho desconectado do WhatsApp).',
  badSession: 'O WhatsApp recusou a sessão salva; conecte novamente com um novo QR code.',
  qrTimeout: 'O QR code não foi lido a tempo.',
  gaveUp: 'Não foi possível reconectar ao WhatsApp; use "Conectar" para tentar de novo.',
} as const;

const errorCode = (err: unknown): number | undefined => {
  const e = err as { output?: { statusCode?: number }; statusCode?: number } | undefined;
  return e?.output?.statusCode ?? e?.statusCode;
};
const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err ?? 'erro desconhecido'));
const nowS = () => Math.floor(Date.now() / 1000);
const toNumber = (v: unknown): number | undefined => {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'object' && 'toNumber' in (v as object)) return (v as { toNumber(): number }).toNumber();
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** A small insertion-ordered cache. */
class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
}

/** The live Baileys sessions of one server process (one per channel), shared by the channel's successive adapters. */
export class BaileysSessions {
  private readonly sessions = new Map<number, BaileysSession>();

  of(ctx: AdapterContext, deps: BaileysDeps): BaileysSession {
    let session = this.sessions.get(ctx.record.id);
    if (!session) {
      session = new BaileysSession(ctx, deps);
      this.sessions.set(ctx.record.id, session);
    } else {
      session.use(ctx);
    }
    return session;
  }

  peek(channelId: number): BaileysSession | undefined {
    return this.sessions.get(channelId);
  }

  drop(channelId: number, session: BaileysSession): void {
    if (this.sessions.get(channelId) === session) this.sessions.delete(channelId);
  }

  list(): BaileysSession[] {
    return [...this.sessions.values()];
  }
}

interface HistoryRequest {
  remaining: number;
  until: number;
}

/**
 * One channel's WhatsApp Web session through Baileys: the socket, its login state in
 * PostgreSQL (pg-auth-state.ts), the session states (qrcode, OPENING, CONNECTED, TIMEOUT,
 * CONNECTION_LOST, DISCONNECTED) and the events it turns into inbound messages and acks.
 *
 * Connection outcomes (`connection.update`):
 * - `qr`: state qrcode with the QR payload; with a `pairingNumber`, the pairing code instead
 *   (requested once per socket). More than `maxQrCodes` unscanned codes, or Baileys ending the
 *   socket with 408 before it ever opened: TIMEOUT (the unused login is discarded).
 * - `open`: CONNECTED with the own number.
 * - close 401 (logged out on the phone), 403, 411, 500 (session refused): DISCONNECTED, login cleared.
 * - close 515 (restart required, right after a QR scan): a new socket at once, no state change.
 * - close 440 (replaced: the same login opened by another server process): this socket stops, no state written.
 * - any other close: CONNECTION_LOST and a new socket after 2 s, 4 s, 8 s … (max 60 s); after
 *   `maxReconnects` failures, DISCONNECTED (the login is kept: "Conectar" resumes it).
 */
export class BaileysSession {
  private ctx: AdapterContext;
  private readonly timings: BaileysTimings;
  private readonly logger: Logger;
  private sock: WASocketLike | null = null;
  private lib: BaileysLib | null = null;
  private auth: PgAuthState | null = null;
  /** Incremented for every socket: events of an older socket are ignored. */
  private generation = 0;
  private state: SessionStatus;
  private reconnects = 0;
  private qrCodes = 0;
  private opened = false;
  private pairingRequested = false;
  private timer: NodeJS.Timeout | null = null;
  private queue: Promise<void> = Promise.resolve();
  private waiters: (() => void)[] = [];
  private history: HistoryRequest | null = null;
  /** Keys of recent messages (participant, fromMe) for reactions and quotes. */
  private readonly keys = new Lru<string, WAMessageKey>(2_000);
  /** Contents of recent sends, for Baileys' retry requests (getMessage) and quotes. */
  private readonly sent = new Lru<string, proto.IMessage>(500);
  private readonly contacts = new Lru<string, { jid: string | null; at: number }>(5_000);
  private readonly groupNames = new Lru<string, string>(500);

  constructor(
    ctx: AdapterContext,
    private readonly deps: BaileysDeps,
  ) {
    this.ctx = ctx;
    this.state = ctx.record.status;
    this.timings = { ...DEFAULT_TIMINGS, ...deps.timings };
    this.logger = deps.logger;
  }

  /** A newer adapter of the channel (rebuilt after an edit) takes over the context. */
  use(ctx: AdapterContext): void {
    this.ctx = ctx;
  }

  get channelId(): number {
    return this.ctx.record.id;
  }

  status(): SessionStatus {
    return this.state;
  }

  /** The socket, when one is open (tests and diagnostics). */
  socket(): WASocketLike | null {
    return this.sock;
  }

  /** Resolves when the events received so far have been handled. */
  async idle(): Promise<void> {
    let last: Promise<void> | undefined;
    while (last !== this.queue) {
      last = this.queue;
      await last;
    }
  }

  // ---------- lifecycle ----------

  /**
   * Opens a session (OPENING), resuming a stored login or asking for a QR code; resolves when
   * the first QR code or pairing code is shown, the session is open or has failed, or after
   * connectWaitMs (the outcome then arrives as session events).
   */
  async connect(): Promise<void> {
    await this.setState('OPENING', { reason: null });
    this.reconnects = 0;
    const shown = new Promise<void>((resolve) => this.waiters.push(resolve));
    await this.open();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([shown, new Promise<void>((resolve) => (timer = setTimeout(resolve, this.timings.connectWaitMs)))]);
    clearTimeout(timer);
  }

  /** Logs out (the phone drops the linked device), forgets the login, DISCONNECTED. */
  async logout(opts: { announce: boolean }): Promise<void> {
    const sock = this.stopSocket();
    if (sock) {
      await withTimeout(sock.logout(), 10_000).catch((err) =>
        this.logger.warn({ channelId: this.channelId, reason: messageOf(err) }, 'baileys logout failed'),
      );
      await Promise.resolve(sock.end(undefined)).catch(() => undefined);
    }
    await clearAuthState(this.deps.dataSource, this.channelId).catch((err) =>
      this.logger.warn({ err, channelId: this.channelId }, 'baileys auth state not cleared'),
    );
    // Another phone may pair next: its address book is not this one's.
    await this.deps.dataSource
      .query(`DELETE FROM channel_phone_contacts WHERE "channelId" = $1`, [this.channelId])
      .catch(() => undefined);
    this.deps.sessions.drop(this.channelId, this);
    if (opts.announce) await this.setState('DISCONNECTED', { reason: null });
    else this.state = 'DISCONNECTED';
    this.release();
  }

  /** Server stopping: the socket closes, the login stays (the session resumes on start). */
  async shutdown(): Promise<void> {
    const sock = this.stopSocket();
    if (sock) await Promise.resolve(sock.end(undefined)).catch(() => undefined);
    this.deps.sessions.drop(this.channelId, this);
    this.release();
    await this.idle().catch(() => undefined);
  }

  private stopSocket(): WASocketLike | null {
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const sock = this.sock;
    this.sock = null;
    return sock;
  }

  /** A new socket on the stored login (or a fresh one), replacing any socket of this session. */
  private async open(): Promise<void> {
    const previous = this.stopSocket();
    if (previous) await Promise.resolve(previous.end(undefined)).catch(() => undefined);
    const generation = this.generation;
    this.opened = false;
    this.pairingRequested = false;
    try {
      this.lib ??= await loadBaileys(this.deps.socketModule);
      const lib = this.lib;
      const auth = await usePgAuthState(this.deps.dataSource, this.ctx.record, lib);
      if (generation !== this.generation) return;
      this.auth = auth;
      const keys = lib.makeCacheableSignalKeyStore ? lib.makeCacheableSignalKeyStore(auth.state.keys, this.baileysLogger()) : auth.state.keys;
      const options = (this.ctx.record.providerConfig.options ?? {}) as Record<string, unknown>;
      const config: SocketConfigLike = {
        browser: lib.browser,
        markOnlineOnConnect: false,
        syncFullHistory: false,
        ...options,
        ...(await this.proxyAgents()),
        auth: { creds: auth.state.creds, keys },
        logger: this.baileysLogger(),
        // Baileys' default history sync stays on (it carries the LID mappings Baileys 7 needs);
        // what it brings is stored only while a history request (syncOld) is open: onHistory.
        getMessage: async (key: WAMessageKey) => (key.id ? this.sent.get(key.id) : undefined),
      };
      const sock = lib.makeWASocket(config);
      this.sock = sock;
      sock.ev.process((events) => {
        this.queue = this.queue
          .then(() => this.onEvents(generation, sock, events))
          .catch((err) => this.logger.error({ err, channelId: this.channelId }, 'baileys event handling failed'));
      });
    } catch (err) {
      if (generation !== this.generation) return;
      this.logger.warn({ channelId: this.channelId, reason: messageOf(err) }, 'baileys socket not started');
      await this.lost(err);
    }
  }

  private baileysLogger(): unknown {
    const child = this.logger.child({ channelId: this.channelId, provider: 'baileys' });
    // Baileys logs every frame at debug/trace: keep its own logs at warn unless ours are quieter.
    if (this.logger.levelVal < 40) child.level = 'warn';
    return child;
  }

  private async proxyAgents(): Promise<Record<string, unknown>> {
    const proxyUrl = this.ctx.record.providerConfig.proxyUrl;
    if (typeof proxyUrl !== 'string' || !proxyUrl) return {};
    if (/^socks/i.test(proxyUrl)) {
      this.logger.warn({ channelId: this.channelId }, 'baileys: socks proxies are not supported; connecting directly');
      return {};
    }
    try {
      const { HttpsProxyAgent } = await import('https-proxy-agent');
      const agent = new HttpsProxyAgent(proxyUrl);
      return { agent, fetchAgent: agent };
    } catch (err) {
      this.logger.warn({ channelId: this.channelId, reason: messageOf(err) }, 'baileys: proxy agent unavailable; connecting directly');
      return {};
    }
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  private async setState(next: SessionStatus, change: SessionChange = {}): Promise<void> {
    try {
      this.state = await this.ctx.setStatus(next, change);
    } catch (err) {
      const code = (err as AppError).code;
      if (code === 'ERR_NO_WAPP_FOUND') {
        // The channel was deleted (maybe by another process): nothing left to keep alive.
        this.logger.info({ channelId: this.channelId }, 'baileys channel gone; closing its socket');
        const sock = this.stopSocket();
        if (sock) await Promise.resolve(sock.end(undefined)).catch(() => undefined);
        this.deps.sessions.drop(this.channelId, this);
        this.release();
        return;
      }
      this.logger.warn({ channelId: this.channelId, next, reason: messageOf(err) }, 'baileys session state not changed');
    }
  }

  // ---------- events ----------

  private async onEvents(generation: number, sock: WASocketLike, events: Partial<BaileysEventMap>): Promise<void> {
    if (generation !== this.generation) return;
    if (events['creds.update']) {
      await this.auth?.saveCreds().catch((err) => this.logger.warn({ err, channelId: this.channelId }, 'baileys creds not saved'));
    }
    const update = events['connection.update'];
    if (update) await this.onConnection(generation, sock, update);
    if (generation !== this.generation) return;
    const contacts = [
      ...(events['contacts.upsert'] ?? []),
      ...(events['contacts.update'] ?? []),
      ...(events['messaging-history.set']?.contacts ?? []),
    ];
    if (contacts.length > 0) await this.storeContacts(contacts);
    if (events['groups.upsert']) await this.onGroupEvent({ kind: 'groups', groups: events['groups.upsert'].map(groupOf) });
    if (events['groups.update']) {
      const changes = events['groups.update'].filter((g): g is typeof g & { id: string } => typeof g.id === 'string');
      if (changes.length > 0) await this.onGroupEvent({ kind: 'groups', groups: changes.map(groupChangeOf) });
    }
    const members = events['group-participants.update'];
    if (members) {
      await this.onGroupEvent({
        kind: 'participants',
        groupId: members.id,
        action: members.action,
        participants: (members.participants ?? []).map(memberOf),
        author: members.authorPn ?? members.author ?? null,
      });
    }
    const upsert = events['messages.upsert'];
    if (upsert && upsert.type === 'notify') await this.onMessages(upsert.messages);
    if (events['messages.update']) await this.onUpdates(events['messages.update']);
    if (events['message-receipt.update']) await this.onReceipts(events['message-receipt.update']);
    const history = events['messaging-history.set'];
    if (history) await this.onHistory(history.messages);
  }

  private async onConnection(
    generation: number,
    sock: WASocketLike,
    update: Partial<BaileysEventMap['connection.update']>,
  ): Promise<void> {
    if (update.qr) await this.onQr(generation, sock, update.qr);
    if (generation !== this.generation) return;
    if (update.connection === 'open') {
      this.opened = true;
      this.reconnects = 0;
      this.qrCodes = 0;
      await this.setState('CONNECTED', { reason: null, number: userOf(sock.user?.id) || null });
      this.release();
    } else if (update.connection === 'close') {
      await this.onClose(update.lastDisconnect?.error);
    }
  }

  private async onQr(generation: number, sock: WASocketLike, qr: string): Promise<void> {
    this.qrCodes++;
    if (this.qrCodes > this.timings.maxQrCodes) {
      await this.timeout();
      return;
    }
    const pairingNumber = String(this.ctx.record.providerConfig.pairingNumber ?? '').replace(/\D/g, '');
    if (!pairingNumber) {
      await this.setState('qrcode', { qrcode: qr, pairingCode: null, reason: null });
      this.release();
      return;
    }
    if (this.pairingRequested) return; // the code stays valid while the socket lives
    this.pairingRequested = true;
    try {
      const code = await sock.requestPairingCode(pairingNumber);
      if (generation !== this.generation) return;
      await this.setState('qrcode', { qrcode: null, pairingCode: code, reason: null });
    } catch (err) {
      this.logger.warn({ channelId: this.channelId, reason: messageOf(err) }, 'baileys pairing code refused');
      await this.setState('qrcode', { qrcode: qr, pairingCode: null, reason: `Código de pareamento indisponível: ${messageOf(err)}` });
    }
    this.release();
  }

  private async onClose(error: unknown): Promise<void> {
    const code = errorCode(error);
    this.sock = null;
    const neverOpened = !this.opened;
    switch (code) {
      case DISCONNECT.loggedOut:
      case DISCONNECT.forbidden:
      case DISCONNECT.multideviceMismatch:
      case DISCONNECT.badSession:
        this.stopSocket();
        await clearAuthState(this.deps.dataSource, this.channelId).catch(() => undefined);
        await this.setState('DISCONNECTED', { reason: code === DISCONNECT.loggedOut ? REASONS.loggedOut : REASONS.badSession });
        this.release();
        return;
      case DISCONNECT.connectionReplaced:
        this.logger.warn({ channelId: this.channelId }, 'baileys session opened elsewhere (another server process?); this socket stops');
        this.stopSocket();
        this.release();
        return;
      case DISCONNECT.restartRequired:
        // Expected right after a QR scan: the login is saved, a new socket finishes it.
        await this.open();
        return;
      case DISCONNECT.timedOut:
        if (neverOpened && this.qrCodes > 0) {
          await this.timeout();
          return;
        }
        break;
    }
    await this.lost(error);
  }

  /** QR codes ran out without a scan: TIMEOUT, the unused login discarded. */
  private async timeout(): Promise<void> {
    const sock = this.stopSocket();
    if (sock) await Promise.resolve(sock.end(undefined)).catch(() => undefined);
    await clearAuthState(this.deps.dataSource, this.channelId).catch(() => undefined);
    this.qrCodes = 0;
    await this.setState('TIMEOUT', { reason: REASONS.qrTimeout });
    this.release();
  }

  /** The connection dropped: CONNECTION_LOST and a new socket after the backoff delay. */
  private async lost(error: unknown): Promise<void> {
    this.reconnects++;
    const why = error ? `${messageOf(error)}${errorCode(error) ? ` (${errorCode(error)})` : ''}` : 'conexão encerrada';
    if (this.reconnects > this.timings.maxReconnects) {
      this.stopSocket();
      await this.setState('DISCONNECTED', { reason: `${REASONS.gaveUp} Último erro: ${why}` });
      this.release();
      return;
    }
    const delay = backoffDelay(this.reconnects, this.timings);
    const reason = `Conexão perdida: ${why}. Nova tentativa ${this.reconnects} em ${Math.round(delay / 1000)} s.`;
    // A session still waiting for its QR scan cannot be "lost": it goes back to opening.
    await this.setState(this.state === 'qrcode' ? 'OPENING' : 'CONNECTION_LOST', { reason });
    this.release();
    const generation = this.generation;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (generation === this.generation) void this.open();
    }, delay);
  }

  private async onMessages(messages: WAMessage[]): Promise<void> {
    const inbound: InboundMessage[] = [];
    for (const msg of messages) {
      if (msg.key?.id) this.keys.set(msg.key.id, msg.key);
      const normalised = normaliseInbound(msg, {
        channelId: this.channelId,
        tenantId: this.ctx.record.tenantId,
        download: (m) => this.download(m),
        groupName: isGroupJid(msg.key?.remoteJid) ? await this.groupName(msg.key.remoteJid as string) : undefined,
      });
      if (typeof normalised === 'string') {
        this.logger.debug({ channelId: this.channelId, id: msg.key?.id, skipped: normalised }, 'baileys message skipped');
        continue;
      }
      inbound.push(normalised);
    }
    if (inbound.length === 0) return;
    if (!this.ctx.inbound) throw new Error('baileys adapter built without the inbound pipeline');
    await this.ctx.inbound.receive(inbound);
  }

  private async onUpdates(updates: BaileysEventMap['messages.update']): Promise<void> {
    for (const { key, update } of updates) {
      if (!key.fromMe || !key.id) continue;
      const status = statusOf(update.status as number | null | undefined);
      if (!status) continue;
      await this.applyStatus(key.id, status, undefined);
    }
  }

  /** Group receipts: a participant read or received one of our messages. */
  private async onReceipts(receipts: BaileysEventMap['message-receipt.update']): Promise<void> {
    for (const { key, receipt } of receipts) {
      if (!key.fromMe || !key.id) continue;
      const status = receipt.readTimestamp || receipt.playedTimestamp ? 'read' : receipt.receiptTimestamp ? 'delivered' : null;
      if (status) await this.applyStatus(key.id, status, toNumber(receipt.readTimestamp ?? receipt.receiptTimestamp));
    }
  }

  private async applyStatus(providerMessageId: string, status: 'sent' | 'delivered' | 'read' | 'failed', ts: number | undefined) {
    await this.ctx.inbound?.applyStatus({
      channelId: this.channelId,
      tenantId: this.ctx.record.tenantId,
      providerMessageId,
      status,
      timestamp: ts ?? nowS(),
      ...(status === 'failed' ? { error: 'O WhatsApp recusou a mensagem.' } : {}),
    });
  }

  /** History sync chunks: stored only while a history request (syncOld) is open, up to its limit. */
  private async onHistory(messages: WAMessage[]): Promise<void> {
    const request = this.history;
    if (!request || Date.now() > request.until || request.remaining <= 0) return;
    const oldestFirst = [...messages].sort((a, b) => (toNumber(a.messageTimestamp) ?? 0) - (toNumber(b.messageTimestamp) ?? 0));
    const picked = oldestFirst.filter((m) => !m.key?.fromMe).slice(-request.remaining);
    request.remaining -= picked.length;
    if (request.remaining <= 0) this.history = null;
    await this.onMessages(picked);
  }

  private async groupName(jid: string): Promise<string | undefined> {
    const known = this.groupNames.get(jid);
    if (known !== undefined) return known || undefined;
    const name = await withTimeout(this.sock?.groupMetadata(jid) ?? Promise.resolve(undefined), 5_000)
      .then((m) => m?.subject ?? '')
      .catch(() => '');
    this.groupNames.set(jid, name);
    return name || undefined;
  }

  /** Group membership or details changed: handed to the messaging domain (port `groupEvent`). */
  private async onGroupEvent(event: DistributiveOmit<GroupEvent, 'channelId' | 'tenantId'>): Promise<void> {
    if (event.kind === 'groups') for (const g of event.groups) if (g.subject !== undefined) this.groupNames.set(g.id, g.subject);
    await this.ctx.inbound?.groupEvent?.({ ...event, channelId: this.channelId, tenantId: this.ctx.record.tenantId } as GroupEvent);
  }

  /**
   * The phone's contacts as WhatsApp syncs them to a linked device. Baileys 7 keeps no store of
   * its own (makeInMemoryStore is gone): it emits `contacts.upsert` (address book entries from
   * the app-state sync: the saved name), `contacts.update` (push names seen on messages) and the
   * contacts of history sync chunks. They are kept per channel in `channel_phone_contacts`, a
   * provider table (like the login in channel_auth_state), for POST /contacts/sync to read;
   * a field an event does not carry keeps its stored value.
   */
  private async storeContacts(contacts: Partial<Contact>[]): Promise<void> {
    const byId = new Map<string, PhoneContact>();
    for (const c of contacts) {
      const contact = phoneContactOf(c);
      if (!contact) continue;
      const before = byId.get(contact.id);
      byId.set(contact.id, {
        id: contact.id,
        phone: contact.phone ?? before?.phone ?? null,
        name: contact.name ?? before?.name ?? null,
        notify: contact.notify ?? before?.notify ?? null,
      });
    }
    if (byId.size === 0) return;
    const rows = [...byId.values()];
    await this.deps.dataSource
      .query(
        `INSERT INTO channel_phone_contacts ("channelId", jid, phone, name, notify)
         SELECT $1, u.jid, u.phone, u.name, u.notify FROM unnest($2::text[], $3::text[], $4::text[], $5::text[]) AS u(jid, phone, name, notify)
         ON CONFLICT ("channelId", jid) DO UPDATE SET
           phone = COALESCE(EXCLUDED.phone, channel_phone_contacts.phone),
           name = COALESCE(EXCLUDED.name, channel_phone_contacts.name),
           notify = COALESCE(EXCLUDED.notify, channel_phone_contacts.notify),
           "updatedAt" = now()`,
        [this.channelId, rows.map((r) => r.id), rows.map((r) => r.phone), rows.map((r) => r.name), rows.map((r) => r.notify)],
      )
      .catch((err: unknown) => this.logger.warn({ channelId: this.channelId, reason: messageOf(err) }, 'baileys contacts not stored'));
  }

  /** The contacts stored for this channel (see storeContacts). */
  async phoneContacts(): Promise<PhoneContact[]> {
    return this.deps.dataSource.query(
      `SELECT jid AS id, phone, name, notify FROM channel_phone_contacts WHERE "channelId" = $1 ORDER BY jid`,
      [this.channelId],
    );
  }

  private async download(message: WAMessage): Promise<Buffer> {
    const lib = this.lib ?? (await loadBaileys(this.deps.socketModule));
    const sock = this.sock;
    try {
      return await lib.downloadMediaMessage(
        message,
        'buffer',
        {},
        sock?.updateMediaMessage ? { reuploadRequest: (m) => sock.updateMediaMessage!(m), logger: this.baileysLogger() } : undefined,
      );
    } catch (err) {
      throw new Error(`ERR_WAPP_DOWNLOAD_MEDIA: ${messageOf(err)}`, { cause: err });
    }
  }

  // ---------- sending ----------

  private ready(): WASocketLike {
    if (this.sock && this.state === 'CONNECTED') return this.sock;
    if (this.state === 'CONNECTION_LOST' || this.state === 'OPENING') throw new AppError('ERR_WAPP_INITIALIZED');
    throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  }

  /**
   * The JID to send to: groups and JIDs as they are; a number is checked with onWhatsApp (once
   * an hour per number), which also gives WhatsApp's own JID for it (Brazilian numbers registered
   * before the ninth digit). Not on WhatsApp: ERR_WAPP_INVALID_CONTACT (final); the check
   * failing: ERR_WAPP_CHECK_CONTACT (retried).
   */
  async resolveJid(target: OutboundTarget): Promise<string> {
    const jid = targetJid(target);
    if (target.isGroup || target.to.includes('@')) return jid;
    const cached = this.contacts.get(jid);
    if (cached && Date.now() - cached.at < 3_600_000) {
      if (!cached.jid) throw invalidContact();
      return cached.jid;
    }
    const sock = this.ready();
    let found: { jid: string; exists: boolean } | undefined;
    try {
      found = (await sock.onWhatsApp(jid))?.[0];
    } catch (err) {
      throw new ChannelSendError(`Não foi possível verificar o contato no WhatsApp: ${messageOf(err)}`, true, errorCode(err), 'ERR_WAPP_CHECK_CONTACT');
    }
    const resolved = found?.exists ? found.jid || jid : null;
    this.contacts.set(jid, { jid: resolved, at: Date.now() });
    if (!resolved) throw invalidContact();
    return resolved;
  }

  async send(target: OutboundTarget, content: Record<string, unknown>, opts?: SendOptions): Promise<SendResult> {
    const sock = this.ready();
    const jid = await this.resolveJid(target);
    const options: Record<string, unknown> = {};
    if (opts?.quotedProviderMessageId) options.quoted = await this.quoted(jid, opts.quotedProviderMessageId);
    let sent: WAMessage | undefined;
    try {
      sent = await sock.sendMessage(jid, content as never, options);
    } catch (err) {
      throw sendError(err);
    }
    const id = sent?.key?.id;
    // Accepted without an id should not happen; a retry could duplicate it, so it is final.
    if (!id) throw new ChannelSendError('WhatsApp: envio aceito sem id de mensagem', false);
    this.keys.set(id, sent!.key);
    if (sent!.message) this.sent.set(id, sent!.message);
    return { providerMessageId: id, timestamp: toNumber(sent!.messageTimestamp) ?? nowS() };
  }

  /** The key of a message of this chat (ours or the customer's), for reactions, edits, deletes and quotes. */
  async keyOf(jid: string, providerMessageId: string, fromMe?: boolean): Promise<WAMessageKey> {
    const known = this.keys.get(providerMessageId);
    if (known && (known.remoteJid === jid || !known.remoteJid)) return { ...known, remoteJid: jid };
    let mine = fromMe;
    if (mine === undefined) {
      const rows = (await this.deps.dataSource.query(
        `SELECT "fromMe" FROM messages WHERE "whatsappId" = $1 AND "messageId" = $2 AND "tenantId" = $3 LIMIT 1`,
        [this.channelId, providerMessageId, this.ctx.record.tenantId],
      )) as { fromMe: boolean }[];
      mine = rows[0]?.fromMe ?? false;
    }
    return { remoteJid: jid, id: providerMessageId, fromMe: mine };
  }

  private async quoted(jid: string, providerMessageId: string): Promise<WAMessage> {
    const key = await this.keyOf(jid, providerMessageId);
    return { key, message: this.sent.get(providerMessageId) ?? { conversation: '' } };
  }

  // ---------- groups ----------

  /** A group call on the connected socket; WhatsApp's refusal (not an admin, not a member …) is final, a dropped connection retryable. */
  async groupCall<T>(what: string, call: (sock: WASocketLike) => Promise<T>): Promise<T> {
    const sock = this.ready();
    try {
      return await withTimeout(call(sock), GROUP_CALL_TIMEOUT_MS);
    } catch (err) {
      if (err instanceof AppError || err instanceof ChannelSendError) throw err;
      const code = errorCode(err);
      const retryable = code === undefined || code === 408 || code === 428 || code === 429 || code >= 500;
      throw new ChannelSendError(`WhatsApp (${what}): ${groupRefusal(code) ?? messageOf(err)}`, retryable, code);
    }
  }

  groupsApi(): ChannelGroupsApi {
    const toGroup = (g: Parameters<typeof groupOf>[0]): ChannelGroup => {
      this.groupNames.set(g.id, g.subject ?? '');
      return groupOf(g);
    };
    return {
      list: () => this.groupCall('listar grupos', async (s) => Object.values(await s.groupFetchAllParticipating()).map(toGroup)),
      get: (groupId) => this.groupCall('ler grupo', async (s) => toGroup(await s.groupMetadata(groupJid(groupId)))),
      create: (subject, participants) =>
        this.groupCall('criar grupo', async (s) => toGroup(await s.groupCreate(subject, participants.map(participantJid)))),
      setSubject: (groupId, subject) => this.groupCall('alterar título', (s) => s.groupUpdateSubject(groupJid(groupId), subject)),
      setDescription: (groupId, description) =>
        this.groupCall('alterar descrição', (s) => s.groupUpdateDescription(groupJid(groupId), description)),
      setPicture: (groupId, image) => this.groupCall('alterar imagem', (s) => s.updateProfilePicture(groupJid(groupId), image)),
      updateParticipants: (groupId, participants, action: GroupParticipantAction) =>
        this.groupCall('alterar participantes', async (s): Promise<GroupParticipantResult[]> => {
          const answers = await s.groupParticipantsUpdate(groupJid(groupId), participants.map(participantJid), action);
          return answers.map((a, i) => ({ id: a.jid ?? participantJid(participants[i] ?? ''), status: String(a.status), ok: String(a.status) === '200' }));
        }),
      deleteMessage: (groupId, providerMessageId, participant) =>
        this.groupCall('apagar mensagem', async (s) => {
          const jid = groupJid(groupId);
          await s.sendMessage(jid, { delete: { remoteJid: jid, fromMe: false, id: providerMessageId, participant } });
        }),
    };
  }

  /** Read receipts for the customer's messages (blue ticks). */
  async markRead(target: OutboundTarget, providerMessageIds: string[]): Promise<void> {
    const sock = this.ready();
    const jid = await this.resolveJid(target);
    const keys = await Promise.all(providerMessageIds.map((id) => this.keyOf(jid, id, false)));
    await sock.readMessages(keys).catch((err: unknown) => {
      throw sendError(err);
    });
  }

  /**
   * Asks the phone for older messages of chats (on-demand history sync); what arrives in the
   * next historyWindowMs goes through the inbound pipeline, at most `limit` messages.
   */
  async requestHistory(limit: number, anchors: { target: OutboundTarget; providerMessageId: string; timestamp: number }[]): Promise<number> {
    if (!Number.isInteger(limit) || limit <= 0) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'limit', message: 'deve ser um número inteiro positivo' }] });
    }
    const sock = this.ready();
    if (!sock.fetchMessageHistory) throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED');
    this.history = { remaining: limit, until: Date.now() + this.timings.historyWindowMs };
    let asked = 0;
    for (const anchor of anchors) {
      const jid = await this.resolveJid(anchor.target);
      const key = await this.keyOf(jid, anchor.providerMessageId);
      try {
        await sock.fetchMessageHistory(Math.min(limit, 50), key, anchor.timestamp);
        asked++;
      } catch (err) {
        this.logger.warn({ channelId: this.channelId, reason: messageOf(err) }, 'baileys history request refused');
      }
    }
    return asked;
  }
}

/** How long one group call (metadata, participants change, creation) may take. */
const GROUP_CALL_TIMEOUT_MS = 30_000;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const groupJid = (groupId: string): string => (groupId.includes('@') ? groupId : `${groupId}@g.us`);

/** WhatsApp's answers to group calls, in the user's words. */
function groupRefusal(code: number | undefined): string | null {
  switch (code) {
    case 401:
    case 403:
      return 'a conexão não é administradora deste grupo (ou não participa dele).';
    case 404:
      return 'grupo ou participante não encontrado.';
    case 406:
      return 'pedido recusado pelo WhatsApp (valor inválido).';
    case 409:
      return 'o participante já está no grupo.';
    default:
      return null;
  }
}

function invalidContact(): ChannelSendError {
  return new ChannelSendError('Este não é um número válido (não está no WhatsApp).', false, undefined, 'ERR_WAPP_INVALID_CONTACT');
}

/** Connection-level failures (closed, timed out, 5xx) are retried; WhatsApp refusing the message is final. */
function sendError(err: unknown): ChannelSendError {
  if (err instanceof ChannelSendError) return err;
  const code = errorCode(err);
  const retryable = code === undefined || code === 408 || code === 428 || code === 429 || code >= 500;
  return new ChannelSendError(`WhatsApp: ${messageOf(err)}`, retryable, code);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`sem resposta em ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The channel adapter: a thin view over the channel's BaileysSession (shared by the adapters
 * the registry builds for the channel over time, so an edit never leaves a second socket).
 */
export class BaileysAdapter implements ChannelAdapter {
  readonly type: 'baileys' | 'whatsapp';
  readonly groups: ChannelGroupsApi;

  constructor(
    private readonly ctx: AdapterContext,
    private readonly deps: BaileysDeps,
  ) {
    this.type = ctx.record.type === 'whatsapp' ? 'whatsapp' : 'baileys';
    const api = (): ChannelGroupsApi => this.session().groupsApi();
    this.groups = {
      list: () => api().list(),
      get: (id) => api().get(id),
      create: (subject, participants) => api().create(subject, participants),
      setSubject: (id, subject) => api().setSubject(id, subject),
      setDescription: (id, description) => api().setDescription(id, description),
      setPicture: (id, image) => api().setPicture(id, image),
      updateParticipants: (id, participants, action) => api().updateParticipants(id, participants, action),
      deleteMessage: (id, messageId, participant) => api().deleteMessage(id, messageId, participant),
    };
  }

  /** The phone's contacts this channel has been told about (see BaileysSession.storeContacts). */
  phoneContacts(): Promise<PhoneContact[]> {
    return this.session().phoneContacts();
  }

  /** This channel's session in this process (created on first use). */
  session(): BaileysSession {
    return this.deps.sessions.of(this.ctx, this.deps);
  }

  status(): SessionStatus {
    return this.deps.sessions.peek(this.ctx.record.id)?.status() ?? this.ctx.record.status;
  }

  connect(): Promise<void> {
    return this.session().connect();
  }

  /** DELETE /whatsappsession: logs out (the phone drops the device), clears the login, DISCONNECTED. */
  async disconnect(): Promise<void> {
    await this.session().logout({ announce: true });
  }

  /** Channel deleted: logs out; the login rows went with the channel (ON DELETE CASCADE). */
  async destroy(): Promise<void> {
    await this.session().logout({ announce: false });
  }

  async shutdown(): Promise<void> {
    await this.deps.sessions.peek(this.ctx.record.id)?.shutdown();
  }

  sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult> {
    if (!text.trim()) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'body', message: 'é obrigatório' }] });
    // Mentions notify the participants even when the text does not name them ("mention all").
    const mentions = opts?.mentions?.length ? { mentions: opts.mentions.map(participantJid) } : {};
    return this.session().send(target, { text, ...mentions }, opts);
  }

  /** Images and videos with their caption; audio as a file or a voice note (ptt); anything else as a document. */
  sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult> {
    const kind = outboundMediaKind(media.mimeType);
    const file = { url: media.path };
    const caption = media.caption?.trim() ? media.caption : undefined;
    let content: Record<string, unknown>;
    if (kind === 'image') content = { image: file, mimetype: media.mimeType, caption };
    else if (kind === 'video') content = { video: file, mimetype: media.mimeType, caption };
    else if (kind === 'audio')
      content = media.sendAsVoice
        ? { audio: file, mimetype: 'audio/ogg; codecs=opus', ptt: true }
        : { audio: file, mimetype: media.mimeType, ptt: false };
    else content = { document: file, mimetype: media.mimeType, fileName: media.fileName, caption };
    return this.session().send(target, content, opts);
  }

  /** WhatsApp Web does not deliver buttons from linked devices: a numbered text list instead. */
  sendButtons(target: OutboundTarget, body: string, buttons: InteractiveButton[], opts?: SendOptions): Promise<SendResult> {
    return this.session().send(target, { text: buttonsAsText(body, buttons) }, opts);
  }

  async sendTemplate(): Promise<SendResult> {
    throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
      message: 'Conexões por QR code (Baileys) não enviam modelos de mensagem (templates); envie um texto.',
    });
  }

  /** A reaction to a message of the chat; an empty emoji removes ours. */
  async sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult> {
    const session = this.session();
    const jid = await session.resolveJid(target);
    const key = await session.keyOf(jid, providerMessageId);
    await session.send(target, { react: { text: emoji, key } });
    return { providerMessageId, timestamp: nowS() };
  }

  async editMessage(target: OutboundTarget, providerMessageId: string, text: string): Promise<SendResult> {
    const session = this.session();
    const jid = await session.resolveJid(target);
    await session.send(target, { text, edit: await session.keyOf(jid, providerMessageId, true) });
    return { providerMessageId, timestamp: nowS() };
  }

  /** Deletes one of our messages for everyone. */
  async deleteMessage(target: OutboundTarget, providerMessageId: string): Promise<void> {
    const session = this.session();
    const jid = await session.resolveJid(target);
    await session.send(target, { delete: await session.keyOf(jid, providerMessageId, true) });
  }

  markRead(target: OutboundTarget, providerMessageIds: string[]): Promise<void> {
    return this.session().markRead(target, providerMessageIds);
  }

  requestHistory(limit: number, anchors: { target: OutboundTarget; providerMessageId: string; timestamp: number }[]): Promise<number> {
    return this.session().requestHistory(limit, anchors);
  }
}

/** Whether an adapter can import old messages (POST /messages/syncOld). */
export function hasHistory(adapter: ChannelAdapter): adapter is BaileysAdapter {
  return typeof (adapter as Partial<BaileysAdapter>).requestHistory === 'function';
}
