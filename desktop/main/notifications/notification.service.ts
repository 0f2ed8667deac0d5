import type { DesktopNotificationRequest } from '@shared/desktop-api';

/** The parts of Electron's Notification used here. */
export interface NotificationLike {
  on(event: 'click' | 'close' | 'failed', listener: (...args: unknown[]) => void): unknown;
  show(): void;
}

export interface NotificationServiceOptions {
  isSupported: () => boolean;
  createNotification: (options: { title: string; body: string }) => NotificationLike;
  /** Called when the user clicks a notification; ticketId is set when the request carried one. */
  onClick: (click: { ticketId?: number }) => void;
  /** Upper bound on notifications kept alive waiting for a click. */
  maxTracked?: number;
}

export interface NotificationService {
  /** Returns false when the platform cannot show notifications. */
  show(request: DesktopNotificationRequest): boolean;
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
      if (!options.isSupported()) return false;
      const notification = options.createNotification({ title: request.title, body: request.body });
      const release = () => tracked.delete(notification);
      notification.on('click', () => {
        release();
        options.onClick(request.ticketId === undefined ? {} : { ticketId: request.ticketId });
      });
      notification.on('close', release);
      notification.on('failed', release);
      tracked.add(notification);
      if (tracked.size > max) {
        const oldest = tracked.values().next().value;
        if (oldest) tracked.delete(oldest);
      }
      notification.show();
      return true;
    },
    trackedCount() {
      return tracked.size;
    },
  };
}
