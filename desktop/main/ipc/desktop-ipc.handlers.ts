import {
  DESKTOP_INVOKE_CHANNELS,
  DESKTOP_LISTENING_CHANNEL,
  type DesktopEventName,
  type DesktopNotificationRequest,
} from '@shared/desktop-api';
import { AccountSessionError, type AccountSession } from '../account/account-session';
import type { AccountServices } from '../account/account-services';
import { CacheKeyUnavailableError } from '../cache/cache-key';
import { MediaCacheError } from '../media/media-cache';
import { OutboxEntryError } from '../outbox/outbox-items';
import { isOneOfOrigins } from '../security/origin.matcher';
import type { SecureTokenStore } from '../tokens/secure-token.store';
import {
  clampBadgeCount,
  parseAccessToken,
  parseAccountEnd,
  parseClientId,
  parseOutboxFilter,
  parseListeningEvent,
  parseMediaBudget,
  parseMediaMessageId,
  parseNotificationRequest,
  parseRefreshToken,
  parseSearchRequest,
  parseThreadRequest,
  parseTicketListOptions,
  type Parsed,
} from './desktop-ipc.validation';

/** The parts of Electron's IpcMainInvokeEvent / IpcMainEvent these handlers look at. */
export interface IpcSenderFrameLike {
  url: string;
  parent: unknown;
}
export interface IpcEventLike {
  senderFrame: IpcSenderFrameLike | null;
}

/** The parts of Electron's ipcMain used here, so tests can pass a fake. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: any, ...args: any[]) => unknown): void;
  removeHandler(channel: string): void;
  on(channel: string, listener: (event: any, ...args: any[]) => void): unknown;
  removeListener(channel: string, listener: (...args: any[]) => void): unknown;
}

export class DesktopIpcError extends Error {
  override name = 'DesktopIpcError';
}

/**
 * Only the console's own top-level page may use the bridge. An iframe or a page the window was
 * somehow navigated to would share the preload, so the frame's origin is checked on every call.
 */
export function isTrustedSenderFrame(frame: IpcSenderFrameLike | null | undefined, appOrigins: readonly string[]): boolean {
  if (!frame) return false;
  if (frame.parent !== null && frame.parent !== undefined) return false;
  return isOneOfOrigins(frame.url, appOrigins);
}

export interface DesktopIpcDependencies {
  ipcMain: IpcMainLike;
  appOrigins: () => readonly string[];
  showNotification: (request: DesktopNotificationRequest) => void;
  setBadgeCount: (count: number) => void;
  tokenStore: SecureTokenStore;
  markRendererListening: (name: DesktopEventName) => void;
  /** The local cache's owner (issue #15); absent, the cache channels answer ERR_DESKTOP_NO_ACCOUNT. */
  account?: AccountSession;
  /** The open account's sync and outbox (null while none is open). */
  services?: () => AccountServices | null;
  logger?: { warn: (message: string, meta?: Record<string, unknown>) => void };
  /** The agent chose a media budget: kept for the next start (preferences.json). */
  onMediaBudgetChanged?: (bytes: number) => void;
}

/** Registers every renderer -> main channel; returns a function that removes them again. */
export function registerDesktopIpcHandlers(deps: DesktopIpcDependencies): () => void {
  const assertTrusted = (event: IpcEventLike, channel: string) => {
    if (!isTrustedSenderFrame(event?.senderFrame, deps.appOrigins())) {
      deps.logger?.warn('desktop IPC refused: untrusted sender', { channel, url: event?.senderFrame?.url });
      throw new DesktopIpcError('ERR_DESKTOP_UNTRUSTED_SENDER');
    }
  };

  const valid = <T>(parsed: Parsed<T>): T => {
    if (!parsed.ok) throw new DesktopIpcError(`ERR_DESKTOP_INVALID_INPUT: ${parsed.error}`);
    return parsed.value;
  };
  const account = (): AccountSession => {
    if (!deps.account) throw new DesktopIpcError('ERR_DESKTOP_NO_ACCOUNT: the local cache is not available');
    return deps.account;
  };
  const services = (): AccountServices => {
    const running = deps.services?.();
    if (!running) throw new DesktopIpcError('ERR_DESKTOP_NO_ACCOUNT: no account is open');
    return running;
  };
  const openStore = () => {
    const open = account().current();
    if (!open) throw new DesktopIpcError('ERR_DESKTOP_NO_ACCOUNT: no account is open');
    return open.store;
  };
  // Only the code and its sentence reach the page: no stack, no file path of this machine.
  const bridgeError = (error: unknown): Error => {
    if (error instanceof AccountSessionError) return new DesktopIpcError(error.message);
    deps.logger?.warn('desktop cache failed', { error: error instanceof Error ? error.message : String(error) });
    return new DesktopIpcError('ERR_DESKTOP_CACHE: the local cache failed');
  };

  const handlers: Record<string, (event: IpcEventLike, ...args: unknown[]) => unknown> = {
    [DESKTOP_INVOKE_CHANNELS.showNotification]: (_event, input) => {
      const parsed = parseNotificationRequest(input);
      if (!parsed.ok) throw new DesktopIpcError(`ERR_DESKTOP_INVALID_INPUT: ${parsed.error}`);
      deps.showNotification(parsed.value);
    },
    [DESKTOP_INVOKE_CHANNELS.setBadgeCount]: (_event, input) => {
      deps.setBadgeCount(clampBadgeCount(input));
    },
    [DESKTOP_INVOKE_CHANNELS.getRefreshToken]: () => deps.tokenStore.load(),
    [DESKTOP_INVOKE_CHANNELS.setRefreshToken]: (_event, input) => {
      const parsed = parseRefreshToken(input);
      if (!parsed.ok) throw new DesktopIpcError(`ERR_DESKTOP_INVALID_INPUT: ${parsed.error}`);
      return deps.tokenStore.save(parsed.value);
    },
    [DESKTOP_INVOKE_CHANNELS.clearRefreshToken]: () => deps.tokenStore.clear(),
    [DESKTOP_INVOKE_CHANNELS.accountBegin]: async (_event, input) => {
      const token = valid(parseAccessToken(input));
      try {
        const open = await account().begin(token);
        return { tenantId: open.account.tenantId, userId: open.account.userId, verified: open.verified };
      } catch (error) {
        // No secure storage for the key: the console runs online only, as in the browser.
        if (error instanceof CacheKeyUnavailableError) return null;
        throw bridgeError(error);
      }
    },
    [DESKTOP_INVOKE_CHANNELS.accountToken]: (_event, input) => {
      const token = valid(parseAccessToken(input));
      try {
        account().setAccessToken(token);
      } catch (error) {
        throw bridgeError(error);
      }
      deps.services?.()?.tokenChanged();
    },
    [DESKTOP_INVOKE_CHANNELS.accountEnd]: (_event, input) => account().end(valid(parseAccountEnd(input))),
    [DESKTOP_INVOKE_CHANNELS.cacheTickets]: (_event, input) => openStore().listTickets(valid(parseTicketListOptions(input))),
    [DESKTOP_INVOKE_CHANNELS.cacheThread]: (_event, ticketId, input) => {
      const request = valid(parseThreadRequest(ticketId, input));
      return openStore().threadPage(request.ticketId, request.options);
    },
    [DESKTOP_INVOKE_CHANNELS.cacheSearch]: (_event, text, limit) => {
      const request = valid(parseSearchRequest(text, limit));
      return openStore().search(request.text, request.limit);
    },
    [DESKTOP_INVOKE_CHANNELS.syncStatus]: () => deps.services?.()?.sync.status() ?? null,
    [DESKTOP_INVOKE_CHANNELS.syncNow]: () => {
      const running = deps.services?.();
      if (!running) return null;
      running.online();
      return running.sync.status();
    },
    // The engine checks each envelope (shape, tenant, seq) and ignores what does not fit.
    [DESKTOP_INVOKE_CHANNELS.syncEnvelope]: (_event, envelope) => deps.services?.()?.sync.onEnvelope(envelope),
    [DESKTOP_INVOKE_CHANNELS.syncOlder]: (_event, ticketId) => {
      const request = valid(parseThreadRequest(ticketId, undefined));
      return services().sync.loadOlder(request.ticketId);
    },
    [DESKTOP_INVOKE_CHANNELS.outboxEnqueue]: (_event, entry) => {
      try {
        return services().outbox.enqueue(entry);
      } catch (error) {
        if (error instanceof OutboxEntryError) throw new DesktopIpcError(`ERR_DESKTOP_INVALID_INPUT: ${error.message}`);
        throw error;
      }
    },
    [DESKTOP_INVOKE_CHANNELS.outboxList]: (_event, filter) => services().outbox.list(valid(parseOutboxFilter(filter))),
    [DESKTOP_INVOKE_CHANNELS.outboxDiscard]: (_event, clientId) => services().outbox.discard(valid(parseClientId(clientId))),
    [DESKTOP_INVOKE_CHANNELS.outboxRetry]: (_event, clientId) => services().outbox.retry(valid(parseClientId(clientId))),
    [DESKTOP_INVOKE_CHANNELS.mediaGet]: async (_event, messageId) => {
      const id = valid(parseMediaMessageId(messageId));
      try {
        const file = await services().media.get(id);
        return { mimeType: file.mimeType, bytes: file.bytes };
      } catch (error) {
        // Its code and sentence (offline, the server's 404...) are the page's to show.
        if (error instanceof MediaCacheError || error instanceof DesktopIpcError) throw new DesktopIpcError(error.message);
        throw bridgeError(error);
      }
    },
    [DESKTOP_INVOKE_CHANNELS.mediaUsage]: () => services().media.usage(),
    [DESKTOP_INVOKE_CHANNELS.mediaSetBudget]: (_event, bytes) => {
      const budget = valid(parseMediaBudget(bytes));
      const usage = services().media.setBudget(budget);
      deps.onMediaBudgetChanged?.(budget);
      return usage;
    },
  };

  for (const [channel, handler] of Object.entries(handlers)) {
    deps.ipcMain.handle(channel, async (event: IpcEventLike, ...args: unknown[]) => {
      assertTrusted(event, channel);
      return handler(event, ...args);
    });
  }

  const onListening = (event: IpcEventLike, input: unknown) => {
    if (!isTrustedSenderFrame(event?.senderFrame, deps.appOrigins())) return;
    const name = parseListeningEvent(input);
    if (name) deps.markRendererListening(name);
  };
  deps.ipcMain.on(DESKTOP_LISTENING_CHANNEL, onListening);

  return () => {
    for (const channel of Object.keys(handlers)) deps.ipcMain.removeHandler(channel);
    deps.ipcMain.removeListener(DESKTOP_LISTENING_CHANNEL, onListening);
  };
}
