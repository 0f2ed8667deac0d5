import { NonIdealState, Spinner } from '@blueprintjs/core';
import { conversationOf, type ChatConversationDto, type ChatMessageDto } from '@shared/schemas/internal-chat';
import { format } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { useChatSearchQuery } from '../../api/internal-chat.api';
import type { ConversationRef } from './chat-cache';

/** Around `q`, a short piece of the text with the match in it. */
export function snippetAround(text: string, q: string, radius = 40): string {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  // Folding keeps one character per letter of Portuguese text (accents are separate marks, dropped).
  const at = fold(text).indexOf(fold(q.trim()));
  if (at < 0 || text.length <= radius * 2) return text.length > radius * 2 ? `${text.slice(0, radius * 2)}…` : text;
  const from = Math.max(0, at - radius);
  const to = Math.min(text.length, at + q.trim().length + radius);
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

/** The server's search of the caller's conversations (2 letters or more); a result opens its conversation at that message. */
export function ChatSearchResults({
  q,
  viewerId,
  conversations,
  onOpen,
}: {
  q: string;
  viewerId: number | null;
  conversations: ChatConversationDto[];
  onOpen(ref: ConversationRef, messageId: number): void;
}) {
  const { t } = useTranslation();
  const search = useChatSearchQuery(q);
  if (search.isFetching && !search.data) return <NonIdealState icon={<Spinner size={20} />} />;
  const hits: ChatMessageDto[] = search.data ?? [];
  if (hits.length === 0)
    return (
      <p className="ichat-list-empty bp6-text-muted" data-testid="chat-search-empty">
        {t('internalChat.search.none')}
      </p>
    );
  return (
    <ul className="ichat-list" data-testid="chat-search-results">
      {hits.map((message) => {
        const ref = conversationOf(message, viewerId ?? -1);
        const name = conversations.find((c) => c.kind === ref.kind && c.id === ref.id)?.name ?? message.fromUserName;
        return (
          <li key={message.id}>
            <button
              type="button"
              className="ichat-list-item"
              onClick={() => onOpen(ref, message.id)}
              data-testid="chat-search-result"
            >
              <span className="ichat-list-main">
                <span className="ichat-list-top">
                  <span className="ichat-list-name">{ref.kind === 'team' ? `# ${name}` : name}</span>
                  <span className="ichat-list-time">{format(new Date(message.createdAt), 'dd/MM/yyyy HH:mm')}</span>
                </span>
                <span className="ichat-list-preview">
                  <strong>{message.fromUserId === viewerId ? t('internalChat.you') : message.fromUserName}:</strong>{' '}
                  {snippetAround(message.body, q)}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
