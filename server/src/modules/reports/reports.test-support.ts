import { randomBytes } from 'node:crypto';
import { backfillTicketMetrics } from '../../../../migrations/1763780000000-ticket-metrics';
import type { TestServer, TestTenant, TestUser } from '../../../../tests/helpers/test-server';

/**
 * The reports' seeded world (not loaded by the server): a tenant whose tickets, messages,
 * ratings and contacts have known times around the period's edges in São Paulo, and a model of
 * them from which the tests compute every expected row and total on their own.
 */

export type LoggedUser = TestUser & { token: string };

const unique = () => randomBytes(4).toString('hex');
type Q = (sql: string, params?: unknown[]) => Promise<any[]>;

export interface ContactModel {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  createdAt: string;
  isGroup: boolean;
  tags: string[];
  wallets: string[];
  kanban: string | null;
  state: string | null;
}

export interface MessageModel {
  /** minutes after the ticket's creation */
  at: number;
  fromMe: boolean;
  user: string | null;
  isPrivate?: boolean;
}

export interface TicketModel {
  id: number;
  protocol: string;
  key: string;
  contact: string;
  queue: string;
  user: string | null;
  channel: string;
  status: 'open' | 'pending' | 'closed';
  createdAt: string;
  /** minutes after creation */
  closedAfter?: number;
  rating?: number;
  demand?: string;
  /** opened by this user (its create log names them; the ticket is an active demand) */
  openedBy?: string;
  messages: MessageModel[];
}

export interface ReportWorld {
  tenant: TestTenant;
  users: Record<'admin' | 'super' | 'user', LoggedUser>;
  /** ids by name */
  queues: Record<string, number>;
  people: Record<string, number>;
  channels: Record<string, number>;
  tags: Record<string, number>;
  kanbans: Record<string, number>;
  demands: Record<string, number>;
  contacts: ContactModel[];
  tickets: TicketModel[];
}

/** Contacts of the world: created in March 2025 (São Paulo) unless said otherwise. */
const CONTACTS: Omit<ContactModel, 'id' | 'state'>[] = [
  { name: 'Alice', number: '5511987650001', email: 'alice@x.com', createdAt: '2025-03-05T12:00:00Z', isGroup: false, tags: ['VIP'], wallets: ['Ana'], kanban: 'Novo' },
  { name: 'Bruno Contato', number: '5521987650002', email: null, createdAt: '2025-03-06T12:00:00Z', isGroup: false, tags: ['Ouro'], wallets: ['Bruno'], kanban: 'Fechando' },
  { name: 'Carla', number: '5561987650003', email: 'carla@x.com', createdAt: '2025-03-07T12:00:00Z', isGroup: false, tags: ['Ouro', 'VIP'], wallets: ['Ana', 'Bruno'], kanban: 'Novo' },
  // 23:00 on 28/02 in São Paulo: outside March.
  { name: 'Davi', number: '5511987650004', email: null, createdAt: '2025-03-01T02:00:00Z', isGroup: false, tags: ['VIP'], wallets: [], kanban: null },
  { name: 'Eva', number: '14155552671', email: null, createdAt: '2025-03-08T12:00:00Z', isGroup: false, tags: [], wallets: [], kanban: null },
  // 20:30 on 31/03 in São Paulo: inside March (23:30 UTC).
  { name: 'fabio', number: '5511987650006', email: null, createdAt: '2025-03-31T23:30:00Z', isGroup: false, tags: [], wallets: ['Ana'], kanban: null },
  { name: 'Grupo da Loja', number: '120363000000000001', email: null, createdAt: '2025-03-09T12:00:00Z', isGroup: true, tags: ['VIP'], wallets: [], kanban: 'Novo' },
  // 00:00 on 01/04 in São Paulo: outside March.
  { name: 'Hugo', number: '5511987650008', email: null, createdAt: '2025-04-01T03:00:00Z', isGroup: false, tags: ['VIP'], wallets: ['Ana'], kanban: 'Novo' },
];

const STATES: Record<string, string> = { '11': 'SP', '21': 'RJ', '61': 'DF' };

/** Tickets of the world; the report period is March 2025 in São Paulo (UTC-3, no daylight saving). */
const TICKETS: Omit<TicketModel, 'id' | 'protocol'>[] = [
  {
    key: 't1', contact: 'Alice', queue: 'Vendas', user: 'Ana', channel: 'WhatsApp', status: 'closed',
    createdAt: '2025-03-01T03:00:00Z', closedAfter: 120, rating: 5, demand: 'Compra', openedBy: 'Ana',
    messages: [
      { at: 0, fromMe: false, user: null },
      { at: 10, fromMe: true, user: 'Ana' },
      { at: 20, fromMe: true, user: 'Ana' },
      { at: 30, fromMe: true, user: 'Bruno' },
    ],
  },
  {
    key: 't2', contact: 'Bruno Contato', queue: 'Vendas', user: 'Ana', channel: 'Telegram', status: 'closed',
    createdAt: '2025-03-10T12:00:00Z', closedAfter: 60, rating: 3,
    messages: [
      { at: 0, fromMe: false, user: null },
      { at: 1, fromMe: true, user: 'Ana', isPrivate: true },
      { at: 5, fromMe: true, user: 'Ana' },
    ],
  },
  {
    key: 't3', contact: 'Carla', queue: 'Suporte', user: 'Bruno', channel: 'WhatsApp', status: 'open',
    createdAt: '2025-03-15T15:00:00Z',
    messages: [
      { at: 0, fromMe: false, user: null },
      { at: 20, fromMe: true, user: 'Bruno' },
    ],
  },
  {
    // 23:59:59 on 31/03 in São Paulo: the last second of the period.
    key: 't4', contact: 'fabio', queue: 'Suporte', user: null, channel: 'WhatsApp', status: 'pending',
    createdAt: '2025-04-01T02:59:59Z',
    messages: [{ at: 0, fromMe: false, user: null }],
  },
  {
    // 23:59:59 on 28/02 in São Paulo: before the period.
    key: 't5', contact: 'Davi', queue: 'Vendas', user: 'Ana', channel: 'WhatsApp', status: 'closed',
    createdAt: '2025-03-01T02:59:59Z', closedAfter: 10, rating: 1,
    messages: [{ at: 1, fromMe: true, user: 'Ana' }],
  },
  {
    // 00:00 on 01/04 in São Paulo: after the period.
    key: 't6', contact: 'Eva', queue: 'Vendas', user: 'Ana', channel: 'WhatsApp', status: 'open',
    createdAt: '2025-04-01T03:00:00Z',
    messages: [{ at: 2, fromMe: true, user: 'Ana' }],
  },
  {
    // A queue the reports below do not choose.
    key: 't7', contact: 'Davi', queue: 'Financeiro', user: 'Ana', channel: 'Telegram', status: 'closed',
    createdAt: '2025-03-12T12:00:00Z', closedAfter: 30, rating: 0,
    messages: [{ at: 3, fromMe: true, user: 'Ana' }],
  },
  {
    key: 't8', contact: 'Carla', queue: 'Vendas', user: 'Bruno', channel: 'WhatsApp', status: 'closed',
    createdAt: '2025-03-20T10:00:00Z', closedAfter: 180, rating: 4, demand: 'Troca',
    messages: [
      { at: 0, fromMe: false, user: null },
      { at: 40, fromMe: true, user: 'Bruno' },
      { at: 50, fromMe: false, user: null },
      { at: 55, fromMe: true, user: 'Bruno' },
    ],
  },
];

const addMinutes = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

/** Seeds the world in a new tenant (admin, super and user logged in; Ana and Bruno are agents). */
export async function seedReportWorld(server: TestServer): Promise<ReportWorld> {
  const { tenant, users } = await server.createTenantWithUsers();
  const q: Q = (sql, params) => server.deps.dataSource.query(sql, params);
  const t = tenant.id;
  const idsOf = async (table: string, names: string[]) => {
    const out: Record<string, number> = {};
    for (const name of names) [{ id: out[name] }] = await q(`INSERT INTO ${table} ("tenantId", name) VALUES ($1, $2) RETURNING id`, [t, name]);
    return out;
  };
  const queues = await idsOf('queues', ['Vendas', 'Suporte', 'Financeiro']);
  const tags = await idsOf('tags', ['VIP', 'Ouro']);
  const kanbans = await idsOf('kanbans', ['Novo', 'Fechando']);
  const demands = await idsOf('demands', ['Compra', 'Troca']);
  const channels: Record<string, number> = {};
  for (const [name, type] of [['WhatsApp', 'waba'], ['Telegram', 'telegram']]) {
    [{ id: channels[name] }] = await q(`INSERT INTO channels ("tenantId", name, type) VALUES ($1, $2, $3) RETURNING id`, [t, name, type]);
  }
  const people: Record<string, number> = {};
  for (const name of ['Ana', 'Bruno']) people[name] = (await server.createUser(t, { profile: 'user', name })).id;
  await q(`UPDATE users SET name = 'Zé Admin' WHERE id = $1`, [users.admin.id]);
  await q(`UPDATE users SET name = 'Supervisora' WHERE id = $1`, [users.super.id]);
  await q(`UPDATE users SET name = 'agente' WHERE id = $1`, [users.user.id]);

  const contacts: ContactModel[] = [];
  for (const c of CONTACTS) {
    const [{ id }] = await q(
      `INSERT INTO contacts ("tenantId", name, number, email, "isGroup", "kanbanId", "createdAt") VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [t, c.name, c.number, c.email, c.isGroup, c.kanban ? kanbans[c.kanban] : null, c.createdAt],
    );
    for (const tag of c.tags) await q(`INSERT INTO contact_tags ("contactId", "tagId", "tenantId") VALUES ($1, $2, $3)`, [id, tags[tag], t]);
    for (const owner of c.wallets) {
      await q(`INSERT INTO contact_wallets ("contactId", "userId", "tenantId") VALUES ($1, $2, $3)`, [id, people[owner], t]);
    }
    const area = c.number && /^55\d{10,11}$/.test(c.number) ? c.number.slice(2, 4) : null;
    contacts.push({ ...c, id, state: area ? (STATES[area] ?? null) : null });
  }
  const contactId = (name: string) => contacts.find((c) => c.name === name)!.id;

  const tickets: TicketModel[] = [];
  for (const k of TICKETS) {
    const protocol = `P-${k.key}-${unique()}`;
    const [{ id }] = await q(
      `INSERT INTO tickets ("tenantId", "contactId", "queueId", "userId", "whatsappId", channel, status, protocol, "demandId",
                            "createdAt", "closedAt", "lastMessageAt", "isActiveDemand")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $10, $12) RETURNING id`,
      [
        t,
        contactId(k.contact),
        queues[k.queue],
        k.user ? people[k.user] : null,
        channels[k.channel],
        k.channel === 'Telegram' ? 'telegram' : 'waba',
        k.status,
        protocol,
        k.demand ? demands[k.demand] : null,
        k.createdAt,
        k.closedAfter !== undefined ? addMinutes(k.createdAt, k.closedAfter) : null,
        k.openedBy !== undefined,
      ],
    );
    // The ticket's history as the write paths log it: created open for its agent (pending without
    // one), and resolved by that agent `closedAfter` minutes later; the rating arrives then.
    await q(`INSERT INTO ticket_logs ("tenantId", "ticketId", "userId", type, data, "createdAt") VALUES ($1, $2, $3, 'create', $4, $5)`, [
      t,
      id,
      k.openedBy ? people[k.openedBy] : null,
      { status: k.user ? 'open' : 'pending' },
      k.createdAt,
    ]);
    if (k.status === 'closed' && k.closedAfter !== undefined) {
      await q(`INSERT INTO ticket_logs ("tenantId", "ticketId", "userId", type, data, "createdAt") VALUES ($1, $2, $3, 'resolve', $4, $5)`, [
        t,
        id,
        k.user ? people[k.user] : null,
        { fromUserId: k.user ? people[k.user] : null },
        addMinutes(k.createdAt, k.closedAfter),
      ]);
    }
    if (k.rating !== undefined) {
      await q(`INSERT INTO ticket_ratings ("tenantId", "ticketId", "userId", rating, "createdAt") VALUES ($1, $2, $3, $4, $5)`, [
        t,
        id,
        k.user ? people[k.user] : null,
        k.rating,
        ratedAt(k),
      ]);
    }
    for (const m of k.messages) {
      await q(
        `INSERT INTO messages ("tenantId", "ticketId", "contactId", body, "fromMe", "userId", "isPrivate", status, "createdAt")
         VALUES ($1, $2, $3, 'texto', $4, $5, $6, $7, $8)`,
        [t, id, contactId(k.contact), m.fromMe, m.user ? people[m.user] : null, m.isPrivate ?? false, m.fromMe ? 'sent' : 'received', addMinutes(k.createdAt, m.at)],
      );
    }
    tickets.push({ ...k, id, protocol });
  }
  // The tickets and messages were written here, not by the write paths that record the metrics:
  // their facts and summary columns derived once, as the migration does for older data.
  await backfillTicketMetrics(server.deps.dataSource, { tenantId: t });
  return { tenant, users, queues, people, channels, tags, kanbans, demands, contacts, tickets };
}

/** When a ticket of the world got its rating: at its closing (at its creation when still open). */
export const ratedAt = (k: Pick<TicketModel, 'createdAt' | 'closedAfter'>): string => addMinutes(k.createdAt, k.closedAfter ?? 0);

/** Median as PostgreSQL's percentile_cont(0.5): the mean of the two middle values of an even sample. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const createdAtOf = (k: TicketModel): number => Date.parse(k.createdAt);

/** In March 2025 as lived in São Paulo (UTC-3 all month). */
export const inMarchSaoPaulo = (iso: string): boolean =>
  Date.parse(iso) >= Date.parse('2025-03-01T03:00:00Z') && Date.parse(iso) < Date.parse('2025-04-01T03:00:00Z');

/** PostgreSQL's lower() order of ASCII names, then id. */
export const byName = <T extends { name: string; id: number }>(a: T, b: T): number => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
};

/** Downloads a report file: status, headers and bytes. */
export async function download(server: TestServer, url: string, token: string) {
  const res = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The file name of a Content-Disposition header (RFC 5987 `filename*` preferred). */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="([^"]*)"/i.exec(header);
  return plain ? plain[1] : null;
}
