import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  AnyMessageContent,
  BaileysEventMap,
  Contact,
  GroupMetadata,
  GroupParticipant,
  ParticipantAction,
  WAMessage,
  WAMessageKey,
} from '@whiskeysockets/baileys';
import type { SocketConfigLike, WASocketLike } from '../../server/src/channels/baileys/baileys-lib';

/**
 * An injected Baileys socket: what `makeWASocket` answers, without WhatsApp's servers. It emits
 * Baileys' real event shapes (`connection.update` with `qr` / `open` / `close` and a Boom-like
 * `lastDisconnect.error.output.statusCode`, `creds.update`, `messages.upsert`, `messages.update`,
 * `message-receipt.update`, `messaging-history.set`) through an EventEmitter `ev` that also has
 * Baileys' `process(handler)`, and records what the adapter asks of it (sends, onWhatsApp,
 * pairing codes, read receipts, logout, end).
 *
 * Two ways to use it:
 * - Vitest: the server runs with BAILEYS_SOCKET_MODULE=<this file>; the test imports
 *   `fakeBaileys`, sets `fakeBaileys.configure({ mode: 'manual' })` and drives each socket
 *   (`await fakeBaileys.next()`, `sock.qr()`, `sock.open()`, `sock.close(408)`, `sock.receive(...)`).
 * - A real server process (Playwright): BAILEYS_SOCKET_MODULE=tests/fakes/baileys-socket.fake.ts
 *   and, by default, "auto" mode: a new socket without a stored login shows a QR code at once and
 *   opens FAKE_BAILEYS_CONNECT_AFTER_MS later (default 3000; 0 = only when told); a socket with a
 *   stored login opens at once. With FAKE_BAILEYS_CONTROL_PORT set (a port, or "any" for one the
 *   system picks: `await fakeBaileys.controlPort()` tells which), a control endpoint on 127.0.0.1 drives it: POST /pair {number?}, POST /inbound {from, text, name?, id?},
 *   POST /status {id, status: 'delivered'|'read'}, POST /close {statusCode}, GET /sent, GET /sockets,
 *   POST /groups {id?, subject, participants: digits[]} (a group the phone takes part in), GET /group-calls,
 *   POST /group-participants {group, participants: digits[], action} (WhatsApp's `group-participants.update`),
 *   POST /contacts {contacts: [{number, name?, notify?}]} (`contacts.upsert`).
 *
 * Groups: the phone's groups live in `fakeBaileys.groups` (GroupMetadata by JID, shared by the
 * sockets: they are the phone's); the group calls (groupFetchAllParticipating, groupMetadata,
 * groupCreate, groupUpdateSubject, groupUpdateDescription, groupParticipantsUpdate,
 * updateProfilePicture) read and change them and are recorded in `groupCalls`.
 */

export interface SentRecord {
  jid: string;
  content: AnyMessageContent & Record<string, unknown>;
  options?: Record<string, unknown>;
  id: string;
}

export interface FakeSettings {
  mode: 'auto' | 'manual';
  /** Auto mode: delay between the QR code and the open connection; 0 = only when told (/pair). */
  connectAfterMs: number;
  /** The number the fake phone logs in with. */
  number: string;
  /** Numbers (digits) onWhatsApp answers as not on WhatsApp. */
  notOnWhatsApp: Set<string>;
  /** onWhatsApp fails (ERR_WAPP_CHECK_CONTACT). */
  checkFails: boolean;
  /** Digits -> the JID onWhatsApp answers (e.g. a Brazilian number without its ninth digit). */
  jidOf: Map<string, string>;
  /** Group calls answer 403 (the phone is not an admin of the group) for these group JIDs. */
  notAdminOf: Set<string>;
}

const defaults = (): FakeSettings => ({
  mode: process.env.FAKE_BAILEYS_MODE === 'manual' ? 'manual' : 'auto',
  connectAfterMs: Number(process.env.FAKE_BAILEYS_CONNECT_AFTER_MS ?? 3000),
  number: process.env.FAKE_BAILEYS_NUMBER ?? '5511999990000',
  notOnWhatsApp: new Set(),
  checkFails: false,
  jidOf: new Map(),
  notAdminOf: new Set(),
});

/** A Boom-like error, as Baileys puts in lastDisconnect.error. */
export function boom(statusCode: number, message = `fake close ${statusCode}`): Error & { output: { statusCode: number } } {
  return Object.assign(new Error(message), { isBoom: true, output: { statusCode, payload: { statusCode, message } } });
}

class FakeEv extends EventEmitter {
  private handlers = new Set<(events: Partial<BaileysEventMap>) => void | Promise<void>>();

  process(handler: (events: Partial<BaileysEventMap>) => void | Promise<void>): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  override emit(event: string | symbol, arg?: unknown): boolean {
    const had = super.emit(event, arg);
    for (const handler of this.handlers) void handler({ [event]: arg } as Partial<BaileysEventMap>);
    return had || this.handlers.size > 0;
  }
}

let counter = 0;
const nextId = () => `3EB0FAKE${(++counter).toString(16).toUpperCase().padStart(8, '0')}`;

export class FakeBaileysSocket implements WASocketLike {
  readonly ev = new FakeEv();
  user: { id: string; name?: string } | undefined;
  readonly sent: SentRecord[] = [];
  readonly checked: string[][] = [];
  readonly pairingRequests: string[] = [];
  readonly reads: WAMessageKey[][] = [];
  readonly historyRequests: { count: number; key: WAMessageKey; timestamp: number }[] = [];
  readonly groupCalls: { method: string; args: unknown[] }[] = [];
  loggedOut = false;
  ended = false;
  qrCount = 0;
  /** The next sendMessage throws this. */
  failNextSend: Error | null = null;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    readonly config: SocketConfigLike,
    private readonly settingsOf: () => FakeSettings,
    private readonly phoneGroups: Map<string, GroupMetadata> = new Map(),
  ) {}

  /** Read on every use, so configure() also changes sockets already created. */
  private get settings(): FakeSettings {
    return this.settingsOf();
  }

  get hasLogin(): boolean {
    return Boolean(this.config.auth.creds.me && this.config.auth.creds.registered);
  }

  get isOpen(): boolean {
    return this.user !== undefined && !this.ended;
  }

  // ---------- driving it (what WhatsApp would do) ----------

  /** A new QR code (Baileys emits one per ref: `connection.update` with `qr`). */
  qr(code = `2@FAKE-QR-${this.qrCount + 1},${Math.random().toString(36).slice(2)},fake-noise-key,fake-identity`): string {
    this.qrCount++;
    this.ev.emit('connection.update', { qr: code });
    return code;
  }

  /** The phone scanned the code (or the login resumed): creds saved, then `open`. */
  open(number = this.settings.number): void {
    const id = `${number}:7@s.whatsapp.net`;
    this.user = { id, name: 'Fake phone' };
    const creds = this.config.auth.creds as { me?: unknown; registered: boolean };
    creds.me = { id, name: 'Fake phone' };
    creds.registered = true;
    this.ev.emit('creds.update', { me: creds.me, registered: true });
    this.ev.emit('connection.update', { connection: 'open', receivedPendingNotifications: true });
  }

  /** The connection closes with a DisconnectReason status code. */
  close(statusCode: number, message?: string): void {
    this.clearTimers();
    this.user = undefined;
    this.ended = true;
    this.ev.emit('connection.update', { connection: 'close', lastDisconnect: { error: boom(statusCode, message), date: new Date() } });
  }

  /** Messages arriving (`messages.upsert`, type notify unless told). */
  receive(messages: WAMessage[], type: 'notify' | 'append' = 'notify'): void {
    this.ev.emit('messages.upsert', { messages, type });
  }

  /** A delivery status of one of our messages (`messages.update`; 2 server ack, 3 delivered, 4 read, 5 played, 0 error). */
  status(id: string, status: number, remoteJid = '5511988887777@s.whatsapp.net'): void {
    this.ev.emit('messages.update', [{ key: { remoteJid, id, fromMe: true }, update: { status } }]);
  }

  /** A group participant's receipt (`message-receipt.update`). */
  receipt(id: string, remoteJid: string, receipt: { readTimestamp?: number; receiptTimestamp?: number }): void {
    this.ev.emit('message-receipt.update', [
      { key: { remoteJid, id, fromMe: true }, receipt: { userJid: '5511900000000@s.whatsapp.net', ...receipt } },
    ]);
  }

  /** Members joined, left, were promoted … (`group-participants.update`, Baileys 7 participant objects). */
  participantsChanged(group: string, numbers: string[], action: ParticipantAction, author = `${this.settings.number}@s.whatsapp.net`): void {
    const participants = numbers.map((n) => fakeParticipant(n));
    applyParticipants(this.phoneGroups.get(group), participants, action);
    this.ev.emit('group-participants.update', { id: group, author, participants, action });
  }

  /** The phone joined (or created elsewhere) groups (`groups.upsert`). */
  groupsJoined(groups: GroupMetadata[]): void {
    for (const g of groups) this.phoneGroups.set(g.id, g);
    this.ev.emit('groups.upsert', groups);
  }

  /** Address book entries (`contacts.upsert`) or push names (`contacts.update`). */
  contactsSynced(contacts: Partial<Contact>[], event: 'contacts.upsert' | 'contacts.update' = 'contacts.upsert'): void {
    this.ev.emit(event, contacts);
  }

  /** A history sync chunk (`messaging-history.set`). */
  history(messages: WAMessage[]): void {
    this.ev.emit('messaging-history.set', { chats: [], contacts: [], messages, isLatest: false, progress: 100, syncType: 6 });
  }

  // ---------- what the adapter calls ----------

  async sendMessage(jid: string, content: AnyMessageContent, options?: Record<string, unknown>): Promise<WAMessage | undefined> {
    if (this.failNextSend) {
      const err = this.failNextSend;
      this.failNextSend = null;
      throw err;
    }
    if (!this.isOpen) throw boom(428, 'Connection Closed');
    const id = nextId();
    this.sent.push({ jid, content: content as SentRecord['content'], options, id });
    const c = content as Record<string, unknown>;
    const message: Record<string, unknown> =
      'text' in c && !('edit' in c) ? { extendedTextMessage: { text: c.text } } : { fakeContent: Object.keys(c).join(',') };
    const sent = { key: { remoteJid: jid, fromMe: true, id }, message, messageTimestamp: Math.floor(Date.now() / 1000), status: 1 };
    // Baileys emits our own sends as an `append` upsert.
    setImmediate(() => this.ev.emit('messages.upsert', { messages: [sent], type: 'append' }));
    return sent as unknown as WAMessage;
  }

  async onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[] | undefined> {
    this.checked.push(jids);
    if (this.settings.checkFails) throw boom(500, 'usync failed');
    return jids.map((jid) => {
      const digits = jid.split('@')[0];
      if (this.settings.notOnWhatsApp.has(digits)) return { jid, exists: false };
      return { jid: this.settings.jidOf.get(digits) ?? `${digits}@s.whatsapp.net`, exists: true };
    });
  }

  async requestPairingCode(phoneNumber: string): Promise<string> {
    this.pairingRequests.push(phoneNumber);
    return 'FAKE1234';
  }

  async logout(): Promise<void> {
    this.loggedOut = true;
    this.close(401, 'Intentional Logout');
  }

  end(error: Error | undefined): void {
    if (this.ended) return;
    this.clearTimers();
    this.ended = true;
    this.user = undefined;
    this.ev.emit('connection.update', { connection: 'close', lastDisconnect: { error: error ?? boom(428, 'Connection Closed'), date: new Date() } });
  }

  async readMessages(keys: WAMessageKey[]): Promise<void> {
    this.reads.push(keys);
  }

  async fetchMessageHistory(count: number, key: WAMessageKey, timestamp: number): Promise<string> {
    this.historyRequests.push({ count, key, timestamp });
    return `history-${this.historyRequests.length}`;
  }

  // ---------- groups (the phone's groups in fakeBaileys.groups) ----------

  private groupOf(jid: string, method: string): GroupMetadata {
    if (!this.isOpen) throw boom(428, 'Connection Closed');
    const group = this.phoneGroups.get(jid);
    if (!group) throw boom(404, 'item-not-found');
    if (method !== 'groupMetadata' && this.settings.notAdminOf.has(jid)) throw boom(403, 'not-authorized');
    return group;
  }

  async groupMetadata(jid: string): Promise<GroupMetadata> {
    this.groupCalls.push({ method: 'groupMetadata', args: [jid] });
    const known = this.phoneGroups.get(jid);
    // A group never seeded (inbound messages of tests that do not care) answers a plain name.
    if (!known) return { id: jid, subject: `Grupo ${jid.split('@')[0].slice(-4)}`, owner: undefined, participants: [] };
    return structuredClone(this.groupOf(jid, 'groupMetadata'));
  }

  async groupFetchAllParticipating(): Promise<{ [jid: string]: GroupMetadata }> {
    this.groupCalls.push({ method: 'groupFetchAllParticipating', args: [] });
    if (!this.isOpen) throw boom(428, 'Connection Closed');
    return Object.fromEntries([...this.phoneGroups].map(([jid, g]) => [jid, structuredClone(g)]));
  }

  async groupCreate(subject: string, participants: string[]): Promise<GroupMetadata> {
    this.groupCalls.push({ method: 'groupCreate', args: [subject, participants] });
    if (!this.isOpen) throw boom(428, 'Connection Closed');
    const id = `120363${String(Date.now()).slice(-9)}${String(++counter).padStart(3, '0')}@g.us`;
    const me = `${this.settings.number}@s.whatsapp.net`;
    const group = fakeGroup(id, subject, [], { owner: me });
    group.participants = [{ id: me, phoneNumber: me, admin: 'superadmin' }, ...participants.map((p) => fakeParticipant(p.split('@')[0]))];
    group.size = group.participants.length;
    this.phoneGroups.set(id, group);
    return structuredClone(group);
  }

  async groupUpdateSubject(jid: string, subject: string): Promise<void> {
    this.groupCalls.push({ method: 'groupUpdateSubject', args: [jid, subject] });
    this.groupOf(jid, 'groupUpdateSubject').subject = subject;
  }

  async groupUpdateDescription(jid: string, description?: string): Promise<void> {
    this.groupCalls.push({ method: 'groupUpdateDescription', args: [jid, description] });
    this.groupOf(jid, 'groupUpdateDescription').desc = description;
  }

  async groupParticipantsUpdate(jid: string, participants: string[], action: ParticipantAction): Promise<{ status: string; jid: string | undefined }[]> {
    this.groupCalls.push({ method: 'groupParticipantsUpdate', args: [jid, participants, action] });
    const group = this.groupOf(jid, 'groupParticipantsUpdate');
    const answers = participants.map((p) => {
      const present = group.participants.some((m) => m.id === p || m.phoneNumber === p);
      const status = action === 'add' ? (present ? '409' : '200') : present ? '200' : '404';
      return { status, jid: p };
    });
    applyParticipants(
      group,
      participants.filter((_, i) => answers[i].status === '200').map((p) => fakeParticipant(p.split('@')[0])),
      action,
    );
    return answers;
  }

  async updateProfilePicture(jid: string, content: Buffer | { url: string }): Promise<void> {
    this.groupCalls.push({ method: 'updateProfilePicture', args: [jid, Buffer.isBuffer(content) ? `<${content.length} bytes>` : content] });
    this.groupOf(jid, 'updateProfilePicture');
  }

  // ---------- auto mode ----------

  startAuto(): void {
    const later = (ms: number, fn: () => void) => this.timers.push(setTimeout(() => !this.ended && fn(), ms));
    if (this.hasLogin) {
      later(50, () => this.open((this.config.auth.creds.me?.id ?? '').split(':')[0].split('@')[0] || this.settings.number));
      return;
    }
    later(50, () => this.qr());
    if (this.settings.connectAfterMs > 0) later(50 + this.settings.connectAfterMs, () => this.open());
  }

  private clearTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
  }
}

/** The fakes of this process (kept on globalThis: the server may load this file as another module instance). */
class FakeBaileys {
  readonly sockets: FakeBaileysSocket[] = [];
  /** The phone's groups by JID (what groupFetchAllParticipating answers). */
  readonly groups = new Map<string, GroupMetadata>();
  settings: FakeSettings = defaults();
  private waiting: ((s: FakeBaileysSocket) => void)[] = [];
  private control: Server | null = null;
  private controlListening: Promise<number> | null = null;

  /** The control endpoint's port once it listens (it starts with the first socket). */
  controlPort(): Promise<number> {
    if (!this.controlListening) throw new Error('the fake has no control endpoint: set FAKE_BAILEYS_CONTROL_PORT before the first socket');
    return this.controlListening;
  }

  configure(settings: Partial<FakeSettings>): void {
    this.settings = { ...this.settings, ...settings };
  }

  /** Back to defaults, sockets forgotten (between tests). */
  reset(settings: Partial<FakeSettings> = {}): void {
    this.sockets.length = 0;
    this.groups.clear();
    this.waiting = [];
    this.settings = { ...defaults(), ...settings };
  }

  create(config: SocketConfigLike): FakeBaileysSocket {
    const sock = new FakeBaileysSocket(config, () => this.settings, this.groups);
    this.sockets.push(sock);
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve(sock);
    if (this.settings.mode === 'auto') sock.startAuto();
    this.startControl();
    return sock;
  }

  /** The next socket created (or the last one, if it is newer than `after` sockets). */
  next(after = this.sockets.length, timeoutMs = 5000): Promise<FakeBaileysSocket> {
    if (this.sockets.length > after) return Promise.resolve(this.sockets[after]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no Baileys socket was created')), timeoutMs);
      this.waiting.push((s) => {
        clearTimeout(timer);
        resolve(s);
      });
    });
  }

  last(): FakeBaileysSocket | undefined {
    return this.sockets.at(-1);
  }

  live(): FakeBaileysSocket[] {
    return this.sockets.filter((s) => !s.ended);
  }

  private startControl(): void {
    const wanted = process.env.FAKE_BAILEYS_CONTROL_PORT;
    const port = wanted === 'any' ? 0 : Number(wanted ?? 0);
    if ((!port && wanted !== 'any') || this.control) return;
    this.control = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
        const answer = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        const live = this.live();
        const open = live.filter((s) => s.isOpen);
        switch (`${req.method} ${req.url}`) {
          case 'GET /sockets':
            return answer(200, live.map((s, i) => ({ index: i, open: s.isOpen, user: s.user ?? null, qrCount: s.qrCount, sent: s.sent.length })));
          case 'GET /sent':
            return answer(200, this.sockets.flatMap((s) => s.sent.map(({ jid, id, content }) => ({ jid, id, content: printable(content) }))));
          case 'POST /pair': {
            const waiting = live.filter((s) => !s.isOpen);
            for (const s of waiting) s.open(body.number ?? this.settings.number);
            return answer(200, { opened: waiting.length });
          }
          case 'POST /inbound': {
            const from = String(body.from ?? '5511988887777').replace(/\D/g, '');
            const msg = textMessage(from, String(body.text ?? 'Olá'), { id: body.id, pushName: body.name });
            for (const s of open) s.receive([msg]);
            return answer(200, { delivered: open.length, id: msg.key.id });
          }
          case 'POST /status': {
            const code = body.status === 'read' ? 4 : body.status === 'delivered' ? 3 : 2;
            for (const s of open) s.status(String(body.id), code);
            return answer(200, { ok: true });
          }
          case 'POST /groups': {
            const id = String(body.id ?? `120363${String(Date.now()).slice(-9)}${String(++counter).padStart(3, '0')}@g.us`);
            const numbers = ((body.participants ?? []) as string[]).map((n) => String(n).replace(/\D/g, ''));
            this.groups.set(id, fakeGroup(id, String(body.subject ?? 'Grupo'), numbers, { me: this.settings.number }));
            return answer(200, { id });
          }
          case 'GET /group-calls':
            return answer(200, this.sockets.flatMap((s) => s.groupCalls));
          case 'POST /group-participants': {
            const numbers = ((body.participants ?? []) as string[]).map((n) => String(n).replace(/\D/g, ''));
            for (const s of open) s.participantsChanged(String(body.group), numbers, (body.action ?? 'add') as ParticipantAction);
            return answer(200, { delivered: open.length });
          }
          case 'POST /contacts': {
            const contacts = ((body.contacts ?? []) as { number: string; name?: string; notify?: string }[]).map((c) => ({
              id: `${String(c.number).replace(/\D/g, '')}@s.whatsapp.net`,
              name: c.name,
              notify: c.notify,
            }));
            for (const s of open) s.contactsSynced(contacts);
            return answer(200, { delivered: open.length });
          }
          case 'POST /close': {
            for (const s of open) s.close(Number(body.statusCode ?? 428));
            return answer(200, { closed: open.length });
          }
          default:
            return answer(404, { error: 'unknown fake control route' });
        }
      });
    });
    const control = this.control;
    this.controlListening = new Promise<number>((resolve, reject) => {
      control.once('error', reject);
      control.listen(port, '127.0.0.1', () => resolve((control.address() as AddressInfo).port));
    });
    this.controlListening.catch(() => undefined);
    control.unref();
  }
}

const printable = (content: Record<string, unknown>) =>
  JSON.parse(JSON.stringify(content, (_k, v: unknown) => (Buffer.isBuffer(v) ? `<${v.length} bytes>` : v))) as unknown;

const KEY = Symbol.for('atende.tests.fakeBaileys');
const store = globalThis as unknown as { [KEY]?: FakeBaileys };
export const fakeBaileys: FakeBaileys = (store[KEY] ??= new FakeBaileys());

/** Baileys' `makeWASocket`, as BAILEYS_SOCKET_MODULE loads it. */
export function makeWASocket(config: SocketConfigLike): FakeBaileysSocket {
  return fakeBaileys.create(config);
}

/** Bytes of fake media by message id; a message whose id is not here fails to download. */
export const fakeMedia = new Map<string, Buffer>();
const mediaStore = globalThis as unknown as { [k: symbol]: Map<string, Buffer> | undefined };
const MEDIA_KEY = Symbol.for('atende.tests.fakeBaileys.media');
mediaStore[MEDIA_KEY] ??= fakeMedia;

/** Baileys' `downloadMediaMessage`: the bytes registered for the message id, else a 410-like failure. */
export async function downloadMediaMessage(message: WAMessage): Promise<Buffer> {
  const bytes = mediaStore[MEDIA_KEY]!.get(message.key.id ?? '');
  if (!bytes) throw boom(410, 'media expired on the WhatsApp servers');
  return bytes;
}

// ---------- group builders (Baileys 7 GroupMetadata shapes) ----------

/** A participant as Baileys 7 reports it: a LID id with its phone number twin, or a PN id. */
export function fakeParticipant(number: string, opts: { admin?: 'admin' | 'superadmin'; lid?: string } = {}): GroupParticipant {
  const pn = `${number}@s.whatsapp.net`;
  return { id: opts.lid ? `${opts.lid}@lid` : pn, phoneNumber: pn, admin: opts.admin ?? null };
}

/** A group the phone takes part in (as admin unless told), with these members (digits). */
export function fakeGroup(
  id: string,
  subject: string,
  numbers: string[],
  opts: { me?: string; owner?: string; desc?: string; admin?: boolean } = {},
): GroupMetadata {
  const me = opts.me ? [fakeParticipant(opts.me, { admin: opts.admin === false ? undefined : 'superadmin' })] : [];
  const participants = [...me, ...numbers.map((n) => fakeParticipant(n))];
  return { id, subject, desc: opts.desc, owner: opts.owner ?? (opts.me ? `${opts.me}@s.whatsapp.net` : undefined), participants, size: participants.length };
}

function applyParticipants(group: GroupMetadata | undefined, participants: GroupParticipant[], action: ParticipantAction): void {
  if (!group) return;
  const same = (a: GroupParticipant, b: GroupParticipant) => a.id === b.id || (a.phoneNumber && a.phoneNumber === b.phoneNumber);
  if (action === 'add') for (const p of participants) if (!group.participants.some((m) => same(m, p))) group.participants.push(p);
  if (action === 'remove') group.participants = group.participants.filter((m) => !participants.some((p) => same(m, p)));
  if (action === 'promote' || action === 'demote')
    for (const m of group.participants) if (participants.some((p) => same(m, p))) m.admin = action === 'promote' ? 'admin' : null;
  group.size = group.participants.length;
}

// ---------- message builders (Baileys' WAMessage shapes) ----------

interface BuildOpts {
  id?: string;
  pushName?: string;
  timestamp?: number;
  /** A group message: the group JID is the chat, `from` the participant. */
  group?: string;
  quotedId?: string;
  /** `from` is a LID; its phone-number twin goes in remoteJidAlt / participantAlt. */
  lid?: string;
}

function keyOf(from: string, opts: BuildOpts): WAMessageKey {
  const id = opts.id ?? nextId().replace('3EB0', 'CUST');
  const pn = `${from}@s.whatsapp.net`;
  if (opts.group) return { remoteJid: opts.group, fromMe: false, id, participant: opts.lid ? `${opts.lid}@lid` : pn, ...(opts.lid ? { participantAlt: pn } : {}) };
  if (opts.lid) return { remoteJid: `${opts.lid}@lid`, remoteJidAlt: pn, fromMe: false, id, addressingMode: 'lid' };
  return { remoteJid: pn, fromMe: false, id };
}

export function waMessage(from: string, message: Record<string, unknown>, opts: BuildOpts = {}): WAMessage {
  return {
    key: keyOf(from, opts),
    message,
    messageTimestamp: opts.timestamp ?? Math.floor(Date.now() / 1000),
    pushName: opts.pushName ?? 'Cliente Fake',
  } as unknown as WAMessage;
}

const context = (opts: BuildOpts) => (opts.quotedId ? { contextInfo: { stanzaId: opts.quotedId, participant: '5511999990000@s.whatsapp.net' } } : {});

export function textMessage(from: string, text: string, opts: BuildOpts = {}): WAMessage {
  return opts.quotedId
    ? waMessage(from, { extendedTextMessage: { text, ...context(opts) } }, opts)
    : waMessage(from, { conversation: text }, opts);
}

export function mediaMessage(
  from: string,
  kind: 'image' | 'video' | 'audio' | 'document' | 'sticker',
  fields: { mimetype: string; caption?: string; fileName?: string; ptt?: boolean; bytes?: Buffer },
  opts: BuildOpts = {},
): WAMessage {
  const { bytes, ...rest } = fields;
  const msg = waMessage(from, { [`${kind}Message`]: { url: 'https://mmg.whatsapp.net/fake', mediaKey: 'ZmFrZQ==', ...rest, ...context(opts) } }, opts);
  if (bytes) mediaStore[MEDIA_KEY]!.set(msg.key.id!, bytes);
  return msg;
}
