import {
  DESKTOP_EVENT_CHANNELS,
  DESKTOP_EVENT_NAMES,
  type DeepLink,
  type DesktopCachePurge,
  type DesktopEventName,
  type DesktopOutboxChange,
  type DesktopSyncStatus,
  type NotificationClick,
} from '@shared/desktop-api';

export interface RendererEventPayloads {
  deepLink: DeepLink;
  notificationClick: NotificationClick;
  syncStatus: DesktopSyncStatus;
  outboxChange: DesktopOutboxChange;
  cachePurged: DesktopCachePurge;
}

export interface RendererEventRouterOptions {
  /** Sends to the console window; returns false when there is no live window to send to. */
  send: (channel: string, payload: unknown) => boolean;
  maxPendingPerEvent?: number;
}

export interface RendererEventRouter {
  dispatch<K extends DesktopEventName>(name: K, payload: RendererEventPayloads[K]): void;
  /** The renderer subscribed to this event: deliver what waited for it. */
  markListening(name: DesktopEventName): void;
  /** The page is (re)loading: its listeners are gone until it subscribes again. */
  reset(): void;
  pendingCount(name: DesktopEventName): number;
}

/**
 * Deep links and notification clicks can arrive before the React app subscribed (a cold start
 * from a link, a reload). They wait here, bounded, instead of being lost - the "click did nothing"
 * failure users report most about desktop notifications.
 */
export function createRendererEventRouter(options: RendererEventRouterOptions): RendererEventRouter {
  const max = options.maxPendingPerEvent ?? 20;
  const listening = new Set<DesktopEventName>();
  const pending = new Map<DesktopEventName, unknown[]>(DESKTOP_EVENT_NAMES.map((name) => [name, []]));

  const queueOf = (name: DesktopEventName) => pending.get(name) as unknown[];

  const flush = (name: DesktopEventName) => {
    const queue = queueOf(name);
    while (queue.length > 0) {
      if (!options.send(DESKTOP_EVENT_CHANNELS[name], queue[0])) return;
      queue.shift();
    }
  };

  return {
    dispatch(name, payload) {
      const queue = queueOf(name);
      queue.push(payload);
      // The oldest entry goes first: the most recent link or click is what the user expects.
      if (queue.length > max) queue.splice(0, queue.length - max);
      if (listening.has(name)) flush(name);
    },
    markListening(name) {
      listening.add(name);
      flush(name);
    },
    reset() {
      listening.clear();
    },
    pendingCount(name) {
      return queueOf(name).length;
    },
  };
}
