import type { OutboxItem } from '@shared/schemas/outbox';
import {
  DESKTOP_EVENT_CHANNELS,
  DESKTOP_INVOKE_CHANNELS,
  DESKTOP_LISTENING_CHANNEL,
  type CacheSearchResult,
  type DeepLink,
  type DesktopAccount,
  type DesktopApi,
  type DesktopCachePurge,
  type DesktopEventName,
  type DesktopMediaFile,
  type DesktopMediaUsage,
  type DesktopNotificationRequest,
  type DesktopOutboxChange,
  type DesktopSyncStatus,
  type DesktopPlatform,
  type NotificationClick,
  type ThreadPage,
  type TicketListPage,
  type Unsubscribe,
  readDesktopArgument,
} from '@shared/desktop-api';

/** The parts of Electron's ipcRenderer the bridge uses, so tests can pass a fake. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface DesktopApiInput {
  ipcRenderer: IpcRendererLike;
  appVersion: string;
  platform: string;
  apiBaseUrl: string;
}

const PLATFORMS: readonly DesktopPlatform[] = ['darwin', 'win32', 'linux'];

function toPlatform(value: string): DesktopPlatform {
  // Electron ships for these three only; anything else would be a build we do not support.
  return (PLATFORMS as readonly string[]).includes(value) ? (value as DesktopPlatform) : 'linux';
}

function isDeepLink(value: unknown): value is DeepLink {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<DeepLink>;
  return typeof candidate.path === 'string' && typeof candidate.query === 'object' && candidate.query !== null;
}

function isNotificationClick(value: unknown): value is NotificationClick {
  return typeof value === 'object' && value !== null && Number.isSafeInteger((value as NotificationClick).ticketId);
}

function isSyncStatus(value: unknown): value is DesktopSyncStatus {
  return typeof value === 'object' && value !== null && typeof (value as DesktopSyncStatus).state === 'string';
}

function isOutboxChange(value: unknown): value is DesktopOutboxChange {
  const type = (value as DesktopOutboxChange | null)?.type;
  return typeof value === 'object' && value !== null && (type === 'enqueued' || type === 'updated' || type === 'discarded');
}

function isCachePurge(value: unknown): value is DesktopCachePurge {
  const purge = value as DesktopCachePurge | null;
  return (
    typeof purge === 'object' &&
    purge !== null &&
    (purge.reason === 'self' || purge.reason === 'admin') &&
    Number.isSafeInteger(purge.lostOutboxItems) &&
    purge.lostOutboxItems >= 0
  );
}

/**
 * Reads the switches main passed through additionalArguments. They are checked again here because
 * the page can read them too and they end up in UI text and request URLs.
 */
export function readBridgeArguments(argv: readonly string[]): { appVersion: string; apiBaseUrl: string } {
  const version = readDesktopArgument(argv, 'appVersion');
  const origin = readDesktopArgument(argv, 'apiBaseUrl');
  return {
    appVersion: /^[0-9A-Za-z.+-]{1,64}$/.test(version) ? version : 'unknown',
    apiBaseUrl: /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:]+\](?::\d{1,5})?$/.test(origin) ? origin : '',
  };
}

/**
 * Builds `window.desktop`. Each method maps to one named channel of shared/desktop-api.ts: there
 * is no way for page code to pick a channel, and the raw IpcRendererEvent (which carries a sender
 * reference) never reaches the page - listeners get only the validated payload.
 */
export function createDesktopApi(input: DesktopApiInput): DesktopApi {
  const { ipcRenderer } = input;

  const subscribe = <T>(
    name: DesktopEventName,
    isPayload: (value: unknown) => value is T,
    listener: (payload: T) => void,
  ): Unsubscribe => {
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    const channel = DESKTOP_EVENT_CHANNELS[name];
    const wrapped = (_event: unknown, payload: unknown) => {
      if (isPayload(payload)) listener(payload);
    };
    ipcRenderer.on(channel, wrapped);
    // Tell main someone listens now, so events held since startup are delivered.
    ipcRenderer.send(DESKTOP_LISTENING_CHANNEL, name);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      ipcRenderer.removeListener(channel, wrapped);
    };
  };

  const api: DesktopApi = {
    appVersion: input.appVersion,
    platform: toPlatform(input.platform),
    apiBaseUrl: input.apiBaseUrl,
    async notify(request: DesktopNotificationRequest) {
      // Copy the documented fields only: nothing else of the page's object crosses the bridge.
      await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.showNotification, {
        title: request?.title,
        body: request?.body,
        ticketId: request?.ticketId,
        chat: request?.chat ? { kind: request.chat.kind, id: request.chat.id } : undefined,
      });
    },
    async setBadgeCount(count: number) {
      await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.setBadgeCount, count);
    },
    onDeepLink: (listener) => subscribe('deepLink', isDeepLink, listener),
    onNotificationClick: (listener) => subscribe('notificationClick', isNotificationClick, listener),
    refreshToken: {
      async get() {
        const token = await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.getRefreshToken);
        return typeof token === 'string' ? token : null;
      },
      async set(token: string) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.setRefreshToken, token)) === true;
      },
      async clear() {
        await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.clearRefreshToken);
      },
    },
    // Main validates every argument again; here only the documented fields are copied across.
    cache: {
      async begin(accessToken) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.accountBegin, accessToken)) as DesktopAccount | null;
      },
      async setAccessToken(accessToken) {
        await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.accountToken, accessToken);
      },
      async end(options) {
        await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.accountEnd, { wipe: options?.wipe === true });
      },
      async tickets(options) {
        const query = options ? { status: options.status, limit: options.limit, before: options.before } : undefined;
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.cacheTickets, query)) as TicketListPage;
      },
      async thread(ticketId, options) {
        const query = options ? { limit: options.limit, beforeId: options.beforeId } : undefined;
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.cacheThread, ticketId, query)) as ThreadPage;
      },
      async search(text, limit) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.cacheSearch, text, limit)) as CacheSearchResult;
      },
      onPurged: (listener) => subscribe('cachePurged', isCachePurge, listener),
    },
    sync: {
      async status() {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.syncStatus)) as DesktopSyncStatus | null;
      },
      async online() {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.syncNow)) as DesktopSyncStatus | null;
      },
      async envelope(envelope) {
        await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.syncEnvelope, envelope);
      },
      async loadOlder(ticketId) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.syncOlder, ticketId)) as { added: number; complete: boolean };
      },
      onStatus: (listener) => subscribe('syncStatus', isSyncStatus, listener),
    },
    outbox: {
      async enqueue(entry) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.outboxEnqueue, entry)) as string;
      },
      async list(filter) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.outboxList, filter)) as OutboxItem[];
      },
      async discard(clientId) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.outboxDiscard, clientId)) === true;
      },
      async retry(clientId) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.outboxRetry, clientId)) === true;
      },
      onChange: (listener) => subscribe('outboxChange', isOutboxChange, listener),
    },
    media: {
      async get(messageId) {
        const file = (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.mediaGet, messageId)) as DesktopMediaFile;
        // Electron's structured clone gives a Uint8Array (a Buffer in main); normalise for the page.
        return { mimeType: String(file.mimeType), bytes: file.bytes instanceof Uint8Array ? file.bytes : new Uint8Array(file.bytes) };
      },
      async usage() {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.mediaUsage)) as DesktopMediaUsage;
      },
      async setBudget(bytes) {
        return (await ipcRenderer.invoke(DESKTOP_INVOKE_CHANNELS.mediaSetBudget, bytes)) as DesktopMediaUsage;
      },
    },
  };
  return api;
}
