import type { DesktopNotificationRequest } from '@shared/desktop-api';

/** The parts of Electron's Notification used here. */
export interface NotificationLike {
  on(event: 'click' | 'close' | 'failed', listener: (...args: unknown[]) => void): unknown;
  show(): void;
}

export interface NotificationServiceOptions {
  isSupported: () => boolean;
  createNotification: (options: { title: string; body: string }) => NotificationLike;
  /** Called when the user clicks a notification; ticketId and chat are set when the request carried them. */
  onClick: (click: Pick<DesktopNotificationRequest, 'ticketId' | 'chat'>) => void;
  /** Upper bound on notifications kept alive waiting for a click. */
  maxTracked?: number;
  /** The agent's "do not disturb" (the tray's switch): nothing is shown while it is on. */
  isMuted?: () => boolean;
}

/** shown; muted: do not disturb is on (on purpose, nothing to report); unsupported by the platform. */
export type NotificationOutcome = 'shown' | 'muted' | 'unsupported';

export interface NotificationService {
  show(request: DesktopNotificationRequest): NotificationOutcome;
  trackedCount(): number;
}

/**
 * Electron notifications lose their click handler once the JavaScript object is garbage
 * collected, so every shown notification is referenced here until it is clicked, closed or fails
 * (bounded, because some platforms never report "close").
 */
export function createNotificationService(options: NotificationServiceOptions): NotificationService {
  const max = options.maxTracked ?? 50;
  const tracked = new Set<NotificationLike>();

  return {
    show(request) {
      if (options.isMuted?.()) return 'muted';
      if (!options.isSupported()) return 'unsupported';
      const notification = options.createNotification({ title: request.title, body: request.body });
      const release = () => tracked.delete(notification);
      notification.on('click', () => {
        release();
        options.onClick({
          ...(request.ticketId === undefined ? {} : { ticketId: request.ticketId }),
          ...(request.chat === undefined ? {} : { chat: request.chat }),
        });
      });
      notification.on('close', release);
      notification.on('failed', release);
      tracked.add(notification);
      if (tracked.size > max) {
        const oldest = tracked.values().next().value;
        if (oldest) tracked.delete(oldest);
      }
      notification.show();
      return 'shown';
    },
    trackedCount() {
      return tracked.size;
    },
  };
}
