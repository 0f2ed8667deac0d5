import { Button, ButtonGroup, Icon } from '@blueprintjs/core';
import type { ChatMessageDto } from '@shared/schemas/internal-chat';
import { format } from 'date-fns';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AuthenticatedImage, DownloadLink } from '../attendance/authenticated-media';

/**
 * One message of a conversation: author, time, "editada", "Mensagem apagada" for a deleted one,
 * the quoted message of a reply, the file (an image shows, any other is a download), the linked
 * ticket, and for the viewer's own messages the read receipt (✓ sent, ✓✓ read in a one-to-one;
 * "lida por N" in a room). Own messages can be edited and deleted; any can be answered.
 */

export type ReceiptMark = { kind: 'sent' } | { kind: 'read' } | { kind: 'readBy'; count: number } | null;

export function receiptOf(message: ChatMessageDto, viewerId: number | null): ReceiptMark {
  if (message.fromUserId !== viewerId || message.deletedAt) return null;
  if (message.kind === 'team') return message.readCount > 0 ? { kind: 'readBy', count: message.readCount } : { kind: 'sent' };
  return message.read ? { kind: 'read' } : { kind: 'sent' };
}

export const isImage = (message: Pick<ChatMessageDto, 'mimeType' | 'mediaName'>): boolean =>
  (message.mimeType ?? '').startsWith('image/') || /\.(png|jpe?g|gif|webp|bmp)$/i.test(message.mediaName ?? '');

export function Receipt({ mark }: { mark: ReceiptMark }) {
  const { t } = useTranslation();
  if (!mark) return null;
  if (mark.kind === 'readBy')
    return (
      <span className="ichat-receipt is-read" data-testid="chat-receipt" data-receipt="readBy">
        {t('internalChat.readBy', { count: mark.count })}
      </span>
    );
  return (
    <span
      className={`ichat-receipt${mark.kind === 'read' ? ' is-read' : ''}`}
      data-testid="chat-receipt"
      data-receipt={mark.kind}
      title={t(`internalChat.receipt.${mark.kind}`)}
      aria-label={t(`internalChat.receipt.${mark.kind}`)}
    >
      {mark.kind === 'read' ? '✓✓' : '✓'}
    </span>
  );
}

export interface ChatMessageActions {
  onReply(message: ChatMessageDto): void;
  onEdit(message: ChatMessageDto): void;
  onDelete(message: ChatMessageDto): void;
  onJump(messageId: number): void;
}

export const ChatMessageRow = memo(function ChatMessageRow({
  message,
  viewerId,
  showAuthor,
  highlighted,
  actions,
}: {
  message: ChatMessageDto;
  viewerId: number | null;
  /** Rooms and the other user's messages name their author; own messages do not. */
  showAuthor: boolean;
  highlighted: boolean;
  actions: ChatMessageActions;
}) {
  const { t } = useTranslation();
  const mine = message.fromUserId === viewerId;
  const deleted = message.deletedAt !== null;
  const created = new Date(message.createdAt);
  return (
    <div
      className={`ichat-message ${mine ? 'is-mine' : 'is-theirs'}${highlighted ? ' is-highlighted' : ''}`}
      data-testid="chat-message"
      data-message-id={message.id}
    >
      <div className="ichat-bubble">
        {showAuthor && !mine ? (
          <strong className="ichat-author" data-testid="chat-message-author">
            {message.fromUserName}
          </strong>
        ) : null}
        {deleted ? (
          <span className="ichat-deleted" data-testid="chat-message-deleted">
            <Icon icon="disable" size={12} /> {t('internalChat.deleted')}
          </span>
        ) : (
          <>
            {message.replyTo ? (
              <button
                type="button"
                className="ichat-quote"
                onClick={() => actions.onJump(message.replyTo!.id)}
                data-testid="chat-message-quote"
              >
                <strong>{message.replyTo.fromUserName}</strong>
                <span>
                  {message.replyTo.deleted ? t('internalChat.deleted') : message.replyTo.body || t('internalChat.file')}
                </span>
              </button>
            ) : null}
            {message.mediaUrl ? (
              <div className="ichat-media" data-testid="chat-message-media">
                {isImage(message) ? (
                  <AuthenticatedImage path={message.mediaUrl} alt={message.mediaName ?? ''} />
                ) : (
                  <DownloadLink path={message.mediaUrl} name={message.mediaName ?? ''} />
                )}
              </div>
            ) : null}
            {message.body ? (
              <span className="ichat-text" data-testid="chat-message-body">
                {message.body}
              </span>
            ) : null}
            {message.ticketId ? (
              <Link className="ichat-ticket" to={`/atendimento/${message.ticketId}`} data-testid="chat-message-ticket">
                <Icon icon="chat" size={12} /> {t('internalChat.ticketLink', { id: message.ticketId })}
              </Link>
            ) : null}
          </>
        )}
        <span className="ichat-meta">
          {message.editedAt && !deleted ? (
            <span className="ichat-edited" data-testid="chat-message-edited">
              {t('internalChat.edited')}
            </span>
          ) : null}
          <time dateTime={message.createdAt} title={format(created, 'dd/MM/yyyy HH:mm')}>
            {format(created, 'HH:mm')}
          </time>
          <Receipt mark={receiptOf(message, viewerId)} />
        </span>
      </div>
      {!deleted ? (
        <ButtonGroup variant="minimal" size="small" className="ichat-actions">
          <Button
            icon="undo"
            title={t('internalChat.reply')}
            aria-label={t('internalChat.reply')}
            onClick={() => actions.onReply(message)}
            data-testid="chat-message-reply"
          />
          {mine ? (
            <>
              <Button
                icon="edit"
                title={t('internalChat.edit')}
                aria-label={t('internalChat.edit')}
                onClick={() => actions.onEdit(message)}
                data-testid="chat-message-edit"
              />
              <Button
                icon="trash"
                intent="danger"
                title={t('internalChat.delete')}
                aria-label={t('internalChat.delete')}
                onClick={() => actions.onDelete(message)}
                data-testid="chat-message-delete"
              />
            </>
          ) : null}
        </ButtonGroup>
      ) : null}
    </div>
  );
});
