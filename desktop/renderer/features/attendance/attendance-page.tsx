import { NonIdealState } from '@blueprintjs/core';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { DesktopApi } from '@shared/desktop-api';
import { requestNotificationPermission } from './attention';
import { ChatPanel } from './chat-panel';
import { useContactPanelOpen } from './contact-panel/panel-visibility';
import { pageNumberOf } from './ticket-filters';
import { TicketListPanel } from './ticket-list-panel';
import './attendance.css';

/**
 * The contact panel (with the phone-number metadata it formats numbers with) loads when a ticket
 * is first opened, not with the list: the agent's first ticket row does not wait for it.
 */
const ContactPanel = lazy(() => import('./contact-panel/contact-panel').then((module) => ({ default: module.ContactPanel })));

/** /atendimento, /atendimento/chats/ and /atendimento/{ticketId}: the ticket list beside the chat. */
export function AttendancePage() {
  const { t } = useTranslation();
  const params = useParams();
  const navigate = useNavigate();
  const ticketId = params.ticketId && /^\d+$/.test(params.ticketId) ? Number(params.ticketId) : null;
  // Spec section 2: the chat route's pageNumber (pages the list holds) and t (a timestamp: a new
  // one opens the ticket afresh, e.g. a notification for the ticket already on screen).
  const pageNumber = pageNumberOf(params.pageNumber);
  const [query] = useSearchParams();
  const openedAt = query.get('t') ?? '';
  const panelOpen = useContactPanelOpen();

  useEffect(() => {
    const ask = () => requestNotificationPermission();
    window.addEventListener('pointerdown', ask, { once: true });
    return () => window.removeEventListener('pointerdown', ask);
  }, []);

  useEffect(() => {
    // A click on the desktop's native notification opens its ticket.
    const bridge = (window as unknown as { desktop?: Pick<DesktopApi, 'onNotificationClick'> }).desktop;
    return bridge?.onNotificationClick?.(({ ticketId: clicked }) => navigate(`/atendimento/${clicked}`));
  }, [navigate]);

  return (
    <div className="attendance-page" data-testid="attendance-page">
      <TicketListPanel selectedId={ticketId} pageNumber={pageNumber} />
      <main className="attendance-chat">
        {ticketId ? (
          <ChatPanel key={`${ticketId}:${openedAt}`} ticketId={ticketId} />
        ) : (
          <div className="chat-empty" data-testid="chat-empty">
            <NonIdealState icon="chat" title={t('attendance.emptyChatTitle')} description={t('attendance.emptyChat')} />
          </div>
        )}
      </main>
      {ticketId && panelOpen && (
        <Suspense fallback={null}>
          <ContactPanel key={`${ticketId}:${openedAt}`} ticketId={ticketId} />
        </Suspense>
      )}
    </div>
  );
}
