import { Button, Checkbox, Icon, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messagesApi, useGetMessagesQuery, useRetryMessageMutation, type Message } from '../../api/messages.api';
import { useAppDispatch } from '../../app/store-hooks';
import { AuthenticatedImage, DownloadLink } from './authenticated-media';
import type { ChatTools } from './chat-tools';
import { formatScheduleDate, isForwardable } from './composer-rules';
import { ackMarkOf, formatTime, messageDate, threadItems } from './message-display';
import { MessageMenu } from './message-menu';

export interface LocalFailedSend {
  clientId: string;
  body: string;
  files: File[];
  quotedMsgId?: number | null;
}

/** Older pages read while looking for a search result or a quoted message before giving up. */
const JUMP_MAX_PAGES = 30;

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

function QuotedBlock({ message, onJump }: { message: Message; onJump?: (id: number) => void }) {
  const { t } = useTranslation();
  const quoted = message.quotedMsg;
  if (!quoted) return null;
  return (
    <button type="button" className="message-quoted" onClick={() => onJump?.(quoted.id)} data-testid="message-quoted">
      <strong>{quoted.fromMe ? t('chatTools.reply.you') : t('chatTools.reply.contact')}</strong>
      <span>{quoted.isDeleted ? t('attendance.deletedMessage') : quoted.body || quoted.mediaName || t('chatTools.reply.media')}</span>
    </button>
  );
}

function MessageBody({ message, onJump }: { message: Message; onJump?: (id: number) => void }) {
  const { t } = useTranslation();
  if (message.isDeleted)
    return (
      <span className="message-deleted bp6-text-muted" data-testid="message-deleted">
        <Icon icon="disable" size={12} /> {t('attendance.deletedMessage')}
      </span>
    );
  const media =
    message.mediaUrl && message.mediaType === 'image' ? (
      <AuthenticatedImage path={message.mediaUrl} alt={message.mediaName ?? ''} />
    ) : message.mediaUrl ? (
      <DownloadLink path={message.mediaUrl} name={message.mediaName ?? ''} />
    ) : null;
  const showBody = message.body && message.body !== message.mediaName;
  return (
    <>
      <QuotedBlock message={message} onJump={onJump} />
      {media}
      {showBody && <span className="message-text">{message.body}</span>}
      {message.buttons && message.buttons.length > 0 && (
        <div className="message-buttons" data-testid="message-buttons">
          {message.buttons.map((b) => (
            <span key={b.id} className="message-button-chip">
              {b.title}
            </span>
          ))}
        </div>
      )}
    </>
  );
}

function Reactions({ message }: { message: Message }) {
  const reactions = (message.reactions ?? []).filter((r) => r.emoji);
  if (!reactions.length) return null;
  return (
    <div className="message-reactions" data-testid="message-reactions">
      {reactions.map((r, i) => (
        <span key={`${r.emoji}-${i}`} className={`message-reaction${r.fromMe ? ' is-ours' : ''}`} data-testid="message-reaction">
          {r.emoji}
        </span>
      ))}
    </div>
  );
}

export function MessageThread({
  ticketId,
  localFailures,
  onRetryLocal,
  tools,
}: {
  ticketId: number;
  localFailures: LocalFailedSend[];
  onRetryLocal: (failure: LocalFailedSend) => void;
  tools?: ChatTools;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { data, isLoading, isFetching, error } = useGetMessagesQuery({ ticketId, before: null }, { refetchOnMountOrArgChange: true });
  const [retry] = useRetryMessageMutation();
  const ref = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const heightBeforeOlder = useRef<number | null>(null);
  // Canceled scheduled messages leave the thread (the server lists them out too).
  const messages = (data?.messages ?? []).filter((m) => m.status !== 'canceled');
  const items = threadItems(messages);
  const [flash, setFlash] = useState<number | null>(null);
  const [jumpMissed, setJumpMissed] = useState(false);
  const jumpPages = useRef(0);
  const highlightId = tools?.highlightId ?? null;
  const loaded = highlightId !== null && messages.some((m) => m.id === highlightId);

  // A search result or quote: scroll to the message, paging older ones in until it is loaded.
  useEffect(() => {
    if (highlightId === null) {
      jumpPages.current = 0;
      setJumpMissed(false);
      return;
    }
    const el = ref.current?.querySelector<HTMLElement>(`[data-message-id="${highlightId}"]`);
    if (el) {
      stickToBottom.current = false;
      el.scrollIntoView({ block: 'center' });
      setFlash(highlightId);
      jumpPages.current = 0;
      setJumpMissed(false);
      const timer = setTimeout(() => setFlash(null), 2500);
      return () => clearTimeout(timer);
    }
    if (isFetching) return;
    if (data?.hasMore && data.nextBefore && jumpPages.current < JUMP_MAX_PAGES) {
      jumpPages.current += 1;
      void dispatch(messagesApi.endpoints.getMessages.initiate({ ticketId, before: data.nextBefore }, { subscribe: false }));
    } else setJumpMissed(true);
    return undefined;
  }, [highlightId, loaded, isFetching, data?.hasMore, data?.nextBefore, dispatch, ticketId]);

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
      {jumpMissed && highlightId !== null && (
        <Tag intent="warning" minimal className="message-jump-missed" onRemove={() => tools?.jumpTo(null)}>
          {t('chatTools.search.notFound')}
        </Tag>
      )}
      {items.map((item) =>
        item.kind === 'day' ? (
          <div key={item.key} className="message-day" data-testid="day-separator">
            <span>{item.label}</span>
          </div>
        ) : (
          <div
            key={item.key}
            className={`message-row ${item.message.fromMe ? 'from-me' : 'from-contact'}${item.message.isPrivate ? ' is-private' : ''}${
              item.message.status === 'scheduled' ? ' is-scheduled' : ''
            }${flash === item.message.id ? ' is-highlighted' : ''}${tools?.selected.includes(item.message.id) ? ' is-selected' : ''}`}
            data-testid="message"
            data-message-id={item.message.id}
            data-status={item.message.status}
          >
            {tools?.selecting && (
              <Checkbox
                className="message-select"
                checked={tools.selected.includes(item.message.id)}
                disabled={!isForwardable(item.message)}
                onChange={() => tools.toggleSelected(item.message.id)}
                aria-label={t('chatTools.forward.select')}
                data-testid="message-select"
              />
            )}
            <div className="message-bubble">
              {tools && !tools.selecting && <MessageMenu message={item.message} tools={tools} />}
              {item.message.isPrivate && (
                <span className="message-private-mark" data-testid="message-private">
                  <Icon icon="eye-off" size={10} /> {t('chatTools.ghost.label')}
                </span>
              )}
              <MessageBody message={item.message} onJump={tools?.jumpTo} />
              {item.message.status === 'scheduled' && item.message.scheduleDate && (
                <span className="message-scheduled" data-testid="message-scheduled">
                  <Icon icon="time" size={12} /> {t('chatTools.schedule.scheduledFor', { date: formatScheduleDate(item.message.scheduleDate) })}
                </span>
              )}
              <Reactions message={item.message} />
              {item.message.status === 'failed' && (
                <div className="message-failed" data-testid="message-failed">
                  <span>{t('attendance.undelivered')}</span>
                  <Button size="small" icon="refresh" variant="minimal" onClick={() => void retry(item.message.id)} data-testid="message-retry">
                    {t('attendance.retry')}
                  </Button>
                </div>
              )}
              <div className="message-meta">
                {item.message.isEdited && !item.message.isDeleted && (
                  <span className="message-edited" data-testid="message-edited">
                    {t('attendance.edited')}
                  </span>
                )}
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
