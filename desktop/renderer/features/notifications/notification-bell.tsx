import { Button, Classes, Menu, MenuDivider, NonIdealState, Popover, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  useGetMyNotificationsQuery,
  useMarkAllNotificationsReadMutation,
  useMarkNotificationReadMutation,
} from '../../api/notifications.api';
import { formatNotificationDate } from './notification-date';
import './notifications.css';

/**
 * The bell of the top bar, for every signed-in user: the unread count, and the latest
 * notifications with "mark as read" and "mark all as read". New ones arrive live
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

  const open = (id: number, read: boolean, link: string | null) => {
    if (!read) void markRead(id);
    if (link) void navigate(link);
  };

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
              <div
                className={n.read ? 'notification-item' : 'notification-item notification-unread'}
                data-testid="notification-item"
                data-read={n.read ? 'true' : 'false'}
              >
                <div className="notification-message" onClick={() => open(n.id, n.read, n.link)}>
                  {n.message}
                </div>
                <div className="notification-meta">
                  <span className={Classes.TEXT_MUTED}>{formatNotificationDate(n.createdAt, i18n.language)}</span>
                  {n.read ? null : (
                    <Button
                      variant="minimal"
                      size="small"
                      icon="tick"
                      text={t('notifications.markRead')}
                      onClick={() => void markRead(n.id)}
                      data-testid="notification-mark-read"
                    />
                  )}
                </div>
              </div>
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
