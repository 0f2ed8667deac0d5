import { Button, InputGroup, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { INTERNAL_CHAT_SEARCH_MIN_CHARS, type ChatKind } from '@shared/schemas/internal-chat';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useChatConversationsQuery } from '../../api/internal-chat.api';
import { useListSettingsQuery } from '../../api/settings.api';
import { PageHeader } from '../../app/layout/page-header';
import { useAppSelector } from '../../app/store-hooks';
import { conversationFromParams, conversationKey, filterByName, sortConversations, type ConversationRef } from './chat-cache';
import { messageLimitOf } from './chat-limits';
import { requestChatNotificationPermission } from './chat-notify';
import { setOpenConversation } from './chat-realtime';
import { ChatSearchResults } from './chat-search-results';
import { ConversationList } from './conversation-list';
import { ConversationView } from './conversation-view';
import './internal-chat.css';

const SEARCH_DEBOUNCE_MS = 300;

/**
 * /chat-privado (every tenant profile; issue #18): on the left the Usuários and Equipes tabs with
 * each conversation's presence, last message and unread count, and a search of the messages; on
 * the right the open conversation (`?kind=user|team&id=`, `&message=` to open it at a message, as
 * search results, notifications and mentions link it).
 */
export function InternalChatPage() {
  const { t } = useTranslation();
  const viewerId = useAppSelector((s) => s.session.userId);
  const [params, setParams] = useSearchParams();
  const selected = conversationFromParams(params);
  const selectedKey = selected ? conversationKey(selected) : null;
  const jumpTo = Number(params.get('message')) || null;
  const [tab, setTab] = useState<ChatKind>(selected?.kind ?? 'user');
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const conversations = useChatConversationsQuery();
  const settings = useListSettingsQuery();
  const max = messageLimitOf(settings.data);

  useEffect(() => requestChatNotificationPermission(), []);

  // The realtime module counts a message as read at once only in the conversation on screen.
  const selectedKind = selected?.kind;
  const selectedId = selected?.id;
  useEffect(() => {
    setOpenConversation(selectedKind && selectedId ? { kind: selectedKind, id: selectedId } : null);
    return () => setOpenConversation(null);
  }, [selectedKind, selectedId]);

  // Opening a conversation from a link (notification, search, mention) shows its tab.
  useEffect(() => {
    if (selectedKind) setTab(selectedKind);
  }, [selectedKind]);

  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const all = useMemo(() => sortConversations(conversations.data ?? []), [conversations.data]);
  const ofTab = useMemo(
    () =>
      filterByName(
        all.filter((c) => c.kind === tab),
        search,
      ),
    [all, tab, search],
  );
  const unreadOf = (kind: ChatKind) => all.filter((c) => c.kind === kind).reduce((sum, c) => sum + c.unread, 0);
  const info = selected ? (all.find((c) => c.kind === selected.kind && c.id === selected.id) ?? null) : null;

  const open = (ref: ConversationRef, messageId?: number) => {
    const next = new URLSearchParams({ kind: ref.kind, id: String(ref.id) });
    if (messageId) next.set('message', String(messageId));
    setParams(next);
  };
  const jumpDone = useCallback(() => {
    setParams(
      (current) => {
        if (!current.has('message')) return current;
        const next = new URLSearchParams(current);
        next.delete('message');
        return next;
      },
      { replace: true },
    );
  }, [setParams]);

  const tabTitle = (kind: ChatKind) => {
    const count = unreadOf(kind);
    return (
      <span data-testid={`chat-tab-${kind}`}>
        {t(kind === 'user' ? 'internalChat.tabs.users' : 'internalChat.tabs.teams')}
        {count > 0 ? (
          <Tag round minimal intent="primary" className="ichat-tab-count" data-testid={`chat-tab-${kind}-unread`}>
            {count}
          </Tag>
        ) : null}
      </span>
    );
  };

  const searching = query.length >= INTERNAL_CHAT_SEARCH_MIN_CHARS;
  const emptyText = search.trim()
    ? t('internalChat.noMatch')
    : tab === 'user'
      ? t('internalChat.noColleagues')
      : t('internalChat.noTeams');

  return (
    <div className="page internal-chat-page" data-testid="page-chatPrivado">
      <PageHeader title={t('routes.chatPrivado')} />
      <div className="ichat-layout">
        <aside className="ichat-sidebar" aria-label={t('internalChat.conversations')}>
          <Tabs id="chat-tabs" selectedTabId={tab} onChange={(id) => setTab(id as ChatKind)} className="ichat-tabs">
            <Tab id="user" title={tabTitle('user')} />
            <Tab id="team" title={tabTitle('team')} />
          </Tabs>
          <div className="ichat-search">
            <InputGroup
              type="search"
              leftIcon="search"
              value={search}
              onChange={(event) => setSearch(event.currentTarget.value)}
              placeholder={t('internalChat.search.placeholder')}
              aria-label={t('internalChat.search.placeholder')}
              rightElement={
                search ? (
                  <Button
                    icon="cross"
                    variant="minimal"
                    aria-label={t('internalChat.search.clear')}
                    onClick={() => setSearch('')}
                  />
                ) : undefined
              }
              data-testid="chat-search"
            />
            {search.trim().length > 0 && search.trim().length < INTERNAL_CHAT_SEARCH_MIN_CHARS ? (
              <small className="bp6-text-muted" data-testid="chat-search-hint">
                {t('internalChat.search.minChars', { count: INTERNAL_CHAT_SEARCH_MIN_CHARS })}
              </small>
            ) : null}
          </div>
          <div className="ichat-sidebar-scroll">
            {conversations.isLoading ? (
              <NonIdealState icon={<Spinner size={24} />} />
            ) : (
              <ConversationList
                conversations={ofTab}
                selected={selected}
                viewerId={viewerId}
                onOpen={open}
                emptyText={emptyText}
              />
            )}
            {searching ? (
              <>
                <h6 className="ichat-section-title">{t('internalChat.search.messages')}</h6>
                <ChatSearchResults q={query} viewerId={viewerId} conversations={all} onOpen={open} />
              </>
            ) : null}
          </div>
        </aside>
        {selected ? (
          <ConversationView
            key={selectedKey}
            conversation={selected}
            info={info}
            viewerId={viewerId}
            max={max}
            jumpTo={jumpTo}
            onJumpDone={jumpDone}
            gone={selected.kind === 'team' && conversations.isSuccess && !conversations.isFetching && info === null}
          />
        ) : (
          <div className="ichat-conversation ichat-none">
            <NonIdealState icon="chat" title={t('internalChat.pick')} description={t('internalChat.pickHelp')} />
          </div>
        )}
      </div>
    </div>
  );
}
