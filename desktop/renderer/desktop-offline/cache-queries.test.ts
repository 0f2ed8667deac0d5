import { describe, expect, it, vi } from 'vitest';
import type { DesktopApi, TicketListOptions } from '@shared/desktop-api';
import { cachePolicy } from '../api/cache-fallback-rule';
import { markAccountSettled } from './account-ready';
import { answerFromCache, decodeCursor, encodeCursor, parseRequest, ticketFromLists, ticketMatches } from './cache-queries';

// The app's first cache.begin has settled (install-desktop-offline does it in the app).
markAccountSettled();

/** A desktop cache in memory with the bridge's shapes (the real one is tested under Node in desktop/main). */
function fakeDesktop() {
  const tickets = [
    { id: 3, status: 'open', contactId: 30, contact: { id: 30, name: 'João Núñez', number: '5511999990003' }, lastMessage: 'orçamento', lastMessageAt: '2026-11-26T10:03:00Z' },
    { id: 2, status: 'pending', contactId: 20, contact: { id: 20, name: 'Maria', number: '5511999990002' }, lastMessage: 'oi', lastMessageAt: '2026-11-26T10:02:00Z' },
    { id: 1, status: 'closed', contactId: 10, contact: { id: 10, name: 'Ana', number: '5511999990001' }, lastMessage: 'tchau', lastMessageAt: '2026-11-26T10:01:00Z' },
  ];
  const messages = [
    { id: 12, ticketId: 3, body: 'segue o orçamento', fromMe: true, clientId: null, createdAt: '2026-11-26T10:03:00Z' },
    { id: 11, ticketId: 3, body: 'preciso de um orçamento', fromMe: false, clientId: null, createdAt: '2026-11-26T10:02:00Z' },
    { id: 5, ticketId: 2, body: 'orçamento também', fromMe: false, clientId: null, createdAt: '2026-11-26T10:00:00Z' },
  ];
  const calls: string[] = [];
  const desktop = {
    cache: {
      tickets: vi.fn(async (options: TicketListOptions = {}) => {
        calls.push(`tickets ${JSON.stringify(options)}`);
        const statuses = ([] as string[]).concat(options.status ?? ['open', 'pending']);
        const all = tickets.filter((t) => statuses.includes(t.status)).filter((t) => !options.before || t.id < options.before.id);
        const page = all.slice(0, options.limit ?? 40);
        const last = page.at(-1);
        const hasMore = all.length > page.length;
        return { tickets: page, hasMore, nextBefore: hasMore && last ? { lastMessageAtMs: Date.parse(last.lastMessageAt), id: last.id } : null };
      }),
      thread: vi.fn(async (ticketId: number, options: { beforeId?: number | null } = {}) => {
        const list = messages.filter((m) => m.ticketId === ticketId && (!options.beforeId || m.id < options.beforeId));
        return { messages: list.slice(0, 1), hasMore: list.length > 1, nextBefore: list.length > 1 ? list[0].id : null };
      }),
      search: vi.fn(async (text: string) => ({
        messages: messages.filter((m) => m.body.includes(text)),
        contacts: tickets.filter((t) => t.contact.name.startsWith(text)).map((t) => t.contact),
      })),
    },
    sync: { loadOlder: vi.fn(async () => ({ added: 0, complete: true })) },
  };
  return { desktop: desktop as unknown as DesktopApi, calls };
}

const ask = (desktop: DesktopApi, args: Parameters<typeof answerFromCache>[1], state: unknown = {}) =>
  answerFromCache(desktop, args, { state, browserOnline: false });

describe('which requests the desktop answers from its cache', () => {
  it('only the console reads, only with window.desktop; offline skips the network', () => {
    expect(cachePolicy('getTickets', false, false)).toBeNull();
    expect(cachePolicy('getUser', true, false)).toBeNull();
    expect(cachePolicy('sendMessage', true, true)).toBeNull();
    expect(cachePolicy('getMessages', true, true)).toBe('after-failure');
    expect(cachePolicy('getTicket', true, false)).toBe('skip-network');
    for (const endpoint of ['getTickets', 'searchTicketMessages', 'searchTickets', 'searchMessages']) expect(cachePolicy(endpoint, true, false)).toBe('skip-network');
  });
});

describe('answers from the cache in the server shapes', () => {
  it('reads the request the API layer built', () => {
    expect(parseRequest({ url: '/tickets', params: { status: 'open,pending', pageSize: 40, showAll: undefined } })).toEqual({
      path: '/tickets',
      params: { status: 'open,pending', pageSize: '40' },
    });
    expect(parseRequest('/messages/5?before=9')).toEqual({ path: '/messages/5', params: { before: '9' } });
    expect(decodeCursor(encodeCursor({ lastMessageAtMs: 1700000000000, id: 4 }))).toEqual({ lastMessageAtMs: 1700000000000, id: 4 });
    expect(decodeCursor('eyJzZXJ2ZXIiOjF9')).toBeNull();
  });

  it('the ticket list by status, paged with a cache cursor; a server cursor reads nothing more', async () => {
    const { desktop } = fakeDesktop();
    const first = (await ask(desktop, { url: '/tickets', params: { status: 'open,pending', pageSize: 1 } }))!.data as { tickets: { id: number }[]; nextCursor: string; hasMore: boolean; fromCache: boolean };
    expect(first.tickets.map((t) => t.id)).toEqual([3]);
    expect(first).toMatchObject({ hasMore: true, fromCache: true });
    expect(first.nextCursor).toMatch(/^cache:/);
    const second = (await ask(desktop, { url: '/tickets', params: { status: 'open,pending', pageSize: 1, cursor: first.nextCursor } }))!.data as { tickets: { id: number }[] };
    expect(second.tickets.map((t) => t.id)).toEqual([2]);
    const server = (await ask(desktop, { url: '/tickets', params: { status: 'open', cursor: 'c2VydmVy' } }))!.data as { tickets: unknown[] };
    expect(server.tickets).toEqual([]);
  });

  it('a list search matches name, number or last message without accents, and contacts the cache found', async () => {
    const { desktop } = fakeDesktop();
    const found = (await ask(desktop, { url: '/tickets', params: { searchParam: 'nunez', status: 'open,pending,closed' } }))!.data as { tickets: { id: number }[]; count: number };
    expect(found.tickets.map((t) => t.id)).toEqual([3]);
    expect(found.count).toBe(1);
    const byContact = (await ask(desktop, { url: '/tickets', params: { searchParam: 'Ana', status: 'open,pending,closed' } }))!.data as { tickets: { id: number }[] };
    expect(byContact.tickets.map((t) => t.id)).toEqual([1]);
    expect(ticketMatches({ id: 9, contactId: 1, contact: null, name: null, protocol: '2026X', lastMessage: null } as never, '2026x', new Set())).toBe(true);
  });

  it("a ticket's detail from the lists in memory, else from the cache; unknown: no answer", async () => {
    const { desktop, calls } = fakeDesktop();
    const state = { api: { queries: { a: { endpointName: 'getTickets', data: { tickets: [{ id: 2, status: 'pending', fromList: true }] } } } } };
    expect(ticketFromLists(state, 2)).toMatchObject({ fromList: true });
    expect((await ask(desktop, '/tickets/2', state))!.data).toMatchObject({ id: 2, fromList: true, fromCache: true });
    expect(calls).toEqual([]);
    expect((await ask(desktop, '/tickets/1'))!.data).toMatchObject({ id: 1, status: 'closed', fromCache: true });
    expect(await ask(desktop, '/tickets/99')).toBeNull();
  });

  it('thread pages, newest first, older pages by id', async () => {
    const { desktop } = fakeDesktop();
    const page = (await ask(desktop, { url: '/messages/3', params: {} }))!.data as { messages: { id: number }[]; nextBefore: number; fromCache: boolean };
    expect(page).toMatchObject({ messages: [{ id: 12 }], hasMore: true, nextBefore: 12, fromCache: true });
    const older = (await ask(desktop, { url: '/messages/3', params: { before: 12 } }))!.data as { messages: { id: number }[] };
    expect(older.messages.map((m) => m.id)).toEqual([11]);
  });

  it('older history the cache lacks: main is asked to load it when the browser is online', async () => {
    const { desktop } = fakeDesktop();
    await answerFromCache(desktop, { url: '/messages/3', params: { before: 11 } }, { state: {}, browserOnline: true });
    expect(desktop.sync.loadOlder).toHaveBeenCalledWith(3);
    (desktop.sync.loadOlder as ReturnType<typeof vi.fn>).mockClear();
    await ask(desktop, { url: '/messages/3', params: { before: 11 } });
    expect(desktop.sync.loadOlder).not.toHaveBeenCalled();
  });

  it('message search: every ticket (console) or one ticket (the thread search)', async () => {
    const { desktop } = fakeDesktop();
    const all = (await ask(desktop, { url: '/searchMessage', params: { searchParam: 'orçamento' } }))!.data as { messages: { id: number }[]; count: number };
    expect(all.messages.map((m) => m.id)).toEqual([12, 11, 5]);
    const one = (await ask(desktop, { url: '/searchMessage', params: { searchParam: 'orçamento', ticketId: 2, pageNumber: 1 } }))!.data as { messages: { id: number }[] };
    expect(one.messages.map((m) => m.id)).toEqual([5]);
  });

  it('no account open in main: no answer (the network error stands); unknown paths: none', async () => {
    const { desktop } = fakeDesktop();
    (desktop.cache.thread as ReturnType<typeof vi.fn>).mockRejectedValueOnce(new Error('ERR_DESKTOP_NO_ACCOUNT: no account is open'));
    expect(await ask(desktop, '/messages/3')).toBeNull();
    expect(await ask(desktop, '/users/7')).toBeNull();
  });
});
