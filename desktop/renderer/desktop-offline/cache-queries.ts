import type { FetchArgs } from '@reduxjs/toolkit/query';
import type { DesktopApi, TicketCursor } from '@shared/desktop-api';
import type { TicketStatus as SharedTicketStatus } from '@shared/schemas/tickets';
import type { Message, MessagePage, MessageSearchResult } from '../api/messages.api';
import type { Ticket, TicketListPage } from '../api/tickets.api';
import { accountSettled } from './account-ready';

/**
 * The desktop console's reads answered from the local cache (issue #15) when the network gives no
 * answer or the browser is offline. The request the API layer was about to send is read back
 * (path and parameters) and answered in the server's shapes, with `fromCache: true`, so the RTK
 * Query caches and the screens work unchanged. Loaded on demand only inside the desktop app.
 */
type Cache = Pick<DesktopApi, 'cache' | 'sync'>;

export interface ParsedRequest {
  path: string;
  params: Record<string, string>;
}

export function parseRequest(args: string | FetchArgs): ParsedRequest {
  const raw = typeof args === 'string' ? args : args.url;
  const url = new URL(raw, 'http://cache.invalid');
  const params: Record<string, string> = Object.fromEntries(url.searchParams);
  if (typeof args !== 'string' && args.params)
    for (const [key, value] of Object.entries(args.params as Record<string, unknown>))
      if (value !== undefined && value !== null) params[key] = String(value);
  return { path: url.pathname.replace(/\/+$/, '') || '/', params };
}

const STATUSES: readonly SharedTicketStatus[] = ['open', 'pending', 'closed', 'schedule'];
const ALL_STATUSES: SharedTicketStatus[] = ['open', 'pending', 'closed'];

export function statusesOf(param: string | undefined): SharedTicketStatus[] {
  const listed = (param ?? 'open,pending').split(',').filter((s): s is SharedTicketStatus => (STATUSES as readonly string[]).includes(s));
  return listed.length ? listed : ['open', 'pending'];
}

/** The list's cursor is a string; a cache page's position is written `cache:<ms>:<id>`. */
export const encodeCursor = (cursor: TicketCursor): string => `cache:${cursor.lastMessageAtMs}:${cursor.id}`;
export function decodeCursor(value: string): TicketCursor | null {
  const match = /^cache:(-?\d+):(\d+)$/.exec(value);
  return match ? { lastMessageAtMs: Number(match[1]), id: Number(match[2]) } : null;
}

/** Lower case without accents, as the cache's full-text search compares. */
export const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Every word of the search in the contact's name or number, the protocol or the last message. */
export function ticketMatches(ticket: Ticket, search: string, contactIds: ReadonlySet<number>): boolean {
  if (contactIds.has(ticket.contactId)) return true;
  const haystack = fold(
    [ticket.contact?.name, ticket.name, ticket.contact?.number, ticket.protocol, ticket.id, ticket.lastMessage].filter((v) => v != null).join(' '),
  );
  return fold(search)
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/** Pages through the cached tickets of some statuses (at most `max`). */
async function cachedTickets(desktop: Cache, status: SharedTicketStatus[], max = 2000): Promise<Ticket[]> {
  const out: Ticket[] = [];
  let before: TicketCursor | null = null;
  while (out.length < max) {
    const page = await desktop.cache.tickets({ status, limit: 500, before });
    out.push(...(page.tickets as unknown as Ticket[]));
    if (!page.hasMore || !page.nextBefore) break;
    before = page.nextBefore;
  }
  return out;
}

async function ticketList(desktop: Cache, params: Record<string, string>): Promise<TicketListPage & { fromCache: true }> {
  const status = statusesOf(params.status);
  const search = (params.searchParam ?? '').trim();
  if (search) {
    const contacts = await desktop.cache.search(search.slice(0, 200), 100).catch(() => ({ contacts: [] as { id: number }[] }));
    const contactIds = new Set(contacts.contacts.map((c) => c.id));
    const tickets = (await cachedTickets(desktop, status)).filter((t) => ticketMatches(t, search, contactIds));
    return { tickets, count: tickets.length, hasMore: false, nextCursor: null, fromCache: true };
  }
  const cursor = params.cursor ? decodeCursor(params.cursor) : null;
  // A server cursor (a page asked for before going offline): the cache has no position for it.
  if (params.cursor && !cursor) return { tickets: [], count: null, hasMore: false, nextCursor: null, fromCache: true };
  const limit = Math.min(Math.max(Number(params.pageSize) || 40, 1), 500);
  const page = await desktop.cache.tickets({ status, limit, before: cursor });
  return {
    tickets: page.tickets as unknown as Ticket[],
    count: null,
    hasMore: page.hasMore,
    nextCursor: page.hasMore && page.nextBefore ? encodeCursor(page.nextBefore) : null,
    fromCache: true,
  };
}

/** RTK Query's state, read for tickets the lists already hold. */
interface ApiStateLike {
  api?: { queries?: Record<string, { endpointName?: string; data?: unknown } | undefined> };
}

export function ticketFromLists(state: unknown, id: number): Ticket | null {
  const queries = (state as ApiStateLike)?.api?.queries ?? {};
  for (const entry of Object.values(queries)) {
    if (entry?.endpointName !== 'getTickets' && entry?.endpointName !== 'searchTickets') continue;
    const found = (entry.data as TicketListPage | undefined)?.tickets?.find((t) => t.id === id);
    if (found) return found;
  }
  return null;
}

async function ticketDetail(desktop: Cache, id: number, state: unknown): Promise<Ticket | null> {
  return ticketFromLists(state, id) ?? (await cachedTickets(desktop, ALL_STATUSES)).find((t) => t.id === id) ?? null;
}

async function threadPage(desktop: Cache, ticketId: number, before: number | null, browserOnline: boolean): Promise<MessagePage & { fromCache: true }> {
  let page = await desktop.cache.thread(ticketId, { beforeId: before });
  // Older history the cache lacks: main fetches the next page down (it may reach the server when
  // only the page's request failed), then the cache answers.
  if (before && page.messages.length === 0 && browserOnline) {
    const older = await desktop.sync.loadOlder(ticketId).catch(() => null);
    if (older?.added) page = await desktop.cache.thread(ticketId, { beforeId: before });
  }
  return { messages: page.messages as unknown as Message[], hasMore: page.hasMore, nextBefore: page.nextBefore, fromCache: true };
}

async function messageSearch(desktop: Cache, params: Record<string, string>): Promise<MessageSearchResult & { fromCache: true }> {
  const text = (params.searchParam ?? '').trim().slice(0, 200);
  if (!text) return { messages: [], count: 0, hasMore: false, fromCache: true };
  const ticketId = params.ticketId ? Number(params.ticketId) : null;
  const found = await desktop.cache.search(text, ticketId ? 500 : 100);
  const messages = (found.messages as unknown as Message[]).filter((m) => ticketId === null || m.ticketId === ticketId);
  return { messages, count: messages.length, hasMore: false, fromCache: true };
}

/**
 * The cache's answer to a request, or null when the cache cannot answer it (no account open,
 * a ticket it does not hold, a request it does not know).
 */
export async function answerFromCache(
  desktop: Cache,
  args: string | FetchArgs,
  options: { state: unknown; browserOnline: boolean },
): Promise<{ data: unknown } | null> {
  const { path, params } = parseRequest(args);
  await accountSettled();
  try {
    if (path === '/tickets') return { data: await ticketList(desktop, params) };
    const ticket = /^\/tickets\/(\d+)$/.exec(path);
    if (ticket) {
      const found = await ticketDetail(desktop, Number(ticket[1]), options.state);
      return found ? { data: { ...found, fromCache: true } } : null;
    }
    const thread = /^\/messages\/(\d+)$/.exec(path);
    if (thread) return { data: await threadPage(desktop, Number(thread[1]), params.before ? Number(params.before) : null, options.browserOnline) };
    if (path === '/searchMessage') return { data: await messageSearch(desktop, params) };
  } catch {
    // ERR_DESKTOP_NO_ACCOUNT (no cache on this machine, or not opened yet): the network's error stands.
  }
  return null;
}
