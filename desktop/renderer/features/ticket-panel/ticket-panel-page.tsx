import { Callout, Card, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { SOCKET_EVENTS } from '@shared/events';
import type { PanelTicket } from '@shared/schemas/statistics';
import { useListQueuesQuery } from '../../api/queues.api';
import { useTicketPanelQuery } from '../../api/statistics.api';
import { useLiveRefresh, useSettledRefetch } from '../../app/realtime/live-refresh';
import { pathTo } from '../../app/routing/route-table';
import { formatClock } from '../dashboard/dashboard-format';
import { QueueMultiSelect } from '../dashboard/queue-multi-select';
import { boardLanes, panelTotals, waitIntent, waitingNow, type PanelLane } from './ticket-panel-logic';
import './ticket-panel.css';

const LIVE_EVENTS = [
  SOCKET_EVENTS.ticketCreate,
  SOCKET_EVENTS.ticketUpdate,
  SOCKET_EVENTS.ticketDelete,
  SOCKET_EVENTS.messageCreate,
  SOCKET_EVENTS.userStatus,
];

/** Re-renders every second while mounted: waiting times tick. */
function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

interface QueueLook {
  name: string;
  color: string | null;
}

function TicketCard({
  ticket,
  queue,
  elapsedMs,
  onOpen,
}: {
  ticket: PanelTicket;
  queue: QueueLook | null;
  elapsedMs: number;
  onOpen(): void;
}) {
  const { t } = useTranslation();
  const waiting = waitingNow(ticket, elapsedMs);
  const intent = waitIntent(waiting);
  return (
    <Card
      interactive
      compact
      className="panel-ticket"
      style={queue?.color ? { borderLeftColor: queue.color } : undefined}
      onClick={onOpen}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          onOpen();
        }
      }}
      tabIndex={0}
      role="link"
      aria-label={t('ticketPanel.openTicket', { name: ticket.contactName })}
      data-testid="panel-ticket"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
    >
      <div className="panel-ticket-head">
        <strong className="panel-ticket-name">{ticket.contactName}</strong>
        <Tag
          minimal
          intent={intent === 'none' ? 'none' : intent}
          icon="time"
          data-testid="panel-ticket-wait"
          title={t('ticketPanel.waiting')}
        >
          {waiting === null ? t('ticketPanel.answered') : formatClock(waiting)}
        </Tag>
      </div>
      <div className="panel-ticket-meta">
        <Tag minimal round intent={ticket.status === 'pending' ? 'warning' : 'primary'}>
          {t(`ticketPanel.status.${ticket.status}`)}
        </Tag>
        {queue ? (
          <span className="panel-ticket-queue">
            <span className="queue-swatch" style={{ background: queue.color ?? undefined }} />
            {queue.name}
          </span>
        ) : (
          <span className="panel-ticket-queue is-muted">{t('ticketPanel.noQueue')}</span>
        )}
      </div>
      {ticket.lastMessage ? <p className="panel-ticket-last">{ticket.lastMessage}</p> : null}
    </Card>
  );
}

function LaneColumn({ lane, queues, elapsedMs }: { lane: PanelLane; queues: ReadonlyMap<number, QueueLook>; elapsedMs: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hidden = lane.open + lane.pending - lane.tickets.length;
  return (
    <section
      className="panel-lane"
      data-testid="panel-lane"
      data-user-id={lane.userId ?? 'none'}
      aria-label={lane.userId === null ? t('ticketPanel.noAgent') : lane.name}
    >
      <header className="panel-lane-head">
        {lane.userId !== null ? <span className={`presence-dot ${lane.online ? 'is-online' : ''}`} aria-hidden /> : null}
        <strong className="panel-lane-name">{lane.userId === null ? t('ticketPanel.noAgent') : lane.name}</strong>
        <span className="panel-lane-counts" data-testid="panel-lane-counts">
          <Tag minimal round intent="primary" title={t('ticketPanel.status.open')}>
            {lane.open}
          </Tag>
          <Tag minimal round intent="warning" title={t('ticketPanel.status.pending')}>
            {lane.pending}
          </Tag>
        </span>
      </header>
      <div className="panel-lane-tickets">
        {lane.tickets.length === 0 ? <p className="panel-lane-empty">{t('ticketPanel.laneEmpty')}</p> : null}
        {lane.tickets.map((ticket) => (
          <TicketCard
            key={ticket.id}
            ticket={ticket}
            queue={ticket.queueId === null ? null : (queues.get(ticket.queueId) ?? null)}
            elapsedMs={elapsedMs}
            onOpen={() => navigate(pathTo('chat', { ticketId: ticket.id }, { t: Date.now() }))}
          />
        ))}
        {hidden > 0 ? <p className="panel-lane-more">{t('ticketPanel.more', { count: hidden })}</p> : null}
      </div>
    </section>
  );
}

/**
 * /painel-atendimentos (administrators): every agent's open and pending tickets, oldest waiting
 * first, waiting times ticking, queue colours and the queue summary; live from the socket.
 * A click opens the ticket in the attendance screen.
 */
export function TicketPanelPage() {
  const { t } = useTranslation();
  const [queuesIds, setQueuesIds] = useState<number[]>([]);
  const panel = useTicketPanelQuery({ queuesIds });
  const queuesList = useListQueuesQuery();
  useLiveRefresh(LIVE_EVENTS, useSettledRefetch(panel));
  const now = useNow();
  const elapsedMs = panel.fulfilledTimeStamp ? now - panel.fulfilledTimeStamp : 0;

  const queues = useMemo(() => {
    const looks = new Map<number, QueueLook>();
    for (const queue of queuesList.data ?? []) looks.set(queue.id, { name: queue.name, color: queue.color });
    for (const queue of panel.data?.queues ?? [])
      if (queue.queueId !== null) looks.set(queue.queueId, { name: queue.name, color: queue.color });
    return looks;
  }, [queuesList.data, panel.data]);
  const lanes = boardLanes(panel.data);
  const totals = panelTotals(panel.data);

  let board;
  if (panel.isError && !panel.data)
    board = (
      <Callout intent="warning" icon="error">
        {t('ticketPanel.loadFailed')}
      </Callout>
    );
  else if (!panel.data) board = <NonIdealState icon={<Spinner size={40} />} />;
  else
    board = (
      <div className="panel-board" data-testid="panel-board">
        {lanes.map((lane) => (
          <LaneColumn key={lane.userId ?? 'none'} lane={lane} queues={queues} elapsedMs={elapsedMs} />
        ))}
      </div>
    );

  return (
    <div className="page ticket-panel-page" data-testid="ticket-panel-page">
      <header className="panel-header">
        <h2 className="panel-title">{t('routes.painelAtendimentos')}</h2>
        <div className="panel-totals" data-testid="panel-totals">
          <Tag large minimal intent="primary" data-testid="panel-total-open">
            {t('ticketPanel.totals.open', { count: totals.open })}
          </Tag>
          <Tag large minimal intent="warning" data-testid="panel-total-pending">
            {t('ticketPanel.totals.pending', { count: totals.pending })}
          </Tag>
          <Tag large minimal intent="success">
            {t('ticketPanel.totals.online', { count: totals.agentsOnline })}
          </Tag>
        </div>
        <QueueMultiSelect queues={queuesList.data ?? []} value={queuesIds} onChange={setQueuesIds} testId="panel-queues" />
      </header>
      {panel.data ? (
        <ul className="panel-queue-summary" data-testid="panel-queue-summary" aria-label={t('ticketPanel.queueSummary')}>
          {panel.data.queues.map((queue) => (
            <li
              key={queue.queueId ?? 'none'}
              className="panel-queue"
              data-testid="panel-queue"
              data-queue-id={queue.queueId ?? 'none'}
            >
              <span className="queue-swatch" style={{ background: queue.color ?? undefined }} />
              <span className="panel-queue-name">{queue.queueId === null ? t('ticketPanel.noQueue') : queue.name}</span>
              <Tag minimal round intent="primary" title={t('ticketPanel.status.open')}>
                {queue.open}
              </Tag>
              <Tag minimal round intent="warning" title={t('ticketPanel.status.pending')}>
                {queue.pending}
              </Tag>
            </li>
          ))}
        </ul>
      ) : null}
      {board}
    </div>
  );
}
