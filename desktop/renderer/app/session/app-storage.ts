import type { Profile } from '@shared/profiles';
import { isLocale, type Locale } from '@shared/i18n/locales';

/**
 * Everything the browser keeps between visits (spec section 3, "Stored in the browser").
 * The key names are the anchor product's, so a console migrated from it keeps its session.
 * Strings are stored as plain text, everything else as JSON.
 */
export const STORAGE_KEYS = {
  token: 'token',
  refreshToken: 'refreshToken',
  username: 'username',
  profile: 'profile',
  userId: 'userId',
  user: 'usuario',
  queues: 'queues',
  whatsappAllowed: 'whatsappAllowed',
  blockWavoip: 'bloquearWavoip',
  ticketFilters: 'filtrosAtendimento',
  settings: 'configuracoes',
  storedColors: 'storedColors',
  language: 'language',
} as const;

/** The keys a 401 removes (spec section 4); the rest stays for the next login. */
export const KEYS_CLEARED_ON_UNAUTHORIZED = [
  STORAGE_KEYS.token,
  STORAGE_KEYS.username,
  STORAGE_KEYS.profile,
  STORAGE_KEYS.userId,
] as const;

/** Everything tied to the signed-in user; language and white-label colours survive a logout. */
export const KEYS_CLEARED_ON_LOGOUT = [
  STORAGE_KEYS.token,
  STORAGE_KEYS.refreshToken,
  STORAGE_KEYS.username,
  STORAGE_KEYS.profile,
  STORAGE_KEYS.userId,
  STORAGE_KEYS.user,
  STORAGE_KEYS.queues,
  STORAGE_KEYS.whatsappAllowed,
  STORAGE_KEYS.blockWavoip,
  STORAGE_KEYS.ticketFilters,
  STORAGE_KEYS.settings,
] as const;

export interface UserConfigs {
  filtrosAtendimento?: unknown;
  isDark?: boolean;
}

/** POST /auth/login/ answer (spec section 3, "Login response"). */
export interface LoginResponse {
  token: string;
  refreshToken?: string;
  username: string;
  profile: Profile;
  userId: number;
  tenantId: number;
  email: string;
  queues: unknown[];
  blockWavoip: boolean;
  /** The channels the user may use (a list), or a flag on older servers. */
  whatsappAllowed: unknown;
  configs?: UserConfigs;
  /** Present when the server sends the tenant's key/value settings along. */
  configuracoes?: unknown[];
  settings?: unknown[];
}

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function parseJson<T>(raw: string | null): T | null {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** Tolerates a JSON-quoted value, which is how the anchor product stored its token. */
function readPlain(store: KeyValueStore, key: string): string | null {
  const raw = store.getItem(key);
  if (raw === null || raw === '') return null;
  if (raw.startsWith('"') && raw.endsWith('"')) return parseJson<string>(raw);
  return raw;
}

export interface StoredSession {
  token: string;
  username: string | null;
  profile: Profile | null;
  userId: number | null;
  tenantId: number | null;
  email: string | null;
  isDark: boolean;
}

export function createAppStorage(store: KeyValueStore) {
  return {
    readToken: (): string | null => readPlain(store, STORAGE_KEYS.token),
    readRefreshToken: (): string | null => readPlain(store, STORAGE_KEYS.refreshToken),

    readSession(): StoredSession | null {
      const token = readPlain(store, STORAGE_KEYS.token);
      if (!token) return null;
      const user = parseJson<Partial<LoginResponse>>(store.getItem(STORAGE_KEYS.user));
      const userId = Number(readPlain(store, STORAGE_KEYS.userId) ?? user?.userId);
      const profile = (readPlain(store, STORAGE_KEYS.profile) ?? user?.profile ?? null) as Profile | null;
      return {
        token,
        username: readPlain(store, STORAGE_KEYS.username) ?? user?.username ?? null,
        profile,
        userId: Number.isFinite(userId) && userId > 0 ? userId : null,
        tenantId: typeof user?.tenantId === 'number' ? user.tenantId : null,
        email: user?.email ?? null,
        isDark: user?.configs?.isDark === true,
      };
    },

    /** Stores exactly the keys of spec section 3; the refresh token only where no cookie carries it. */
    writeLogin(response: LoginResponse, options: { keepRefreshToken: boolean }): void {
      store.setItem(STORAGE_KEYS.token, response.token);
      store.setItem(STORAGE_KEYS.username, response.username);
      store.setItem(STORAGE_KEYS.profile, response.profile);
      store.setItem(STORAGE_KEYS.userId, String(response.userId));
      store.setItem(STORAGE_KEYS.user, JSON.stringify(response));
      store.setItem(STORAGE_KEYS.queues, JSON.stringify(response.queues ?? []));
      store.setItem(STORAGE_KEYS.whatsappAllowed, JSON.stringify(response.whatsappAllowed ?? null));
      store.setItem(STORAGE_KEYS.blockWavoip, JSON.stringify(Boolean(response.blockWavoip)));
      store.setItem(STORAGE_KEYS.ticketFilters, JSON.stringify(response.configs?.filtrosAtendimento ?? null));
      const settings = response.configuracoes ?? response.settings;
      if (Array.isArray(settings)) store.setItem(STORAGE_KEYS.settings, JSON.stringify(settings));
      if (options.keepRefreshToken && response.refreshToken) store.setItem(STORAGE_KEYS.refreshToken, response.refreshToken);
    },

    writeTokens(token: string, refreshToken: string | undefined, options: { keepRefreshToken: boolean }): void {
      store.setItem(STORAGE_KEYS.token, token);
      if (options.keepRefreshToken && refreshToken) store.setItem(STORAGE_KEYS.refreshToken, refreshToken);
    },

    /** Keeps `usuario` in step with a changed profile, name, queues or configs. */
    patchUser(patch: Partial<LoginResponse>): void {
      const user = parseJson<LoginResponse>(store.getItem(STORAGE_KEYS.user));
      if (!user) return;
      const next = { ...user, ...patch, configs: { ...user.configs, ...patch.configs } };
      store.setItem(STORAGE_KEYS.user, JSON.stringify(next));
      if (patch.profile) store.setItem(STORAGE_KEYS.profile, patch.profile);
      if (patch.username) store.setItem(STORAGE_KEYS.username, patch.username);
      if (patch.queues) store.setItem(STORAGE_KEYS.queues, JSON.stringify(patch.queues));
      if (patch.configs && 'filtrosAtendimento' in patch.configs) {
        store.setItem(STORAGE_KEYS.ticketFilters, JSON.stringify(patch.configs.filtrosAtendimento ?? null));
      }
    },

    clear(keys: readonly string[]): void {
      for (const key of keys) store.removeItem(key);
    },

    readLanguage(): Locale | null {
      const value = readPlain(store, STORAGE_KEYS.language);
      return isLocale(value) ? value : null;
    },
    writeLanguage: (locale: Locale): void => store.setItem(STORAGE_KEYS.language, locale),

    readStoredColors: (): unknown => parseJson(store.getItem(STORAGE_KEYS.storedColors)),
    writeStoredColors: (colors: unknown): void => store.setItem(STORAGE_KEYS.storedColors, JSON.stringify(colors)),
  };
}

export type AppStorage = ReturnType<typeof createAppStorage>;

/** In-memory stand-in when localStorage is unavailable (private mode quirks, unit tests). */
export function createMemoryStore(): KeyValueStore {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, String(value)),
    removeItem: (key) => void values.delete(key),
  };
}

export const appStorage = createAppStorage(typeof localStorage === 'undefined' ? createMemoryStore() : localStorage);
