import { NonIdealState } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { requestNotificationPermission } from './attention';
import { ChatPanel } from './chat-panel';
import { TicketListPanel } from './ticket-list-panel';
import './attendance.css';

/** /atendimento, /atendimento/chats/ and /atendimento/{ticketId}: the ticket list beside the chat. */
export function AttendancePage() {
  const { t } = useTranslation();
  const params = useParams();
  const ticketId = params.ticketId && /^\d+$/.test(params.ticketId) ? Number(params.ticketId) : null;

  useEffect(() => {
    const ask = () => requestNotificationPermission();
    window.addEventListener('pointerdown', ask, { once: true });
    return () => window.removeEventListener('pointerdown', ask);
  }, []);

  return (
    <div className="attendance-page" data-testid="attendance-page">
      <TicketListPanel selectedId={ticketId} />
      <main className="attendance-chat">
        {ticketId ? (
          <ChatPanel key={ticketId} ticketId={ticketId} />
        ) : (
          <div className="chat-empty" data-testid="chat-empty">
            <NonIdealState icon="chat" title={t('attendance.emptyChatTitle')} description={t('attendance.emptyChat')} />
          </div>
        )}
      </main>
    </div>
  );
}
