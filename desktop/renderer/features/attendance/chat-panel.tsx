import { NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-mapper';
import { useGetMessagesQuery } from '../../api/messages.api';
import { useGetTicketQuery, useUpdateTicketMutation } from '../../api/tickets.api';
import { useChatTools } from './chat-tools';
import { Composer, useTicketSender } from './composer';
import { MessageSearch } from './message-search';
import { MessageThread } from './message-thread';
import { TicketActions } from './ticket-actions';

/** The panel only starts the thread's request: its results re-render the thread, not the panel. */
const NOTHING = {};
const selectNothing = () => NOTHING;

export function ChatPanel({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const { data: ticket, error, isLoading } = useGetTicketQuery(ticketId, { refetchOnMountOrArgChange: true });
  // The thread's newest page is fetched with the ticket, not after it (no request waterfall on open);
  // the thread below reads the same cache entry.
  useGetMessagesQuery({ ticketId, before: null }, { refetchOnMountOrArgChange: true, selectFromResult: selectNothing });
  const sender = useTicketSender(ticketId);
  const tools = useChatTools(ticketId);
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [updateTicket] = useUpdateTicketMutation();
  const unread = ticket?.unreadMessages ?? 0;
  useEffect(() => {
    // The agent is reading this thread: what arrives while it is on screen is read.
    if (unread > 0 && document.visibilityState === 'visible') void updateTicket({ id: ticketId, body: { unreadMessages: 0 } });
  }, [unread, ticketId, updateTicket]);

  if (isLoading) return <Spinner className="chat-spinner" />;
  if (error || !ticket)
    return (
      <div className="chat-empty" data-testid="chat-error">
        <NonIdealState icon="error" title={t('attendance.openError')} description={error ? describeError(error, t) : undefined} />
      </div>
    );

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const dropped = Array.from(e.dataTransfer.files ?? []);
    if (dropped.length) setFiles((current) => [...current, ...dropped]);
  };
  const name = ticket.contact?.name ?? ticket.name ?? '';
  return (
    <section
      className={`chat-panel${dragging ? ' is-dragging' : ''}`}
      data-testid="chat-panel"
      data-ticket-status={ticket.status}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <header className="chat-header">
        <div className="chat-header-contact">
          <strong data-testid="chat-contact-name">{name}</strong>
          <span className="bp6-text-muted">
            {ticket.contact?.number} · #{ticket.protocol ?? ticket.id}
          </span>
        </div>
        <Tag minimal data-testid="chat-status">
          {t(`attendance.status.${ticket.status}`)}
        </Tag>
        {ticket.queue && <Tag minimal>{ticket.queue.name}</Tag>}
        {ticket.user && <Tag minimal icon="person">{ticket.user.name}</Tag>}
        <span className="chat-header-spacer" />
        <TicketActions ticket={ticket} />
      </header>
      {tools.searchOpen && <MessageSearch ticketId={ticketId} tools={tools} />}
      <MessageThread ticketId={ticketId} localFailures={sender.failures} onRetryLocal={(f) => void sender.retry(f)} tools={tools} />
      <Composer
        ticketId={ticketId}
        disabled={ticket.status === 'closed'}
        files={files}
        setFiles={setFiles}
        sender={sender}
        tools={tools}
        isGroup={ticket.isGroup}
      />
    </section>
  );
}
