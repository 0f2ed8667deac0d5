import type { NotificationDto } from '@shared/schemas/notifications';
import type { i18n as I18n } from 'i18next';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n/i18n';
import { NotificationItem, notificationKindView, openNotification } from './notification-bell';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createI18n('pt-br', [initReactI18next]);
});

const notification = (fields: Partial<NotificationDto>): NotificationDto => ({
  id: 1,
  kind: 'broadcast',
  message: 'Aviso',
  link: null,
  read: false,
  createdAt: '2026-01-05T12:00:00.000Z',
  ...fields,
});

const render = (n: NotificationDto) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <NotificationItem notification={n} language="pt-br" onOpen={() => undefined} onMarkRead={() => undefined} />
    </I18nextProvider>,
  );

describe('the bell’s notification kinds', () => {
  it('gives each kind its own icon and name; unknown kinds show as notices', () => {
    const views = ['broadcast', 'task', 'transfer', 'mention'].map(notificationKindView);
    expect(new Set(views.map((v) => v.icon)).size).toBe(4);
    expect(notificationKindView('transfer')).toEqual({ icon: 'swap-horizontal', labelKey: 'notifications.kinds.transfer' });
    expect(notificationKindView('mention')).toEqual({ icon: 'comment', labelKey: 'notifications.kinds.mention' });
    expect(notificationKindView('something-new')).toEqual(notificationKindView('broadcast'));
  });

  it('shows a transfer with its icon, its text and a link to the ticket', () => {
    const html = render(
      notification({ id: 7, kind: 'transfer', message: 'Ticket #12 transferido para você por Ana', link: '/atendimento/12' }),
    );
    expect(html).toContain('data-kind="transfer"');
    expect(html).toContain('bp6-icon-swap-horizontal');
    expect(html).toContain('aria-label="Ticket transferido"');
    expect(html).toContain('Ticket #12 transferido para você por Ana');
    expect(html).toMatch(/data-testid="notification-open"[^>]*data-link="\/atendimento\/12"/);
    expect(html).toMatch(/role="link"/);
    expect(html).toContain('data-read="false"');
    expect(html).toContain('data-testid="notification-mark-read"');
  });

  it('shows a mention with its icon and a link to the conversation', () => {
    const html = render(
      notification({ kind: 'mention', message: 'Ana mencionou você', link: '/chat-privado?kind=user&id=3', read: true }),
    );
    expect(html).toContain('data-kind="mention"');
    expect(html).toContain('bp6-icon-comment');
    expect(html).toContain('aria-label="Menção no chat interno"');
    expect(html).toContain('data-link="/chat-privado?kind=user&amp;id=3"');
    expect(html).toContain('data-read="true"');
    expect(html).not.toContain('notification-mark-read');
  });

  it('a notice without a link is no link', () => {
    const html = render(notification({ message: 'Manutenção às 22h' }));
    expect(html).toContain('bp6-icon-info-sign');
    expect(html).not.toContain('role="link"');
    expect(html).not.toContain('data-link=');
  });
});

describe('opening a notification', () => {
  it('marks an unread one read and goes to its link', () => {
    const markRead = vi.fn();
    const navigate = vi.fn();
    openNotification({ id: 4, read: false, link: '/atendimento/12' }, { markRead, navigate });
    expect(markRead).toHaveBeenCalledWith(4);
    expect(navigate).toHaveBeenCalledWith('/atendimento/12');
  });

  it('only navigates for a read one, and only marks read one without a link', () => {
    const markRead = vi.fn();
    const navigate = vi.fn();
    openNotification({ id: 4, read: true, link: '/chat-privado?kind=team&id=2' }, { markRead, navigate });
    expect(markRead).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/chat-privado?kind=team&id=2');
    openNotification({ id: 5, read: false, link: null }, { markRead, navigate });
    expect(markRead).toHaveBeenCalledWith(5);
    expect(navigate).toHaveBeenCalledTimes(1);
  });
});
