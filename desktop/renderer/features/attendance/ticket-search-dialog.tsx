import { Dialog, DialogBody, InputGroup, Menu, MenuDivider, MenuItem, Spinner } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { CONTACT_SEARCH_MIN_CHARS } from '@shared/limits';
import { useSearchTicketMessagesQuery, useSearchTicketsQuery } from '../../api/tickets.api';
import { formatDay, formatTime } from './message-display';

/**
 * The ticket search modal (spec section 2): contact name, number or protocol through
 * GET /tickets?searchParam= (every status), and message text through GET /searchMessage.
 * Choosing a result opens its ticket.
 */
export function TicketSearchDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const id = setTimeout(() => setTerm(text.trim()), 300);
    return () => clearTimeout(id);
  }, [text]);
  const skip = term.length < CONTACT_SEARCH_MIN_CHARS;
  const tickets = useSearchTicketsQuery(term, { skip });
  const messages = useSearchTicketMessagesQuery(term, { skip });
  const open = (ticketId: number) => {
    onClose();
    navigate(`/atendimento/${ticketId}`);
  };
  const fetching = tickets.isFetching || messages.isFetching;
  const ticketRows = skip ? [] : (tickets.data?.tickets ?? []);
  const messageRows = skip ? [] : (messages.data?.messages ?? []);
  return (
    <Dialog isOpen onClose={onClose} title={t('consolePanel.search.title')} data-testid="ticket-search-dialog" className="console-search-dialog">
      <DialogBody>
        <InputGroup
          autoFocus
          leftIcon="search"
          placeholder={t('consolePanel.search.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          rightElement={fetching ? <Spinner size={16} /> : undefined}
          data-testid="ticket-search-input"
        />
        {skip ? (
          <p className="bp6-text-muted console-search-hint">{t('consolePanel.search.hint', { count: CONTACT_SEARCH_MIN_CHARS })}</p>
        ) : (
          <Menu className="console-search-results" data-testid="ticket-search-results">
            <MenuDivider title={t('consolePanel.search.tickets')} />
            {ticketRows.map((ticket) => (
              <MenuItem
                key={`t-${ticket.id}`}
                icon="chat"
                text={`${ticket.contact?.name ?? ticket.name ?? ''} · ${ticket.contact?.number ?? ''}`}
                label={`#${ticket.protocol ?? ticket.id} · ${t(`attendance.status.${ticket.status}`)}`}
                onClick={() => open(ticket.id)}
                data-testid="ticket-search-result"
                data-ticket-id={ticket.id}
              />
            ))}
            {!tickets.isFetching && ticketRows.length === 0 && <MenuItem disabled text={t('consolePanel.search.none')} />}
            <MenuDivider title={t('consolePanel.search.messages')} />
            {messageRows.map((message) => (
              <MenuItem
                key={`m-${message.id}`}
                icon={message.fromMe ? 'export' : 'import'}
                text={message.body}
                label={`#${message.ticketId} · ${formatDay(new Date(message.createdAt))} ${formatTime(new Date(message.createdAt))}`}
                onClick={() => open(message.ticketId)}
                data-testid="message-search-result"
                data-ticket-id={message.ticketId}
              />
            ))}
            {!messages.isFetching && messageRows.length === 0 && <MenuItem disabled text={t('consolePanel.search.none')} />}
          </Menu>
        )}
      </DialogBody>
    </Dialog>
  );
}
