import { SOCKET_EVENTS } from '@shared/events';
import type { NotificationCreatePayload, NotificationDto, NotificationKind } from '@shared/schemas/notifications';
import type { Queryable } from '../../core/tenant-catalog';
import type { Emit } from '../../realtime/domain-events';
import { presentNotification, type NotificationRow } from './notifications.presenter';

export interface UserNotification {
  tenantId: number;
  /** The recipient, a user of `tenantId`. */
  userId: number;
  kind: NotificationKind;
  message: string;
  /** An in-app route the bell opens (e.g. `/atendimento/12`), or null. */
  link: string | null;
  /** Who caused it (null: the system). */
  createdById?: number | null;
}

/**
 * A notification for one user's bell, written in the caller's transaction with its
 * `notification:create` event to that user only: the notification exists exactly when the
 * change that caused it committed, so a change notifies once.
 */
export async function notifyUser(tx: Queryable, emit: Emit, notification: UserNotification): Promise<NotificationDto> {
  const [row] = (await tx.query(
    `INSERT INTO notifications (kind, message, link, "tenantIds", "userId", "createdById")
     VALUES ($1, $2, $3, ARRAY[$4::int], $5, $6)
     RETURNING id, kind, message, link, "createdAt"`,
    [
      notification.kind,
      notification.message,
      notification.link,
      notification.tenantId,
      notification.userId,
      notification.createdById ?? null,
    ],
  )) as NotificationRow[];
  const dto = presentNotification({ ...row!, read: false });
  const payload: NotificationCreatePayload = { notification: dto };
  await emit(notification.tenantId, SOCKET_EVENTS.notificationCreate, payload, { scope: 'user', userId: notification.userId });
  return dto;
}
