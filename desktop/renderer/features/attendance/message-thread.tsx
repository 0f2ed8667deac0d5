import { Button, Checkbox, Icon, Spinner, Tag } from '@blueprintjs/core';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messagesApi, useGetMessagesQuery, useRetryMessageMutation, type Message } from '../../api/messages.api';
import { useAppDispatch } from '../../app/store-hooks';
import { AuthenticatedImage, DownloadLink } from './authenticated-media';
import type { ChatTools } from './chat-tools';
import { formatScheduleDate, isForwardable } from './composer-rules';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { ackMarkOf, formatTime, messageDate, threadItems } from './message-display';
import { MessageMenu } from './message-menu';
import { OutboxBubbles } from './outbox-bubbles';
import { estimateItemHeight } from './thread-window';
import { useVirtualThread } from './use-virtual-thread';

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

/** One message of the thread (memoised: scrolling re-renders the window, not the rows already shown). */
const MessageRow = memo(function MessageRow({
  message,
  tools,
  highlighted,
  onRetry,
}: {
  message: Message;
  tools?: ChatTools;
  highlighted: boolean;
  onRetry: (id: number) => void;
}) {
  const { t } = useTranslation();
  const selected = tools?.selected.includes(message.id) ?? false;
  return (
    <div
      className={`message-row ${message.fromMe ? 'from-me' : 'from-contact'}${message.isPrivate ? ' is-private' : ''}${
        message.status === 'scheduled' ? ' is-scheduled' : ''
      }${highlighted ? ' is-highlighted' : ''}${selected ? ' is-selected' : ''}`}
      data-testid="message"
      data-message-id={message.id}
      data-status={message.status}
    >
      {tools?.selecting && (
        <Checkbox
          className="message-select"
          checked={selected}
          disabled={!isForwardable(message)}
          onChange={() => tools.toggleSelected(message.id)}
          aria-label={t('chatTools.forward.select')}
          data-testid="message-select"
        />
      )}
      <div className="message-bubble">
        {tools && !tools.selecting && <MessageMenu message={message} tools={tools} />}
        {message.isPrivate && (
          <span className="message-private-mark" data-testid="message-private">
            <Icon icon="eye-off" size={10} /> {t('chatTools.ghost.label')}
          </span>
        )}
        <MessageBody message={message} onJump={tools?.jumpTo} />
        {message.status === 'scheduled' && message.scheduleDate && <ScheduledMark scheduleDate={message.scheduleDate} />}
        <Reactions message={message} />
        {message.status === 'failed' && (
          <div className="message-failed" data-testid="message-failed">
            <span>{message.flags?.unconfirmed ? t('attendance.unconfirmed') : t('attendance.undelivered')}</span>
            <Button size="small" icon="refresh" variant="minimal" onClick={() => onRetry(message.id)} data-testid="message-retry">
              {t('attendance.retry')}
            </Button>
          </div>
        )}
        <div className="message-meta">
          {message.isEdited && !message.isDeleted && (
            <span className="message-edited" data-testid="message-edited">
              {t('attendance.edited')}
            </span>
          )}
          <span>{formatTime(messageDate(message))}</span>
          <AckTick message={message} />
        </div>
      </div>
    </div>
  );
});

const NO_MESSAGES: Message[] = [];

/**
 * The ticket's thread, oldest first, virtualised: only the rows around the viewport are in the
 * DOM (rows of any height, measured once rendered), older pages load when the agent scrolls up
 * (the message on screen stays put), and a new message scrolls into view while the agent is at
 * the bottom. `data-loaded-messages` on the thread tells how many messages are loaded.
 */
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
  // Fresh on every open: ChatPanel (mounted per ticket) subscribes with refetchOnMountOrArgChange.
  const { data, isLoading, isFetching, error } = useGetMessagesQuery({ ticketId, before: null });
  const [retry] = useRetryMessageMutation();
  const onRetry = useCallback((id: number) => void retry(id), [retry]);
  const raw = data?.messages ?? NO_MESSAGES;
  // Canceled scheduled messages leave the thread (the server lists them out too).
  const messages = useMemo(() => raw.filter((m) => m.status !== 'canceled'), [raw]);
  if (isLoading) return <Spinner className="message-thread-spinner" />;
  if (error) return <div className="message-thread-error">{t('attendance.loadError')}</div>;
  return (
    <ThreadViewport
      ticketId={ticketId}
      messages={messages}
      hasMore={data?.hasMore ?? false}
      nextBefore={data?.nextBefore ?? null}
      isFetching={isFetching}
      tools={tools}
      onRetry={onRetry}
      localFailures={localFailures}
      onRetryLocal={onRetryLocal}
    />
  );
}

function ThreadViewport({
  ticketId,
  messages,
  hasMore,
  nextBefore,
  isFetching,
  tools,
  onRetry,
  localFailures,
  onRetryLocal,
}: {
  ticketId: number;
  messages: Message[];
  hasMore: boolean;
  nextBefore: number | null;
  isFetching: boolean;
  tools?: ChatTools;
  onRetry: (id: number) => void;
  localFailures: LocalFailedSend[];
  onRetryLocal: (failure: LocalFailedSend) => void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const items = useMemo(() => threadItems(messages), [messages]);
  const keys = useMemo(() => items.map((item) => item.key), [items]);
  const estimate = useCallback((index: number) => estimateItemHeight(items[index]), [items]);
  const [flash, setFlash] = useState<number | null>(null);
  const [jumpMissed, setJumpMissed] = useState(false);
  const jumpPages = useRef(0);
  const highlightId = tools?.highlightId ?? null;
  const loaded = highlightId !== null && messages.some((m) => m.id === highlightId);

  const loadOlder = useCallback(() => {
    if (!hasMore || !nextBefore || isFetching) return;
    void dispatch(messagesApi.endpoints.getMessages.initiate({ ticketId, before: nextBefore }, { subscribe: false }));
  }, [hasMore, nextBefore, isFetching, dispatch, ticketId]);

  const thread = useVirtualThread({ keys, estimate, onNearTop: loadOlder });
  const { scrollToKey } = thread;

  // A search result or quote: scroll to the message (once per jump), paging older ones in until it is loaded.
  const jumpSeq = tools?.jumpSeq ?? 0;
  const jumpedTo = useRef<{ id: number; seq: number } | null>(null);
  const pagingFor = useRef(jumpSeq);
  useEffect(() => {
    if (pagingFor.current !== jumpSeq) {
      // A new jump: its own budget of older pages.
      pagingFor.current = jumpSeq;
      jumpPages.current = 0;
      setJumpMissed(false);
    }
    if (highlightId === null) {
      jumpPages.current = 0;
      setJumpMissed(false);
      return;
    }
    if (jumpedTo.current?.id === highlightId && jumpedTo.current.seq === jumpSeq) return;
    if (loaded && scrollToKey(`m-${highlightId}`)) {
      jumpedTo.current = { id: highlightId, seq: jumpSeq };
      setFlash(highlightId);
      jumpPages.current = 0;
      setJumpMissed(false);
      return;
    }
    if (isFetching) return;
    if (hasMore && nextBefore && jumpPages.current < JUMP_MAX_PAGES) {
      jumpPages.current += 1;
      void dispatch(messagesApi.endpoints.getMessages.initiate({ ticketId, before: nextBefore }, { subscribe: false }));
    } else setJumpMissed(true);
  }, [highlightId, jumpSeq, loaded, isFetching, hasMore, nextBefore, dispatch, ticketId, scrollToKey]);
  useEffect(() => {
    if (flash === null) return;
    const timer = setTimeout(() => setFlash(null), 2500);
    return () => clearTimeout(timer);
  }, [flash]);

  const { window: win } = thread;
  return (
    <div
      className="message-thread"
      ref={thread.containerRef}
      onScroll={thread.onScroll}
      data-testid="message-thread"
      data-loaded-messages={messages.length}
      data-rendered={win.end - win.start}
    >
      {hasMore && isFetching && <Spinner size={16} />}
      {jumpMissed && highlightId !== null && (
        <Tag intent="warning" minimal className="message-jump-missed" onRemove={() => tools?.jumpTo(null)}>
          {t('chatTools.search.notFound')}
        </Tag>
      )}
      <div className="message-thread-rows" ref={thread.listRef} style={{ paddingTop: win.padTop, paddingBottom: win.padBottom }}>
        {items.slice(win.start, win.end).map((item) => (
          <div key={item.key} className="message-thread-item" data-key={item.key}>
            {item.kind === 'day' ? (
              <div className="message-day" data-testid="day-separator">
                <span>{item.label}</span>
              </div>
            ) : (
              <MessageRow message={item.message} tools={tools} highlighted={flash === item.message.id} onRetry={onRetry} />
            )}
          </div>
        ))}
      </div>
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
      <OutboxBubbles ticketId={ticketId} messages={messages} />
    </div>
  );
}

/** When a scheduled message goes, in the tenant's time zone (as the dialog that scheduled it). */
function ScheduledMark({ scheduleDate }: { scheduleDate: string }) {
  const { t } = useTranslation();
  const timeZone = useTenantTimeZone();
  return (
    <span className="message-scheduled" data-testid="message-scheduled">
      <Icon icon="time" size={12} /> {t('chatTools.schedule.scheduledFor', { date: formatScheduleDate(scheduleDate, timeZone) })}
    </span>
  );
}
