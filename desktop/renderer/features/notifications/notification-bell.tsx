import { Button, Classes, Icon, Menu, MenuDivider, NonIdealState, Popover, Tag, type IconName } from '@blueprintjs/core';
import type { NotificationDto } from '@shared/schemas/notifications';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  useGetMyNotificationsQuery,
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
} from '../../api/notifications.api';
import { formatNotificationDate } from './notification-date';
import './notifications.css';

/** How each kind shows in the bell: its icon and its name (tooltip and screen readers). */
export function notificationKindView(kind: string): { icon: IconName; labelKey: string } {
  switch (kind) {
    case 'task':
      return { icon: 'calendar', labelKey: 'notifications.kinds.task' };
    case 'transfer':
      return { icon: 'swap-horizontal', labelKey: 'notifications.kinds.transfer' };
    case 'mention':
      return { icon: 'comment', labelKey: 'notifications.kinds.mention' };
    default:
      return { icon: 'info-sign', labelKey: 'notifications.kinds.broadcast' };
  }
}

/**
 * Opening a notification: an unread one is marked read, one with a link navigates there (the
 * ticket of a transfer, the conversation of a mention, the task of a reminder).
 */
export function openNotification(
  notification: Pick<NotificationDto, 'id' | 'read' | 'link'>,
  actions: { markRead: (id: number) => unknown; navigate: (link: string) => unknown },
): void {
  if (!notification.read) void actions.markRead(notification.id);
  if (notification.link) void actions.navigate(notification.link);
}

/** One notification of the bell's list. Clicking a linked one closes the bell (POPOVER_DISMISS). */
export function NotificationItem({
  notification: n,
  language,
  onOpen,
  onMarkRead,
}: {
  notification: NotificationDto;
  language: string;
  onOpen: (notification: NotificationDto) => void;
  onMarkRead: (id: number) => void;
}) {
  const { t } = useTranslation();
  const view = notificationKindView(n.kind);
  const kindLabel = t(view.labelKey);
  const openByKey = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    (event.currentTarget as HTMLElement).click();
  };
  return (
    <div
      className={n.read ? 'notification-item' : 'notification-item notification-unread'}
      data-testid="notification-item"
      data-read={n.read ? 'true' : 'false'}
      data-kind={n.kind}
    >
      <div
        className={n.link ? `notification-body notification-linked ${Classes.POPOVER_DISMISS}` : 'notification-body'}
        role={n.link ? 'link' : undefined}
        tabIndex={n.link ? 0 : undefined}
        onClick={() => onOpen(n)}
        onKeyDown={n.link ? openByKey : undefined}
        data-testid="notification-open"
        data-link={n.link ?? undefined}
      >
        <Icon icon={view.icon} className="notification-kind" title={kindLabel} aria-label={kindLabel} data-testid="notification-kind" />
        <div className="notification-message">{n.message}</div>
      </div>
      <div className="notification-meta">
        <span className={Classes.TEXT_MUTED}>{formatNotificationDate(n.createdAt, language)}</span>
        {n.read ? null : (
          <Button
            variant="minimal"
            size="small"
            icon="tick"
            text={t('notifications.markRead')}
            onClick={() => onMarkRead(n.id)}
            data-testid="notification-mark-read"
          />
        )}
      </div>
    </div>
  );
}

/**
 * The bell of the top bar, for every signed-in user: the unread count, and the latest
 * notifications (administration notices, task reminders, tickets transferred to the user,
 * mentions in the internal chat, each with its icon) with "mark as read" and "mark all as read".
 * A notification with a link opens it and is marked read. New ones arrive live
 * (`notification:create` refetches the list; app/realtime/event-dispatcher.ts).
 */
export function NotificationBell() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { data } = useGetMyNotificationsQuery();
  const [markRead] = useMarkNotificationReadMutation();
  const [markAllRead, markingAll] = useMarkAllNotificationsReadMutation();
  const unread = data?.unreadCount ?? 0;
  const notifications = data?.notifications ?? [];

  const open = (notification: NotificationDto) => openNotification(notification, { markRead, navigate });

  const panel = (
    <div className="notification-panel" data-testid="notification-panel">
      <div className="notification-panel-header">
        <strong>{t('notifications.title')}</strong>
        <Button
          variant="minimal"
          size="small"
          icon="tick"
          text={t('notifications.markAllRead')}
          disabled={unread === 0}
          loading={markingAll.isLoading}
          onClick={() => void markAllRead()}
          data-testid="notification-mark-all"
        />
      </div>
      {notifications.length === 0 ? (
        <NonIdealState icon="notifications" title={t('notifications.empty')} className="notification-empty" />
      ) : (
        <Menu className="notification-list">
          {notifications.map((n, index) => (
            <div key={n.id}>
              {index > 0 ? <MenuDivider /> : null}
              <NotificationItem notification={n} language={i18n.language} onOpen={open} onMarkRead={(id) => void markRead(id)} />
            </div>
          ))}
        </Menu>
      )}
    </div>
  );

  return (
    <Popover content={panel} placement="bottom-end">
      <Button
        variant="minimal"
        icon="notifications"
        aria-label={t('notifications.bell', { count: unread })}
        title={t('notifications.bell', { count: unread })}
        data-testid="notification-bell"
      >
        {unread > 0 ? (
          <Tag round intent="danger" className="notification-count" data-testid="notification-count">
            {unread > 99 ? '99+' : unread}
          </Tag>
        ) : null}
      </Button>
    </Popover>
  );
}
