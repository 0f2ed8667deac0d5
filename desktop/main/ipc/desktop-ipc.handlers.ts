import {
  DESKTOP_INVOKE_CHANNELS,
  DESKTOP_LISTENING_CHANNEL,
  type DesktopEventName,
  type DesktopNotificationRequest,
} from '@shared/desktop-api';
import { isOneOfOrigins } from '../security/origin.matcher';
import type { SecureTokenStore } from '../tokens/secure-token.store';
import { clampBadgeCount, parseListeningEvent, parseNotificationRequest, parseRefreshToken } from './desktop-ipc.validation';

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
  logger?: { warn: (message: string, meta?: Record<string, unknown>) => void };
}

/** Registers every renderer -> main channel; returns a function that removes them again. */
export function registerDesktopIpcHandlers(deps: DesktopIpcDependencies): () => void {
  const assertTrusted = (event: IpcEventLike, channel: string) => {
    if (!isTrustedSenderFrame(event?.senderFrame, deps.appOrigins())) {
      deps.logger?.warn('desktop IPC refused: untrusted sender', { channel, url: event?.senderFrame?.url });
      throw new DesktopIpcError('ERR_DESKTOP_UNTRUSTED_SENDER');
    }
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
