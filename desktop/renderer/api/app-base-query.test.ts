import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The HTTP session rules of spec sections 4 and 7 through the real base query and store, with
 * the network replaced by a scripted fetch: 403 ERR_SESSION_EXPIRED refreshes once and retries,
 * concurrent expiries share one refresh, 401 clears the session and goes to login after 2 s
 * (not during logout), 500 shows the message, other failures show the mapped warning.
 */
const toasts = vi.hoisted(() => [] as { message: string; intent: string; link?: { text: string; href: string } }[]);
vi.mock('../app/feedback/toaster', () => ({
  showToast: (message: string, intent: string, link?: { text: string; href: string }) =>
    toasts.push(link ? { message, intent, link } : { message, intent }),
  clearToasts: () => undefined,
}));

// The module under test reads localStorage and location when it loads: a desktop page (file:)
// talking to an explicit server address.
const memory = vi.hoisted(() => {
  const values = new Map<string, string>();
  const storage = {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, String(value)),
    removeItem: (key: string) => void values.delete(key),
    clear: () => values.clear(),
  };
  globalThis.localStorage = storage as unknown as Storage;
  globalThis.location = { protocol: 'file:', origin: 'file://' } as Location;
  return { values, storage };
});

const { usersApi } = await import('./users.api');
const { createAppStore } = await import('../app/store');
const { configureSessionController, endSession } = await import('../app/session/session-controller');
const { createI18n } = await import('../i18n/i18n');
const { setAppI18n } = await import('../i18n/i18n-instance');

const API = 'http://api.test';
type Scripted = (url: string, init: { method: string; headers: Headers; body?: string }) => { status: number; body?: unknown };

let script: Scripted;
const calls: { url: string; method: string; authorization: string | null; body?: string }[] = [];
const navigate = vi.fn();

beforeAll(async () => {
  setAppI18n(await createI18n('pt-br'));
});

beforeEach(() => {
  memory.storage.clear();
  memory.storage.setItem('apiBaseUrl', API);
  memory.storage.setItem('token', 'old-token');
  memory.storage.setItem('username', 'Ana');
  memory.storage.setItem('profile', 'admin');
  memory.storage.setItem('userId', '7');
  memory.storage.setItem('usuario', JSON.stringify({ userId: 7, tenantId: 1, profile: 'admin', username: 'Ana' }));
  calls.length = 0;
  toasts.length = 0;
  navigate.mockReset();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request | string, init?: RequestInit) => {
      const request = typeof input === 'string' ? new Request(input, init) : input;
      const body = request.method === 'GET' ? undefined : await request.clone().text();
      const headers = new Headers(request.headers);
      calls.push({ url: request.url, method: request.method, authorization: headers.get('authorization'), body });
      const answer = script(request.url, { method: request.method, headers, body });
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup() {
  const store = createAppStore();
  configureSessionController({
    dispatch: store.dispatch,
    navigate,
    disconnectRealtime: () => undefined,
    resetApiCache: () => undefined,
  });
  const getUser = (id: number) => store.dispatch(usersApi.endpoints.getUser.initiate(id, { forceRefetch: true }));
  return { store, getUser };
}

const expired = { status: 403, body: { error: 'ERR_SESSION_EXPIRED', message: 'A sessão expirou' } };

describe('app base query', () => {
  it('sends the bearer token from storage to the configured server', async () => {
    script = () => ({ status: 200, body: { id: 7, name: 'Ana', profile: 'admin' } });
    const { getUser } = setup();
    const result = await getUser(7);
    expect(result.data).toMatchObject({ id: 7 });
    expect(calls).toEqual([{ url: `${API}/users/7`, method: 'GET', authorization: 'Bearer old-token', body: undefined }]);
  });

  it('on 403 ERR_SESSION_EXPIRED refreshes once, stores the token and retries once', async () => {
    script = (url, init) => {
      if (url.endsWith('/auth/refresh_token')) return { status: 200, body: { token: 'new-token', refreshToken: 'r2' } };
      return init.headers.get('authorization') === 'Bearer new-token'
        ? { status: 200, body: { id: Number(url.split('/').pop()) } }
        : expired;
    };
    const { getUser, store } = setup();
    const [a, b] = await Promise.all([getUser(7), getUser(8)]);
    expect(a.data).toEqual({ id: 7 });
    expect(b.data).toEqual({ id: 8 });
    expect(calls.filter((c) => c.url.endsWith('/auth/refresh_token'))).toHaveLength(1);
    expect(memory.storage.getItem('token')).toBe('new-token');
    expect(store.getState().session.token).toBe('new-token');
    // The web keeps the refresh token in its httpOnly cookie, not in localStorage.
    expect(memory.storage.getItem('refreshToken')).toBeNull();
  });

  it('reuses a token another tab renewed meanwhile instead of spending the refresh token', async () => {
    script = (url, init) => {
      if (url.endsWith('/auth/refresh_token')) return { status: 500 };
      if (init.headers.get('authorization') === 'Bearer old-token') {
        memory.storage.setItem('token', 'renewed-elsewhere'); // the other tab wins the race
        return expired;
      }
      return { status: 200, body: { id: 7 } };
    };
    const { getUser } = setup();
    const result = await getUser(7);
    expect(result.data).toEqual({ id: 7 });
    expect(calls.map((c) => c.authorization)).toEqual(['Bearer old-token', 'Bearer renewed-elsewhere']);
  });

  it('sends the stored refresh token (desktop) in the refresh body', async () => {
    memory.storage.setItem('refreshToken', 'stored-refresh');
    script = (url, init) =>
      url.endsWith('/auth/refresh_token')
        ? { status: 200, body: { token: 'new-token' } }
        : init.headers.get('authorization') === 'Bearer new-token'
          ? { status: 200, body: { id: 7 } }
          : expired;
    const { getUser } = setup();
    await getUser(7);
    expect(calls.find((c) => c.url.endsWith('/auth/refresh_token'))?.body).toBe(
      JSON.stringify({ refreshToken: 'stored-refresh' }),
    );
  });

  it('when the refresh is refused: session message, token cleared, login after 2 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    script = (url) => (url.endsWith('/auth/refresh_token') ? { status: 401, body: { error: 'ERR_INVALID_TOKEN' } } : expired);
    const { getUser } = setup();
    await getUser(7);
    expect(toasts).toContainEqual({ message: 'A sessão expirou, você será redirecionado para o login.', intent: 'danger' });
    expect(memory.storage.getItem('token')).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2000);
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('on 401 clears token, username, profile and userId, shows the message and goes to login after 2 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    script = () => ({ status: 401, body: { error: 'ERR_INVALID_TOKEN', message: 'x' } });
    const { getUser, store } = setup();
    await Promise.all([getUser(7), getUser(8)]);
    for (const key of ['token', 'username', 'profile', 'userId']) expect(memory.storage.getItem(key)).toBeNull();
    expect(memory.storage.getItem('usuario')).not.toBeNull();
    expect(store.getState().session.token).toBeNull();
    expect(toasts).toEqual([{ message: 'Token inválido. Redirecionando para a página de login.', intent: 'danger' }]);
    vi.advanceTimersByTime(1999);
    expect(navigate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('does not run the 401 flow during logout', async () => {
    script = () => ({ status: 401, body: { error: 'ERR_INVALID_TOKEN' } });
    const { getUser } = setup();
    await endSession(() => getUser(7));
    expect(toasts).toEqual([]);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('shows other failures as a warning with the mapped text, except for background polls', async () => {
    script = () => ({ status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'x' } });
    const { getUser, store } = setup();
    await store.dispatch(usersApi.endpoints.updateUserConfigs.initiate({ id: 7, configs: { isDark: true } }));
    expect(toasts).toEqual([{ message: 'Você não tem permissão para acessar este recurso.', intent: 'warning' }]);
    await getUser(7); // the profile poll is a background call
    expect(toasts).toHaveLength(1);
  });

  it('gives the no-default-connection warning a button to the connections screen, for profiles that may open it', async () => {
    script = () => ({ status: 404, body: { error: 'ERR_NO_DEF_WAPP_FOUND', message: 'x' } });
    const { store } = setup();
    const save = () => store.dispatch(usersApi.endpoints.updateUserConfigs.initiate({ id: 7, configs: { isDark: true } }));
    await save();
    expect(toasts).toEqual([
      {
        message: 'Nenhuma conexão padrão. Verifique as conexões.',
        intent: 'warning',
        link: { text: 'Abrir conexões', href: '#/sessoes' },
      },
    ]);
    // An agent cannot open /sessoes: the same message, without a button leading to a refusal.
    toasts.length = 0;
    memory.storage.setItem('profile', 'user');
    memory.storage.setItem('usuario', JSON.stringify({ userId: 7, tenantId: 1, profile: 'user', username: 'Ana' }));
    await save();
    expect(toasts).toEqual([{ message: 'Nenhuma conexão padrão. Verifique as conexões.', intent: 'warning' }]);
  });

  it('shows the message of a 500', async () => {
    script = () => ({ status: 500, body: { error: 'ERR_INTERNAL', message: 'Ocorreu um erro não identificado.' } });
    const { getUser } = setup();
    await getUser(7);
    expect(toasts).toEqual([{ message: 'Ocorreu um erro não identificado.', intent: 'danger' }]);
    expect(memory.storage.getItem('token')).toBe('old-token');
  });
});

const { messagesApi } = await import('./messages.api');
(await import('../desktop-offline/account-ready')).markAccountSettled();

describe("the desktop's local cache behind the console's reads (issue #15)", () => {
  const thread = { messages: [{ id: 9, ticketId: 5, body: 'do cache' }], hasMore: false, nextBefore: null };
  const desktopWith = () => {
    const cache = { thread: vi.fn(async () => thread), tickets: vi.fn(), search: vi.fn() };
    vi.stubGlobal('window', { desktop: { cache, sync: { loadOlder: vi.fn() } } });
    return cache;
  };
  const getThread = (store: ReturnType<typeof setup>['store']) =>
    store.dispatch(messagesApi.endpoints.getMessages.initiate({ ticketId: 5, before: null }, { forceRefetch: true }));
  const unreachable = () =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );

  it('no answer from the network: the thread comes from the cache, marked, with no toast', async () => {
    const cache = desktopWith();
    unreachable();
    const { store } = setup();
    const result = await getThread(store);
    expect(result.data).toEqual({ ...thread, fromCache: true });
    expect(cache.thread).toHaveBeenCalledWith(5, { beforeId: null });
    expect(toasts).toEqual([]);
  });

  it('the browser offline: the cache answers without trying the network', async () => {
    desktopWith();
    vi.stubGlobal('navigator', { onLine: false });
    script = () => ({ status: 200, body: { messages: [], hasMore: false, nextBefore: null } });
    const { store } = setup();
    expect((await getThread(store)).data).toMatchObject({ fromCache: true });
    expect(calls).toEqual([]);
  });

  it('a server answer (even an error) is not replaced by the cache', async () => {
    const cache = desktopWith();
    script = () => ({ status: 404, body: { error: 'ERR_NO_TICKET_FOUND', message: 'x' } });
    const { store } = setup();
    expect((await getThread(store)).error).toMatchObject({ status: 404 });
    expect(cache.thread).not.toHaveBeenCalled();
  });

  it('the web app (no window.desktop) keeps the network error', async () => {
    unreachable();
    const { store } = setup();
    expect((await getThread(store)).error).toMatchObject({ status: 'FETCH_ERROR' });
    expect(toasts).toHaveLength(1);
  });
});
