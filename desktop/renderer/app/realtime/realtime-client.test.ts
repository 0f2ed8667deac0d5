import { describe, expect, it, vi } from 'vitest';
import type { DomainEventEnvelope, SyncResponse } from '@shared/events';
import { createRealtimeClient, type RealtimeClientDeps, type SocketOptions } from './realtime-client';

/** Records what the client emits and lets the test play the server's side. */
class FakeSocket {
  emitted: unknown[][] = [];
  connects = 0;
  disconnects = 0;
  private listeners = new Map<string, ((...args: any[]) => void)[]>();
  constructor(public options: SocketOptions) {}
  on(event: string, listener: (...args: any[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push([event, ...args]);
    return this;
  }
  /** Something the server sends. */
  receive(event: string, ...args: unknown[]) {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
  connect() {
    this.connects += 1;
  }
  disconnect() {
    this.disconnects += 1;
  }
}

const envelope = (seq: number, name = 'user:update'): DomainEventEnvelope => ({
  seq,
  tenantId: 1,
  name,
  payload: { id: seq },
  createdAt: '',
});

function setup(overrides: Partial<RealtimeClientDeps> = {}) {
  let socket!: FakeSocket;
  const applied: number[] = [];
  const deps: RealtimeClientDeps = {
    createSocket: (options) => (socket = new FakeSocket(options)),
    getToken: () => 'jwt',
    tenantId: 5,
    fetchSince: vi.fn(async (): Promise<SyncResponse> => ({ events: [], lastSeq: 0, reload: false })),
    onEvent: (event) => applied.push(event.seq),
    onResyncRequired: vi.fn(),
    onTokenInvalid: vi.fn(),
    refreshToken: vi.fn(async () => true),
    ...overrides,
  };
  const client = createRealtimeClient(deps);
  client.connect();
  return { client, deps, applied, socket: () => socket };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('realtime client', () => {
  it('authenticates with the token and the required transports', () => {
    const { socket } = setup();
    let auth: unknown;
    socket().options.auth((data) => (auth = data));
    expect(auth).toEqual({ token: 'jwt' });
    expect(socket().options.transports).toEqual(['websocket', 'polling']);
    expect(socket().options.reconnection).toBe(true);
  });

  it('emits <tenantId>:setUserActive on every connect', () => {
    const { socket } = setup();
    socket().receive('connect');
    expect(socket().emitted).toContainEqual(['5:setUserActive']);
  });

  it('reports the app going idle and active (user:presence), only while connected and only on change', () => {
    const { client, socket } = setup();
    const presences = () => socket().emitted.filter(([name]) => name === 'user:presence');
    client.setPresence('away');
    expect(presences()).toEqual([]);
    // Connecting while idle: the idle state goes first, so the user never shows online meanwhile.
    socket().receive('connect');
    expect(socket().emitted).toEqual([['user:presence', { presence: 'away' }], ['5:setUserActive']]);
    client.setPresence('away');
    client.setPresence('online');
    expect(presences()).toEqual([['user:presence', { presence: 'away' }], ['user:presence', { presence: 'online' }]]);
    socket().receive('disconnect', 'transport close');
    client.setPresence('away');
    expect(presences()).toHaveLength(2);
    socket().receive('connect');
    expect(presences()).toHaveLength(3);
    expect(socket().emitted.at(-2)).toEqual(['user:presence', { presence: 'away' }]);
    // Active again before a reconnect: nothing to report but the announcement.
    client.setPresence('online');
    socket().receive('disconnect', 'transport close');
    socket().receive('connect');
    expect(socket().emitted.at(-1)).toEqual(['5:setUserActive']);
    expect(presences()).toHaveLength(4);
  });

  it('applies live events once, in seq order', () => {
    const { socket, applied } = setup();
    socket().receive('connect');
    socket().receive('event', envelope(1));
    socket().receive('event', envelope(2));
    socket().receive('event', envelope(2));
    socket().receive('event', { nonsense: true });
    expect(applied).toEqual([1, 2]);
  });

  it('replays missed events after a reconnect, before held-back live ones', async () => {
    let release!: (value: SyncResponse) => void;
    const fetchSince = vi.fn(() => new Promise<SyncResponse>((resolve) => (release = resolve)));
    const { socket, applied, client } = setup({ fetchSince });
    socket().receive('connect');
    socket().receive('event', envelope(3));
    socket().receive('disconnect', 'transport close');
    socket().receive('connect');
    expect(fetchSince).toHaveBeenCalledWith(3);
    socket().receive('event', envelope(7)); // arrives live while the replay is running
    release({ events: [envelope(5), envelope(4), envelope(6)], lastSeq: 6, reload: false });
    await flush();
    expect(applied).toEqual([3, 4, 5, 6, 7]);
    expect(client.lastSeq()).toBe(7);
  });

  it('refetches when the server says reload, or when no seq was ever seen', async () => {
    const fetchSince = vi.fn(async () => ({ events: [], lastSeq: 900, reload: true }));
    const first = setup({ fetchSince });
    first.socket().receive('connect');
    first.socket().receive('connect');
    expect(first.deps.onResyncRequired).toHaveBeenCalledTimes(1);
    expect(fetchSince).not.toHaveBeenCalled();

    const second = setup({ fetchSince });
    second.socket().receive('connect');
    second.socket().receive('event', envelope(10));
    second.socket().receive('connect');
    await flush();
    expect(second.deps.onResyncRequired).toHaveBeenCalledTimes(1);
    expect(second.client.lastSeq()).toBe(900);
  });

  it('reconnects after a server-initiated disconnect', () => {
    const { socket } = setup();
    socket().receive('disconnect', 'io server disconnect');
    expect(socket().connects).toBe(1);
    socket().receive('disconnect', 'transport close'); // the library retries this one itself
    expect(socket().connects).toBe(1);
  });

  it('logs out on tokenInvalid and does not reconnect afterwards', () => {
    const { socket, deps } = setup();
    socket().receive('tokenInvalid', { error: 'ERR_INVALID_TOKEN', message: 'Token inválido.' });
    socket().receive('disconnect', 'io server disconnect');
    expect(deps.onTokenInvalid).toHaveBeenCalledTimes(1);
    expect(deps.onTokenInvalid).toHaveBeenCalledWith('ERR_INVALID_TOKEN');
    expect(socket().connects).toBe(0);
  });

  it('renews an expired token announced by tokenInvalid and connects again', async () => {
    const { socket, deps } = setup();
    socket().receive('connect');
    socket().receive('tokenInvalid', { error: 'ERR_SESSION_EXPIRED' });
    socket().receive('disconnect', 'io server disconnect'); // no reconnect with the old token
    expect(socket().connects).toBe(0);
    await flush();
    expect(deps.refreshToken).toHaveBeenCalledTimes(1);
    expect(socket().connects).toBe(1);
    expect(deps.onTokenInvalid).not.toHaveBeenCalled();
  });

  it('logs out when the expired token cannot be renewed', async () => {
    const { socket, deps } = setup({ refreshToken: vi.fn(async () => false) });
    socket().receive('tokenInvalid', { error: 'ERR_SESSION_EXPIRED' });
    await flush();
    expect(deps.onTokenInvalid).toHaveBeenCalledTimes(1);
  });

  it('treats a refused handshake as an invalid token', () => {
    const { socket, deps } = setup();
    socket().receive(
      'connect_error',
      Object.assign(new Error('ERR_INVALID_TOKEN'), { data: { error: 'ERR_INVALID_TOKEN', event: 'tokenInvalid' } }),
    );
    expect(deps.onTokenInvalid).toHaveBeenCalledTimes(1);
  });

  it('refreshes an expired token at handshake and connects again', async () => {
    const { socket, deps } = setup();
    socket().receive('connect_error', Object.assign(new Error('x'), { data: { error: 'ERR_SESSION_EXPIRED' } }));
    await flush();
    expect(deps.refreshToken).toHaveBeenCalled();
    expect(socket().connects).toBe(1);
    expect(deps.onTokenInvalid).not.toHaveBeenCalled();
  });

  it('does not reconnect after the client closed it', () => {
    const { socket, client } = setup();
    const s = socket();
    client.disconnect();
    s.receive('disconnect', 'io server disconnect');
    expect(s.connects).toBe(0);
    expect(s.disconnects).toBe(1);
  });
});

describe('connection and envelope hooks (the offline banner, the desktop cache)', () => {
  it('reports connect, disconnect and handshake failures, and hands every envelope over as received', () => {
    const changes: boolean[] = [];
    const envelopes: number[] = [];
    const { socket, applied } = setup({ onConnectionChange: (c) => changes.push(c), onEnvelope: (e) => envelopes.push(e.seq) });
    socket().receive('connect');
    socket().receive('event', envelope(1));
    socket().receive('event', envelope(1)); // a duplicate: applied once, handed over as received
    socket().receive('event', { not: 'an envelope' });
    socket().receive('disconnect', 'transport close');
    socket().receive('connect_error', new Error('offline'));
    expect(changes).toEqual([true, false, false]);
    expect(envelopes).toEqual([1, 1]);
    expect(applied).toEqual([1]);
  });
});

describe('volatile events and client emits (the internal chat typing indicator)', () => {
  it('hands the volatile events over by name, and emits only while connected', () => {
    const heard: [string, unknown][] = [];
    const { socket, client, applied } = setup({ volatile: { names: ['chat:typing'], handle: (name, payload) => heard.push([name, payload]) } });
    expect(client.emit('chat:typing', { kind: 'user', id: 3 })).toBe(false);
    socket().receive('connect');
    socket().receive('chat:typing', { kind: 'user', id: 3, userId: 3, userName: 'Ana' });
    expect(heard).toEqual([['chat:typing', { kind: 'user', id: 3, userId: 3, userName: 'Ana' }]]);
    // Outside the seq stream: nothing applied as a domain event.
    expect(applied).toEqual([]);
    expect(client.emit('chat:typing', { kind: 'user', id: 3 })).toBe(true);
    expect(socket().emitted).toContainEqual(['chat:typing', { kind: 'user', id: 3 }]);
    socket().receive('disconnect', 'transport close');
    expect(client.emit('chat:typing', { kind: 'user', id: 3 })).toBe(false);
  });
});
