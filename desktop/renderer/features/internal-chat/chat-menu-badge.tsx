import { Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useChatUnreadCountQuery } from '../../api/internal-chat.api';

/**
 * The unread internal-chat messages on the menu's "Chat interno" item (GET /chat-interno/count/mensagens),
 * kept current by the chat's socket events (chat-realtime.ts) and the marks of read.
 */
export function ChatMenuBadge() {
  const { t } = useTranslation();
  const { data } = useChatUnreadCountQuery();
  const count = data?.count ?? 0;
  if (count <= 0) return null;
  return (
    <Tag round intent="primary" aria-label={t('internalChat.unread', { count })} data-testid="menu-privateChat-unread">
      {count > 99 ? '99+' : count}
    </Tag>
  );
}
