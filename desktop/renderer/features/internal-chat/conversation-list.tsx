import { Tag } from '@blueprintjs/core';
import type { ChatConversationDto, Presence } from '@shared/schemas/internal-chat';
import { format, isToday } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { previewText, sameConversation, type ConversationRef } from './chat-cache';

/** The presence dot of a colleague: online green, away amber, offline grey. */
export function PresenceDot({ presence }: { presence: Presence | null }) {
  const { t } = useTranslation();
  const state = presence ?? 'offline';
  return (
    <span
      className={`ichat-presence is-${state}`}
      role="img"
      aria-label={t(`internalChat.presence.${state}`)}
      title={t(`internalChat.presence.${state}`)}
      data-testid="chat-presence"
      data-presence={state}
    />
  );
}

const timeOf = (iso: string) => {
  const date = new Date(iso);
  return isToday(date) ? format(date, 'HH:mm') : format(date, 'dd/MM');
};

export function ConversationList({
  conversations,
  selected,
  viewerId,
  onOpen,
  emptyText,
}: {
  conversations: ChatConversationDto[];
  selected: ConversationRef | null;
  viewerId: number | null;
  onOpen(ref: ConversationRef): void;
  emptyText: string;
}) {
  const { t } = useTranslation();
  if (conversations.length === 0)
    return (
      <p className="ichat-list-empty bp6-text-muted" data-testid="chat-conversations-empty">
        {emptyText}
      </p>
    );
  const texts = { you: t('internalChat.you'), deleted: t('internalChat.deleted'), file: t('internalChat.file') };
  return (
    <ul className="ichat-list" data-testid="chat-conversations">
      {conversations.map((c) => {
        const isSelected = sameConversation(selected, c);
        return (
          <li key={`${c.kind}:${c.id}`}>
            <button
              type="button"
              className={`ichat-list-item${isSelected ? ' is-selected' : ''}${c.unread > 0 ? ' has-unread' : ''}`}
              aria-current={isSelected ? 'true' : undefined}
              onClick={() => onOpen({ kind: c.kind, id: c.id })}
              data-testid="chat-conversation"
              data-kind={c.kind}
              data-id={c.id}
            >
              <span className="ichat-avatar" aria-hidden>
                {c.kind === 'team' ? '#' : c.name.trim().charAt(0).toUpperCase()}
                {c.kind === 'user' ? <PresenceDot presence={c.presence} /> : null}
              </span>
              <span className="ichat-list-main">
                <span className="ichat-list-top">
                  <span className="ichat-list-name" data-testid="chat-conversation-name">
                    {c.name}
                  </span>
                  {c.lastMessage ? <span className="ichat-list-time">{timeOf(c.lastMessage.createdAt)}</span> : null}
                </span>
                <span className="ichat-list-bottom">
                  <span className="ichat-list-preview" data-testid="chat-conversation-preview">
                    {previewText(c, viewerId, texts) ||
                      (c.kind === 'team' ? t('internalChat.members', { count: c.members ?? 0 }) : '')}
                  </span>
                  {c.unread > 0 ? (
                    <Tag
                      round
                      intent="primary"
                      className="ichat-unread"
                      data-testid="chat-conversation-unread"
                      aria-label={t('internalChat.unread', { count: c.unread })}
                    >
                      {c.unread > 99 ? '99+' : c.unread}
                    </Tag>
                  ) : null}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
