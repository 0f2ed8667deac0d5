/**
 * The contract between the Electron main process, the preload bridge and the renderer.
 *
 * The renderer sees exactly one object, `window.desktop` (absent in the web app). Every IPC
 * channel it can cause traffic on is listed in DESKTOP_IPC below; the preload only ever uses these
 * constants, so there is no generic `send(channel)` to abuse (Mattermost / Element desktop).
 * This file is imported by main, preload and renderer: it must stay free of Node and DOM APIs.
 */
import type { ContactDto } from './schemas/contacts';
import type { MessageDto } from './schemas/messages';
import type { OutboxEntry, OutboxItem, OutboxState } from './schemas/outbox';
import type { TicketDto, TicketStatus } from './schemas/tickets';

/** Renderer -> main requests (ipcRenderer.invoke / ipcMain.handle). */
export const DESKTOP_INVOKE_CHANNELS = {
  showNotification: 'desktop:notification:show',
  setBadgeCount: 'desktop:badge:set',
  getRefreshToken: 'desktop:refresh-token:get',
  setRefreshToken: 'desktop:refresh-token:set',
  clearRefreshToken: 'desktop:refresh-token:clear',
  accountBegin: 'desktop:account:begin',
  accountToken: 'desktop:account:token',
  accountEnd: 'desktop:account:end',
  cacheTickets: 'desktop:cache:tickets',
  cacheThread: 'desktop:cache:thread',
  cacheSearch: 'desktop:cache:search',
  syncStatus: 'desktop:sync:status',
  syncNow: 'desktop:sync:now',
  syncEnvelope: 'desktop:sync:envelope',
  syncOlder: 'desktop:sync:older',
  outboxEnqueue: 'desktop:outbox:enqueue',
  outboxList: 'desktop:outbox:list',
  outboxDiscard: 'desktop:outbox:discard',
  outboxRetry: 'desktop:outbox:retry',
  mediaGet: 'desktop:media:get',
  mediaUsage: 'desktop:media:usage',
  mediaSetBudget: 'desktop:media:set-budget',
} as const;

/** Main -> renderer pushes (webContents.send / ipcRenderer.on). */
export const DESKTOP_EVENT_CHANNELS = {
  deepLink: 'desktop:deep-link',
  notificationClick: 'desktop:notification:click',
  syncStatus: 'desktop:sync:status-changed',
  outboxChange: 'desktop:outbox:changed',
  cachePurged: 'desktop:cache:purged',
} as const;

/**
 * Renderer -> main one-way signal: "a listener for this event now exists". Main holds deep links
 * and notification clicks that arrive before the React app subscribed (cold start from a link).
 */
export const DESKTOP_LISTENING_CHANNEL = 'desktop:renderer:listening' as const;

export const DESKTOP_IPC = {
  invoke: DESKTOP_INVOKE_CHANNELS,
  events: DESKTOP_EVENT_CHANNELS,
  listening: DESKTOP_LISTENING_CHANNEL,
} as const;

export type DesktopInvokeChannel = (typeof DESKTOP_INVOKE_CHANNELS)[keyof typeof DESKTOP_INVOKE_CHANNELS];
export type DesktopEventChannel = (typeof DESKTOP_EVENT_CHANNELS)[keyof typeof DESKTOP_EVENT_CHANNELS];
export type DesktopEventName = keyof typeof DESKTOP_EVENT_CHANNELS;

export const DESKTOP_EVENT_NAMES = Object.keys(DESKTOP_EVENT_CHANNELS) as DesktopEventName[];

/** Limits enforced by main on every request; exported so the renderer can respect them up front. */
export const DESKTOP_LIMITS = {
  notificationTitleMax: 120,
  notificationBodyMax: 1000,
  badgeCountMax: 9999,
  refreshTokenMax: 4096,
  accessTokenMax: 8192,
  cacheSearchTextMax: 200,
  deepLinkMax: 2048,
  /** The media cache's budget the agent may choose (10 MB to 10 GB). */
  mediaBudgetMinBytes: 10 * 1024 * 1024,
  mediaBudgetMaxBytes: 10 * 1024 * 1024 * 1024,
} as const;

/** The deep-link scheme registered with the operating system (`atende://tickets/42`). */
export const DEEP_LINK_SCHEME = 'atende';

/**
 * Values the main process hands to the sandboxed preload as command-line switches
 * (webPreferences.additionalArguments): a sandboxed preload cannot read package.json or the
 * configuration, and a synchronous IPC round trip would block the renderer at startup.
 */
export const DESKTOP_ARGUMENTS = {
  appVersion: '--atende-app-version=',
  apiBaseUrl: '--atende-api-base-url=',
} as const;

export type DesktopArgumentName = keyof typeof DESKTOP_ARGUMENTS;

export function formatDesktopArgument(name: DesktopArgumentName, value: string): string {
  return `${DESKTOP_ARGUMENTS[name]}${value}`;
}

/** Returns the switch's value, or '' when it is missing. */
export function readDesktopArgument(argv: readonly string[], name: DesktopArgumentName): string {
  const prefix = DESKTOP_ARGUMENTS[name];
  const found = argv.find((arg) => arg.startsWith(prefix));
  return found ? found.slice(prefix.length) : '';
}

export type DesktopPlatform = 'darwin' | 'win32' | 'linux';

export interface DesktopNotificationRequest {
  title: string;
  body: string;
  /** When set, clicking the notification reports this ticket through onNotificationClick. */
  ticketId?: number;
  /**
   * An internal-chat conversation (issue #18): clicking the notification opens it, delivered as
   * the deep link `/chat-privado?kind=&id=` through onDeepLink.
   */
  chat?: { kind: 'user' | 'team'; id: number };
}

export interface NotificationClick {
  ticketId: number;
}

/** A validated `atende://` link: the renderer maps `path` to one of its hash routes. */
export interface DeepLink {
  /** Always starts with `/`, e.g. `/tickets/42`. */
  path: string;
  query: Record<string, string>;
}

export type Unsubscribe = () => void;

// ---------- the local cache (issue #15): read shapes answered by main ----------

/** Position after the last ticket of a page (the console's order: activity, then id). */
export interface TicketCursor {
  lastMessageAtMs: number;
  id: number;
}

export interface TicketListOptions {
  /** One status or several; the console's default (open and pending) when omitted. */
  status?: TicketStatus | readonly TicketStatus[];
  limit?: number;
  /** `nextBefore` of the previous page. */
  before?: TicketCursor | null;
}

export interface TicketListPage {
  tickets: TicketDto[];
  hasMore: boolean;
  nextBefore: TicketCursor | null;
}

export interface ThreadPageOptions {
  limit?: number;
  /** Messages older than this id (`nextBefore` of the previous page). */
  beforeId?: number | null;
}

/** Newest message first, as GET /messages/{ticketId} answers. */
export interface ThreadPage {
  messages: MessageDto[];
  hasMore: boolean;
  nextBefore: number | null;
}

export interface CacheSearchResult {
  /** Newest first. */
  messages: MessageDto[];
  /** Best match first. */
  contacts: ContactDto[];
}

export type DesktopSyncState = 'idle' | 'syncing' | 'offline' | 'error';

/** The local cache's sync, for the console's banner (offline, catching up, current). */
export interface DesktopSyncStatus {
  state: DesktopSyncState;
  lastSeq: number | null;
  /** When the cache was last known to be current (ISO). */
  lastSyncedAt: string | null;
  /** Why the last run failed (offline or error). */
  error: { code: string; message: string; httpStatus: number | null } | null;
  /** When the next automatic try is due (offline or error). */
  nextRetryAt: string | null;
}

export type DesktopOutboxChange = { type: 'enqueued' | 'updated'; item: OutboxItem } | { type: 'discarded'; clientId: string };

/**
 * The server purged the open account's local cache (`desktop:purge`, issue #15): main emptied
 * it, the outbox included, and is syncing it again from a new snapshot. For the console's notice.
 */
export interface DesktopCachePurge {
  /** 'self': the agent asked for it (from another window or device); 'admin': a supervisor or administrator. */
  reason: 'self' | 'admin';
  /** Actions taken offline that the server never got, lost with the cache. */
  lostOutboxItems: number;
}

/** The account whose local cache main opened: the one the server confirmed for the token. */
export interface DesktopAccount {
  tenantId: number;
  userId: number;
  /** False when opened offline: the last account the server confirmed here, not re-checked yet. */
  verified: boolean;
}

/**
 * The local cache, read from the main process (no SQL crosses the bridge). `begin` resolves null
 * when this system has no secure storage for the cache key: the console then runs online only.
 */
export interface DesktopCacheApi {
  begin(accessToken: string): Promise<DesktopAccount | null>;
  setAccessToken(accessToken: string): Promise<void>;
  /** `wipe: true` on logout (the cache goes); false when the window closes. */
  end(options: { wipe: boolean }): Promise<void>;
  tickets(options?: TicketListOptions): Promise<TicketListPage>;
  thread(ticketId: number, options?: ThreadPageOptions): Promise<ThreadPage>;
  search(text: string, limit?: number): Promise<CacheSearchResult>;
  /** The server purged the cache (it is refilled from a new snapshot): show the agent a notice. */
  onPurged(listener: (purge: DesktopCachePurge) => void): Unsubscribe;
}

/** The cache's sync (main runs it; the renderer owns the socket and hands its events over). */
export interface DesktopSyncApi {
  /** Null while no account is open. */
  status(): Promise<DesktopSyncStatus | null>;
  /** The socket (re)connected or the network came back: sync now and deliver the outbox. */
  online(): Promise<DesktopSyncStatus | null>;
  /** A socket `event` envelope ({seq, tenantId, name, payload, createdAt}), as received. */
  envelope(envelope: unknown): Promise<void>;
  /** Caches the page of a thread below what the cache holds (older history on demand). */
  loadOlder(ticketId: number): Promise<{ added: number; complete: boolean }>;
  onStatus(listener: (status: DesktopSyncStatus) => void): Unsubscribe;
}

/** What the agent did offline, delivered in order when the connection is back. */
export interface DesktopOutboxApi {
  /** Answers the client id (a send's clientId on the server too). */
  enqueue(entry: OutboxEntry): Promise<string>;
  list(filter?: { states?: OutboxState[]; ticketId?: number }): Promise<OutboxItem[]>;
  /** The agent gives up on a conflict or failure. */
  discard(clientId: string): Promise<boolean>;
  /** Puts a conflict or failure back in the queue. */
  retry(clientId: string): Promise<boolean>;
  onChange(listener: (change: DesktopOutboxChange) => void): Unsubscribe;
}

/** A message's file as the media cache answers it. */
export interface DesktopMediaFile {
  mimeType: string;
  bytes: Uint8Array;
}

export interface DesktopMediaUsage {
  bytes: number;
  items: number;
  budgetBytes: number;
}

/**
 * The files of messages (GET /messages/media/{id}), kept in the encrypted cache within a size
 * budget so they show offline. `get` rejects with `ERR_DESKTOP_MEDIA_OFFLINE` (not cached, no
 * network), `ERR_DESKTOP_MEDIA_NOT_FOUND` (the server's 404), `ERR_DESKTOP_MEDIA_UNAUTHORIZED`,
 * `ERR_DESKTOP_MEDIA_FAILED`, or `ERR_DESKTOP_NO_ACCOUNT`.
 */
export interface DesktopMediaApi {
  get(messageId: number): Promise<DesktopMediaFile>;
  usage(): Promise<DesktopMediaUsage>;
  /** Between DESKTOP_LIMITS.mediaBudgetMinBytes and mediaBudgetMaxBytes; evicts at once. */
  setBudget(bytes: number): Promise<DesktopMediaUsage>;
}

export interface DesktopApi {
  readonly appVersion: string;
  readonly platform: DesktopPlatform;
  /**
   * Origin of the server this console talks to (`https://app.example.com`, no trailing slash).
   * The renderer uses it for REST and Socket.IO; it is exactly the origin main allows in the
   * Content-Security-Policy, so any other address would be blocked by the policy anyway.
   */
  readonly apiBaseUrl: string;
  /** Shows a native notification; rejects when main refuses the input (empty title, too long...). */
  notify(request: DesktopNotificationRequest): Promise<void>;
  /** Dock / launcher badge; main clamps to 0..DESKTOP_LIMITS.badgeCountMax. */
  setBadgeCount(count: number): Promise<void>;
  onDeepLink(listener: (link: DeepLink) => void): Unsubscribe;
  onNotificationClick(listener: (click: NotificationClick) => void): Unsubscribe;
  /**
   * The refresh token, encrypted at rest with the OS keychain (Electron safeStorage). `set`
   * resolves false when no secure store exists on this machine: the token is then not persisted
   * and the agent signs in again at next start, rather than the token being written in clear.
   */
  readonly refreshToken: {
    get(): Promise<string | null>;
    set(token: string): Promise<boolean>;
    clear(): Promise<void>;
  };
  readonly cache: DesktopCacheApi;
  readonly sync: DesktopSyncApi;
  readonly outbox: DesktopOutboxApi;
  readonly media: DesktopMediaApi;
}

declare global {
  interface Window {
    /** Present only inside the desktop app; the web app runs without it. */
    desktop?: DesktopApi;
  }
}
