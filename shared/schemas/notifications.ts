import { z } from 'zod';
import { PROFILES, type Profile } from '../profiles';
import { recordIdSchema } from './record-id';

/**
 * Notifications (spec section 3 "Notification: message, user, read flag, date"; /notificacao and
 * the bell of the top bar, issue #17). The super administrator sends a message to every tenant
 * or to chosen tenants, optionally to some profiles only; each user has their own read flag.
 * `kind` and `link` let other features (tasks, mentions, transfers: issue #18) use the same bell.
 */

export const NOTIFICATION_MESSAGE_MAX = 2000;
/** More tenants than this in one send: send to all instead. */
export const NOTIFICATION_TENANTS_MAX = 1000;
export const NOTIFICATION_PAGE_SIZE = 20;
export const NOTIFICATION_PAGE_MAX = 100;

/**
 * What a notification is about: an administration notice, a task reminder, or a mention of the
 * user in the internal chat (`@Name`; link `/chat-privado?kind=user|team&id=...`) (issue #18; more
 * kinds join the bell later).
 */
export const NOTIFICATION_KINDS = ['broadcast', 'task', 'mention'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** POST /admin/notifications body. No `tenantIds` (or null): every tenant; no `profiles` (or null): every profile. */
export const SendNotificationSchema = z.object({
  message: z
    .string({ error: (issue) => (issue.input === undefined ? 'Mensagem é obrigatório' : 'deve ser um texto') })
    .trim()
    .min(1, { error: 'Mensagem é obrigatório' })
    .max(NOTIFICATION_MESSAGE_MAX, { error: `no máximo ${NOTIFICATION_MESSAGE_MAX} caracteres` }),
  tenantIds: z
    .array(recordIdSchema(), { error: 'deve ser uma lista de ids de empresas' })
    .min(1, { error: 'escolha ao menos uma empresa, ou envie a todas' })
    .max(NOTIFICATION_TENANTS_MAX, { error: `no máximo ${NOTIFICATION_TENANTS_MAX} empresas; envie a todas` })
    .transform((ids) => [...new Set(ids)])
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  profiles: z
    .array(z.enum(PROFILES, { error: `perfil inválido (${PROFILES.join(', ')})` }), { error: 'deve ser uma lista de perfis' })
    .min(1, { error: 'escolha ao menos um perfil, ou envie a todos' })
    .transform((list) => [...new Set(list)])
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type SendNotificationInput = z.infer<typeof SendNotificationSchema>;

/** GET /notifications and GET /admin/notifications query: keyset paging, newest first. */
export const NotificationPageQuerySchema = z.object({
  before: recordIdSchema().optional(),
  limit: z.coerce
    .number({ error: `deve ser um número entre 1 e ${NOTIFICATION_PAGE_MAX}` })
    .int({ error: `deve ser um número entre 1 e ${NOTIFICATION_PAGE_MAX}` })
    .min(1, { error: `deve ser um número entre 1 e ${NOTIFICATION_PAGE_MAX}` })
    .max(NOTIFICATION_PAGE_MAX, { error: `deve ser um número entre 1 e ${NOTIFICATION_PAGE_MAX}` })
    .optional(),
});
export type NotificationPageQuery = z.infer<typeof NotificationPageQuerySchema>;

/** One notification as its recipient sees it. */
export interface NotificationDto {
  id: number;
  kind: NotificationKind | string;
  message: string;
  /** An in-app route to open (hash path such as `/tarefas`), or null. */
  link: string | null;
  read: boolean;
  createdAt: string;
}

/** GET /notifications: the caller's notifications, newest first, and how many are unread. */
export interface NotificationInboxDto {
  notifications: NotificationDto[];
  unreadCount: number;
  hasMore: boolean;
}

/** PUT /notifications/{id}/read and PUT /notifications/read-all. */
export interface NotificationUnreadDto {
  unreadCount: number;
}

/** A sent notification in the super administrator's list (/notificacao). */
export interface SentNotificationDto {
  id: number;
  message: string;
  /** Null: every tenant. */
  tenants: { id: number; name: string }[] | null;
  /** Null: every profile. */
  profiles: Profile[] | null;
  /** Users who marked it read. */
  readCount: number;
  createdAt: string;
}

export interface SentNotificationPageDto {
  notifications: SentNotificationDto[];
  hasMore: boolean;
}

/** GET /admin/notifications/tenants: the tenants a notification can be sent to. */
export interface NotificationTargetTenantDto {
  id: number;
  name: string;
  status: string;
}

/** Payload of SOCKET_EVENTS.notificationCreate: the new notification, unread. */
export interface NotificationCreatePayload {
  notification: NotificationDto;
}
