import { Button, InputGroup, Menu, MenuItem, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLazySearchMessagesQuery } from '../../api/messages.api';
import type { ChatTools } from './chat-tools';
import { formatDay, formatTime, messageDate } from './message-display';

/** Searches the open ticket (GET /searchMessage with ticketId); a result jumps to its message. */
export function MessageSearch({ ticketId, tools }: { ticketId: number; tools: ChatTools }) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const [search, { data, isFetching, originalArgs }] = useLazySearchMessagesQuery();
  useEffect(() => {
    const value = term.trim();
    if (!value) return;
    const timer = setTimeout(() => void search({ ticketId, searchParam: value.slice(0, 200) }), 350);
    return () => clearTimeout(timer);
  }, [term, ticketId, search]);
  const shown = term.trim() && originalArgs?.ticketId === ticketId ? data : undefined;
  return (
    <div className="message-search" data-testid="message-search">
      <InputGroup
        leftIcon="search"
        placeholder={t('chatTools.search.placeholder')}
        aria-label={t('chatTools.search.placeholder')}
        value={term}
        autoFocus
        onChange={(e) => setTerm(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') tools.setSearchOpen(false);
          if (e.key === 'Enter' && term.trim()) void search({ ticketId, searchParam: term.trim().slice(0, 200) });
        }}
        rightElement={
          <>
            {isFetching && <Spinner size={16} />}
            <Button icon="cross" variant="minimal" aria-label={t('chatTools.close')} onClick={() => tools.setSearchOpen(false)} />
          </>
        }
        data-testid="message-search-input"
      />
      {shown && (
        <div className="message-search-results">
          <div className="bp6-text-muted message-search-count" data-testid="message-search-count">
            {t('chatTools.search.results', { count: shown.count })}
          </div>
          <Menu>
            {shown.messages.map((m) => {
              const when = messageDate(m);
              return (
                <MenuItem
                  key={m.id}
                  text={m.body || m.mediaName || ''}
                  label={`${formatDay(when)} ${formatTime(when)}`}
                  active={tools.highlightId === m.id}
                  onClick={() => tools.jumpTo(m.id)}
                  data-testid="message-search-result"
                />
              );
            })}
          </Menu>
        </div>
      )}
    </div>
  );
}
