import { Button, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { ChatHistoryAnswer, ChatMessageDto } from '@shared/schemas/internal-chat';
import { format, isSameDay } from 'date-fns';
import { Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import {
  internalChatApi,
  patchChatHistory,
  useChatHistoryQuery,
  useMarkChatReadMutation,
  type ChatConversationDto,
} from '../../api/internal-chat.api';
import { useAppDispatch } from '../../app/store-hooks';
import {
  applyNewMessageToList,
  applyUpdateToList,
  conversationKey,
  markListRead,
  patchMessage,
  prependOlder,
  upsertMessage,
  type ConversationRef,
} from './chat-cache';
import { ChatComposer } from './chat-composer';
import { ChatMessageRow, type ChatMessageActions } from './chat-message';
import { DeleteChatMessageAlert, EditChatMessageDialog } from './chat-message-dialogs';
import { windowIsAttentive } from './chat-notify';
import { PresenceDot } from './conversation-list';
import { typingState } from './typing-state';

/** Older pages read while looking for a search result or a quoted message before giving up. */
const JUMP_MAX_PAGES = 30;
/** Closer than this to the top, the next older page is read. */
const LOAD_OLDER_PX = 120;
/** Closer than this to the bottom, a new message keeps the view at the bottom. */
const STICK_BOTTOM_PX = 80;
const HIGHLIGHT_MS = 2500;

export function typingText(
  names: readonly string[],
  t: (key: string, options?: Record<string, unknown>) => string,
): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return t('internalChat.typingOne', { name: names[0] });
  return t('internalChat.typingMany', { names: names.slice(0, -1).join(', '), last: names[names.length - 1] });
}

/**
 * The right side of /chat-privado: the conversation's header, its history (newest page first,
 * older pages read on scroll up and kept in place), who is typing, and the composer. Opening it
 * (and coming back to the window) marks it read.
 */
export function ConversationView({
  conversation,
  info,
  viewerId,
  max,
  jumpTo,
  onJumpDone,
  gone = false,
}: {
  conversation: ConversationRef;
  info: ChatConversationDto | null;
  /** The conversation left the caller's list (removed from the team, team deleted): nothing more to show or send. */
  gone?: boolean;
  viewerId: number | null;
  max: number;
  jumpTo: number | null;
  onJumpDone(): void;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const history = useChatHistoryQuery(conversation, { refetchOnMountOrArgChange: true });
  const [markRead] = useMarkChatReadMutation();
  const data = history.data;
  const messages = useMemo(() => data?.messages ?? [], [data]);
  const scroller = useRef<HTMLDivElement | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const loadingRef = useRef(false);
  const prependAnchor = useRef<{ height: number; top: number } | null>(null);
  const stickToBottom = useRef(true);
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const [target, setTarget] = useState<number | null>(jumpTo);
  const jumpPages = useRef(0);
  const [replyTo, setReplyTo] = useState<ChatMessageDto | null>(null);
  const [editing, setEditing] = useState<ChatMessageDto | null>(null);
  const [deleting, setDeleting] = useState<ChatMessageDto | null>(null);
  const key = conversationKey(conversation);

  useEffect(() => {
    setTarget(jumpTo);
    jumpPages.current = 0;
  }, [jumpTo, key]);

  const patchHistory = useCallback(
    (recipe: (draft: ChatHistoryAnswer) => void) =>
      dispatch(internalChatApi.util.updateQueryData('chatHistory', conversation, recipe)),
    [dispatch, key],
  );

  // Reading it marks it read: on open, and again whenever the window comes back with unread messages.
  const unread = info?.unread ?? 0;
  const readNow = useCallback(() => {
    dispatch(
      internalChatApi.util.updateQueryData('chatConversations', undefined, (draft) => void markListRead(draft, conversation)),
    );
    void markRead(conversation);
  }, [dispatch, markRead, key]);
  const loaded = history.isSuccess;
  useEffect(() => {
    if (loaded && windowIsAttentive()) readNow();
  }, [loaded, readNow]);
  useEffect(() => {
    const wake = () => {
      if (unread > 0 && windowIsAttentive()) readNow();
    };
    window.addEventListener('focus', wake);
    document.addEventListener('visibilitychange', wake);
    return () => {
      window.removeEventListener('focus', wake);
      document.removeEventListener('visibilitychange', wake);
    };
  }, [unread, readNow]);

  const loadOlder = useCallback(async (): Promise<boolean> => {
    const el = scroller.current;
    if (loadingRef.current || !data?.hasMore || messages.length === 0) return false;
    loadingRef.current = true;
    setLoadingOlder(true);
    if (el) prependAnchor.current = { height: el.scrollHeight, top: el.scrollTop };
    try {
      const page = await dispatch(
        internalChatApi.endpoints.chatHistoryPage.initiate(
          { ...conversation, before: messages[0].id },
          { subscribe: false, forceRefetch: true },
        ),
      ).unwrap();
      patchHistory((draft) => prependOlder(draft, page));
      return true;
    } catch {
      prependAnchor.current = null;
      return false;
    } finally {
      loadingRef.current = false;
      setLoadingOlder(false);
    }
  }, [data?.hasMore, messages, dispatch, patchHistory, key]);

  // Keep the view where it was after older messages were put above, at the bottom for new ones.
  const firstId = messages[0]?.id;
  const lastId = messages[messages.length - 1]?.id;
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const anchor = prependAnchor.current;
    if (anchor) {
      prependAnchor.current = null;
      el.scrollTop = el.scrollHeight - anchor.height + anchor.top;
      return;
    }
    if (stickToBottom.current && target === null) el.scrollTop = el.scrollHeight;
  }, [firstId, lastId, target]);

  // A search result or a quote: read older pages until the message is there, then show it.
  useEffect(() => {
    if (target === null || !loaded) return;
    const found = messages.some((m) => m.id === target);
    if (found) {
      const row = scroller.current?.querySelector<HTMLElement>(`[data-message-id="${target}"]`);
      row?.scrollIntoView({ block: 'center' });
      stickToBottom.current = false;
      setHighlighted(target);
      setTarget(null);
      onJumpDone();
      return;
    }
    if (!data?.hasMore || jumpPages.current >= JUMP_MAX_PAGES) {
      setTarget(null);
      onJumpDone();
      return;
    }
    jumpPages.current += 1;
    void loadOlder();
  }, [target, loaded, messages, data?.hasMore, loadOlder, onJumpDone]);

  useEffect(() => {
    if (highlighted === null) return;
    const timer = setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [highlighted]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_BOTTOM_PX;
    if (el.scrollTop < LOAD_OLDER_PX) void loadOlder();
  };

  useSyncExternalStore(typingState.subscribe, typingState.version);
  const typing = typingText(typingState.namesIn(conversation), t);

  const applyOwn = (message: ChatMessageDto, isNew: boolean) => {
    patchChatHistory(dispatch, conversation, (draft) =>
      isNew ? upsertMessage(draft, message) : void patchMessage(draft, message),
    );
    dispatch(
      internalChatApi.util.updateQueryData('chatConversations', undefined, (draft) =>
        isNew
          ? void applyNewMessageToList(draft, message, viewerId ?? message.fromUserId, true)
          : applyUpdateToList(draft, message, viewerId ?? message.fromUserId),
      ),
    );
  };

  const actions = useMemo<ChatMessageActions>(
    () => ({
      onReply: setReplyTo,
      onEdit: setEditing,
      onDelete: setDeleting,
      onJump: (id) => setTarget(id),
    }),
    [],
  );

  const notFound = history.isError || gone;

  return (
    <section
      className="ichat-conversation"
      data-testid="chat-conversation-view"
      data-kind={conversation.kind}
      data-id={conversation.id}
    >
      <header className="ichat-conversation-header">
        {conversation.kind === 'user' ? (
          <PresenceDot presence={info?.presence ?? null} />
        ) : (
          <span className="ichat-team-mark">#</span>
        )}
        <strong className="ichat-conversation-name" data-testid="chat-conversation-title">
          {info?.name ?? '…'}
        </strong>
        {conversation.kind === 'user' && info?.presence ? (
          <span className="bp6-text-muted ichat-conversation-sub">{t(`internalChat.presence.${info.presence}`)}</span>
        ) : null}
        {conversation.kind === 'team' && info?.members !== null && info?.members !== undefined ? (
          <Tag minimal round icon="people">
            {t('internalChat.members', { count: info.members })}
          </Tag>
        ) : null}
      </header>
      <div className="ichat-thread" ref={scroller} onScroll={onScroll} data-testid="chat-thread">
        {history.isLoading ? (
          <NonIdealState icon={<Spinner size={30} />} />
        ) : notFound ? (
          <div data-testid="chat-not-found">
            <NonIdealState icon="disable" title={t('internalChat.notFound')} />
          </div>
        ) : (
          <>
            {data?.hasMore ? (
              <div className="ichat-older">
                <Button
                  variant="minimal"
                  size="small"
                  loading={loadingOlder}
                  text={t('internalChat.loadOlder')}
                  onClick={() => void loadOlder()}
                  data-testid="chat-load-older"
                />
              </div>
            ) : messages.length > 0 ? (
              <p className="ichat-start bp6-text-muted" data-testid="chat-history-start">
                {t('internalChat.historyStart')}
              </p>
            ) : null}
            {messages.length === 0 ? (
              <p className="ichat-empty bp6-text-muted" data-testid="chat-thread-empty">
                {t('internalChat.noMessages')}
              </p>
            ) : null}
            {messages.map((message, index) => {
              const previous = messages[index - 1];
              const day = new Date(message.createdAt);
              const newDay = !previous || !isSameDay(new Date(previous.createdAt), day);
              return (
                <Fragment key={message.id}>
                  {newDay ? (
                    <div className="ichat-day" data-testid="chat-day">
                      <span>{format(day, 'dd/MM/yyyy')}</span>
                    </div>
                  ) : null}
                  <ChatMessageRow
                    message={message}
                    viewerId={viewerId}
                    showAuthor={conversation.kind === 'team'}
                    highlighted={highlighted === message.id}
                    actions={actions}
                  />
                </Fragment>
              );
            })}
          </>
        )}
      </div>
      <div className="ichat-typing" aria-live="polite" data-testid="chat-typing">
        {typing}
      </div>
      <ChatComposer
        key={key}
        conversation={conversation}
        max={max}
        replyTo={replyTo}
        onCancelReply={() => setReplyTo(null)}
        disabled={notFound}
        onSent={(message) => {
          stickToBottom.current = true;
          applyOwn(message, true);
        }}
      />
      {editing ? (
        <EditChatMessageDialog message={editing} max={max} onClose={() => setEditing(null)} onSaved={(m) => applyOwn(m, false)} />
      ) : null}
      <DeleteChatMessageAlert message={deleting} onClose={() => setDeleting(null)} onDeleted={(m) => applyOwn(m, false)} />
    </section>
  );
}
