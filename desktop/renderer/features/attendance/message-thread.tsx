import { Button, Icon, Spinner } from '@blueprintjs/core';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { messagesApi, useGetMessagesQuery, useRetryMessageMutation, type Message } from '../../api/messages.api';
import { useAppDispatch } from '../../app/store-hooks';
import { AuthenticatedImage, DownloadLink } from './authenticated-media';
import { ackMarkOf, formatTime, messageDate, threadItems } from './message-display';

export interface LocalFailedSend {
  clientId: string;
  body: string;
  files: File[];
}

const ACK_ICONS = {
  pending: 'time',
  sent: 'tick',
  delivered: 'double-chevron-right',
  read: 'double-chevron-right',
  failed: 'error',
} as const;

function AckTick({ message }: { message: Message }) {
  const { t } = useTranslation();
  const mark = ackMarkOf(message);
  if (mark === 'none') return null;
  return (
    <span className={`message-ack ack-${mark}`} data-testid="message-ack" data-ack={mark} title={t(`attendance.ack.${mark}`)}>
      <Icon icon={ACK_ICONS[mark]} size={12} />
    </span>
  );
}

function MessageBody({ message }: { message: Message }) {
  const { t } = useTranslation();
  if (message.isDeleted)
    return <span className="message-deleted bp6-text-muted">{t('attendance.deletedMessage')}</span>;
  const media =
    message.mediaUrl && message.mediaType === 'image' ? (
      <AuthenticatedImage path={message.mediaUrl} alt={message.mediaName ?? ''} />
    ) : message.mediaUrl ? (
      <DownloadLink path={message.mediaUrl} name={message.mediaName ?? ''} />
    ) : null;
  const showBody = message.body && message.body !== message.mediaName;
  return (
    <>
      {media}
      {showBody && <span className="message-text">{message.body}</span>}
    </>
  );
}

export function MessageThread({
  ticketId,
  localFailures,
  onRetryLocal,
}: {
  ticketId: number;
  localFailures: LocalFailedSend[];
  onRetryLocal: (failure: LocalFailedSend) => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { data, isLoading, isFetching, error } = useGetMessagesQuery({ ticketId, before: null }, { refetchOnMountOrArgChange: true });
  const [retry] = useRetryMessageMutation();
  const ref = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const heightBeforeOlder = useRef<number | null>(null);
  const messages = data?.messages ?? [];
  const items = threadItems(messages);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (heightBeforeOlder.current !== null) {
      // Older page prepended: keep the same message under the agent's eyes.
      el.scrollTop = el.scrollHeight - heightBeforeOlder.current;
      heightBeforeOlder.current = null;
    } else if (stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [items.length, localFailures.length]);

  useEffect(() => {
    stickToBottom.current = true;
  }, [ticketId]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (el.scrollTop < 40 && data?.hasMore && data.nextBefore && !isFetching) {
      heightBeforeOlder.current = el.scrollHeight;
      void dispatch(
        messagesApi.endpoints.getMessages.initiate({ ticketId, before: data.nextBefore }, { subscribe: false }),
      );
    }
  };

  if (isLoading) return <Spinner className="message-thread-spinner" />;
  if (error) return <div className="message-thread-error">{t('attendance.loadError')}</div>;
  return (
    <div className="message-thread" ref={ref} onScroll={onScroll} data-testid="message-thread">
      {data?.hasMore && isFetching && <Spinner size={16} />}
      {items.map((item) =>
        item.kind === 'day' ? (
          <div key={item.key} className="message-day" data-testid="day-separator">
            <span>{item.label}</span>
          </div>
        ) : (
          <div
            key={item.key}
            className={`message-row ${item.message.fromMe ? 'from-me' : 'from-contact'}${item.message.isPrivate ? ' is-private' : ''}`}
            data-testid="message"
            data-message-id={item.message.id}
          >
            <div className="message-bubble">
              <MessageBody message={item.message} />
              {item.message.status === 'failed' && (
                <div className="message-failed" data-testid="message-failed">
                  <span>{t('attendance.undelivered')}</span>
                  <Button size="small" icon="refresh" variant="minimal" onClick={() => void retry(item.message.id)} data-testid="message-retry">
                    {t('attendance.retry')}
                  </Button>
                </div>
              )}
              <div className="message-meta">
                {item.message.isEdited && <span className="message-edited">{t('attendance.edited')}</span>}
                <span>{formatTime(messageDate(item.message))}</span>
                <AckTick message={item.message} />
              </div>
            </div>
          </div>
        ),
      )}
      {localFailures.map((f) => (
        <div key={f.clientId} className="message-row from-me" data-testid="message-local-failed">
          <div className="message-bubble">
            <span className="message-text">{f.body || f.files.map((file) => file.name).join(', ')}</span>
            <div className="message-failed">
              <span>{t('attendance.undelivered')}</span>
              <Button size="small" icon="refresh" variant="minimal" onClick={() => onRetryLocal(f)} data-testid="message-retry">
                {t('attendance.retry')}
              </Button>
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}
