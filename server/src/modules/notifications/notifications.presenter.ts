import type { Profile } from '@shared/profiles';
import type { NotificationDto, SentNotificationDto } from '@shared/schemas/notifications';

export interface NotificationRow {
  id: number;
  kind: string;
  message: string;
  link: string | null;
  createdAt: Date | string;
  read?: boolean;
}

export interface SentNotificationRow {
  id: number;
  message: string;
  tenantIds: number[] | null;
  profiles: string[] | null;
  readCount: number;
  createdAt: Date | string;
}

export function presentNotification(row: NotificationRow): NotificationDto {
  return {
    id: row.id,
    kind: row.kind,
    message: row.message,
    link: row.link,
    read: Boolean(row.read),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

export function presentSentNotification(row: SentNotificationRow, tenantNames: Map<number, string>): SentNotificationDto {
  return {
    id: row.id,
    message: row.message,
    tenants: row.tenantIds ? row.tenantIds.map((id) => ({ id, name: tenantNames.get(id) ?? `#${id}` })) : null,
    profiles: row.profiles ? (row.profiles as Profile[]) : null,
    readCount: Number(row.readCount),
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
