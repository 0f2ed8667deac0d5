import type { IpcMainLike } from './desktop-ipc.handlers';

/** Electron's ipcMain as the handlers see it, with `invoke` to call a channel as the renderer would. */
export class FakeIpcMain implements IpcMainLike {
  handlers = new Map<string, (event: any, ...args: any[]) => unknown>();
  listeners = new Map<string, (event: any, ...args: any[]) => void>();
  handle(channel: string, listener: (event: any, ...args: any[]) => unknown) {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string) {
    this.handlers.delete(channel);
  }
  on(channel: string, listener: (event: any, ...args: any[]) => void) {
    this.listeners.set(channel, listener);
  }
  removeListener(channel: string) {
    this.listeners.delete(channel);
  }
  invoke(channel: string, event: unknown, ...args: unknown[]) {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return Promise.resolve(handler(event, ...args));
  }
}
