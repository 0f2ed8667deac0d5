import { SOCKET_EVENTS } from '@shared/events';
import {
  NOTIFICATION_PAGE_SIZE,
  type NotificationCreatePayload,
  type NotificationInboxDto,
  type NotificationPageQuery,
  type NotificationTargetTenantDto,
  type NotificationUnreadDto,
  type SendNotificationInput,
  type SentNotificationDto,
  type SentNotificationPageDto,
} from '@shared/schemas/notifications';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import type { EventAudience } from '../../db/entities';
import type { AppDeps } from '../../deps';
import { recordEventInTenants } from '../../realtime/domain-events';
import { authorizeNotifications } from './notifications.policy';
import {
  presentNotification,
  presentSentNotification,
  type NotificationRow,
  type SentNotificationRow,
} from './notifications.presenter';

type NotificationsDeps = Pick<AppDeps, 'dataSource' | 'events'>;

/**
 * The notifications a user sees ($1 user, $2 tenant, $3 profile): those addressed to them, and
 * the broadcasts whose tenants and profiles include theirs (null: all). The same rule as the
 * socket audience of `notification:create` (recorded in the targeted tenants, to those profiles).
 */
const VISIBLE = `(n."userId" = $1 OR (n."userId" IS NULL
  AND (n."tenantIds" IS NULL OR n."tenantIds" @> ARRAY[$2::int])
  AND (n.profiles IS NULL OR n.profiles @> ARRAY[$3::varchar])))`;

const UNREAD = `NOT EXISTS (SELECT 1 FROM notification_reads r WHERE r."notificationId" = n.id AND r."userId" = $1)`;

const viewer = (auth: AuthContext) => [auth.userId, auth.tenantId, auth.profile];

export class NotificationsService {
  constructor(private readonly deps: NotificationsDeps) {}

  /** The caller's notifications, newest first (keyset paging by id), and their unread count. */
  async inbox(auth: AuthContext, query: NotificationPageQuery): Promise<NotificationInboxDto> {
    authorizeNotifications(auth, 'readOwn');
    const limit = query.limit ?? NOTIFICATION_PAGE_SIZE;
    const rows = (await this.deps.dataSource.query(
      `SELECT n.id, n.kind, n.message, n.link, n."createdAt", NOT ${UNREAD} AS read
         FROM notifications n
        WHERE ${VISIBLE} AND ($4::int IS NULL OR n.id < $4)
        ORDER BY n.id DESC
        LIMIT $5`,
      [...viewer(auth), query.before ?? null, limit + 1],
    )) as NotificationRow[];
    return {
      notifications: rows.slice(0, limit).map(presentNotification),
      unreadCount: await this.unreadCount(auth),
      hasMore: rows.length > limit,
    };
  }

  async markRead(auth: AuthContext, id: number): Promise<NotificationUnreadDto> {
    authorizeNotifications(auth, 'readOwn');
    const [visible] = (await this.deps.dataSource.query(`SELECT n.id FROM notifications n WHERE n.id = $4 AND ${VISIBLE}`, [
      ...viewer(auth),
      id,
    ])) as { id: number }[];
    if (!visible) throw new AppError('ERR_NO_NOTIFICATION_FOUND');
    await this.deps.dataSource.query(
      `INSERT INTO notification_reads ("userId", "notificationId") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [auth.userId, id],
    );
    return { unreadCount: await this.unreadCount(auth) };
  }

  /** One read row per notification the caller had not read yet, in one statement. */
  async markAllRead(auth: AuthContext): Promise<NotificationUnreadDto> {
    authorizeNotifications(auth, 'readOwn');
    await this.deps.dataSource.query(
      `INSERT INTO notification_reads ("userId", "notificationId")
       SELECT $1, n.id FROM notifications n WHERE ${VISIBLE} AND ${UNREAD}
       ON CONFLICT DO NOTHING`,
      viewer(auth),
    );
    return { unreadCount: await this.unreadCount(auth) };
  }

  /**
   * Sends a notification: one row, whatever the number of recipients, and one
   * `notification:create` event per targeted tenant (to the chosen profiles), published after
   * the commit to the users online there.
   */
  async send(auth: AuthContext, input: SendNotificationInput): Promise<SentNotificationDto> {
    authorizeNotifications(auth, 'send');
    const tenantNames = await this.tenantNames(input.tenantIds);
    if (input.tenantIds) {
      const missing = input.tenantIds.filter((id) => !tenantNames.has(id));
      if (missing.length > 0) {
        throw new AppError('ERR_VALIDATION', { fields: [{ path: 'tenantIds', message: `empresa inexistente: ${missing.join(', ')}` }] });
      }
    }
    const audience: EventAudience = input.profiles ? { scope: 'profiles', profiles: input.profiles } : { scope: 'tenant' };
    const { row, events } = await this.deps.dataSource.transaction(async (tx) => {
      const [inserted] = (await tx.query(
        `INSERT INTO notifications (kind, message, "tenantIds", profiles, "createdById")
         VALUES ('broadcast', $1, $2::int[], $3::varchar[], $4)
         RETURNING id, kind, message, link, "tenantIds", profiles, "createdAt", 0 AS "readCount"`,
        [input.message, input.tenantIds, input.profiles, auth.userId],
      )) as (NotificationRow & SentNotificationRow)[];
      const payload: NotificationCreatePayload = { notification: presentNotification({ ...inserted, read: false }) };
      const recorded = await recordEventInTenants(tx, input.tenantIds, SOCKET_EVENTS.notificationCreate, payload, audience);
      return { row: inserted, events: recorded };
    });
    this.deps.events.publishCommitted(events);
    return presentSentNotification(row, tenantNames);
  }

  async listSent(auth: AuthContext, query: NotificationPageQuery): Promise<SentNotificationPageDto> {
    authorizeNotifications(auth, 'listSent');
    const limit = query.limit ?? NOTIFICATION_PAGE_SIZE;
    const rows = (await this.deps.dataSource.query(
      `SELECT n.id, n.message, n."tenantIds", n.profiles, n."createdAt",
              (SELECT count(*)::int FROM notification_reads r WHERE r."notificationId" = n.id) AS "readCount"
         FROM notifications n
        WHERE n."userId" IS NULL AND ($1::int IS NULL OR n.id < $1)
        ORDER BY n.id DESC
        LIMIT $2`,
      [query.before ?? null, limit + 1],
    )) as SentNotificationRow[];
    const page = rows.slice(0, limit);
    const names = await this.tenantNames([...new Set(page.flatMap((r) => r.tenantIds ?? []))]);
    return { notifications: page.map((r) => presentSentNotification(r, names)), hasMore: rows.length > limit };
  }

  /** Deletes a sent notification; the bells of the tenants it went to drop it. */
  async remove(auth: AuthContext, id: number): Promise<void> {
    authorizeNotifications(auth, 'delete');
    const events = await this.deps.dataSource.transaction(async (tx) => {
      // TypeORM answers DELETE ... RETURNING with [rows, count].
      const [rows] = (await tx.query(`DELETE FROM notifications WHERE id = $1 AND "userId" IS NULL RETURNING "tenantIds"`, [id])) as [
        { tenantIds: number[] | null }[],
        number,
      ];
      const deleted = rows[0];
      if (!deleted) throw new AppError('ERR_NO_NOTIFICATION_FOUND');
      return recordEventInTenants(tx, deleted.tenantIds, SOCKET_EVENTS.notificationDelete, { action: 'delete', id }, { scope: 'tenant' });
    });
    this.deps.events.publishCommitted(events);
  }

  async listTargets(auth: AuthContext): Promise<NotificationTargetTenantDto[]> {
    authorizeNotifications(auth, 'listTargets');
    return this.deps.dataSource.query(`SELECT id, name, status FROM tenants ORDER BY name, id`);
  }

  private async unreadCount(auth: AuthContext): Promise<number> {
    const [row] = (await this.deps.dataSource.query(
      `SELECT count(*)::int AS count FROM notifications n WHERE ${VISIBLE} AND ${UNREAD}`,
      viewer(auth),
    )) as { count: number }[];
    return Number(row?.count ?? 0);
  }

  private async tenantNames(ids: readonly number[] | null): Promise<Map<number, string>> {
    if (!ids || ids.length === 0) return new Map();
    const rows = (await this.deps.dataSource.query(`SELECT id, name FROM tenants WHERE id = ANY($1::int[])`, [ids])) as {
      id: number;
      name: string;
    }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  }
}
