import { Button, Checkbox, InputGroup, Popover, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { TICKET_LIST_LOAD_MORE_MS } from '@shared/limits';
import {
  useGetAttendanceQueuesQuery,
  useGetTicketsQuery,
  ticketsApi,
  type Ticket,
  type TicketListFilter,
  type TicketStatus,
} from '../../api/tickets.api';
import { useGetUserQuery, useUpdateUserConfigsMutation } from '../../api/users.api';
import { useAppDispatch, useAppSelector } from '../../app/store-hooks';
import type { RootState } from '../../app/store';
import { refreshUnreadAttention } from './attention';
import { createLoadMoreGate } from './list-window';
import { formatDay, formatTime } from './message-display';
import { VirtualList } from './virtual-list';

export type ListTab = 'active' | 'open' | 'pending' | 'closed';
const TAB_STATUSES: Record<ListTab, TicketStatus[]> = {
  active: ['open', 'pending'],
  open: ['open'],
  pending: ['pending'],
  closed: ['closed'],
};

const ROW_HEIGHT = 68;

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return debounced;
}

function readSavedQueues(configs: unknown): number[] {
  const filters = (configs as { filtrosAtendimento?: { queuesIds?: unknown } } | null)?.filtrosAtendimento;
  const ids = filters && typeof filters === 'object' ? (filters as { queuesIds?: unknown }).queuesIds : null;
  return Array.isArray(ids) ? ids.filter((x): x is number => typeof x === 'number') : [];
}

function storedFilters(): Record<string, unknown> {
  try {
    const raw = localStorage.getItem('filtrosAtendimento');
    const parsed = raw ? JSON.parse(raw) : null;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

function shortTime(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return formatDay(date) === formatDay(new Date()) ? formatTime(date) : formatDay(date);
}

export function TicketListPanel({ selectedId }: { selectedId: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const userId = useAppSelector((s) => s.session.userId);
  const [tab, setTab] = useState<ListTab>('active');
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search, 300);
  const { data: user } = useGetUserQuery(userId ?? 0, { skip: !userId });
  const [queuesIds, setQueuesIds] = useState<number[] | null>(null);
  const savedQueues = useMemo(
    () => (user ? readSavedQueues(user.configs) : readSavedQueues({ filtrosAtendimento: storedFilters() })),
    [user],
  );
  const effectiveQueues = queuesIds ?? savedQueues;
  const { data: queues } = useGetAttendanceQueuesQuery();
  const [saveConfigs] = useUpdateUserConfigsMutation();

  const filter: TicketListFilter = useMemo(
    () => ({ status: TAB_STATUSES[tab], searchParam, queuesIds: effectiveQueues }),
    [tab, searchParam, effectiveQueues],
  );
  const { data, isFetching, isLoading } = useGetTicketsQuery({ filter, cursor: null });

  const store = useStore<RootState>();
  useEffect(() => {
    if (data) refreshUnreadAttention(store.getState());
  }, [data, store]);

  const gate = useRef(createLoadMoreGate(TICKET_LIST_LOAD_MORE_MS));
  useEffect(() => {
    gate.current = createLoadMoreGate(TICKET_LIST_LOAD_MORE_MS);
  }, [filter]);
  const loadMore = useCallback(() => {
    if (!data?.hasMore || !data.nextCursor || isFetching) return;
    if (!gate.current.tryPass()) return;
    void dispatch(ticketsApi.endpoints.getTickets.initiate({ filter, cursor: data.nextCursor }, { subscribe: false }));
  }, [data, isFetching, dispatch, filter]);

  const toggleQueue = (id: number) => {
    const next = effectiveQueues.includes(id) ? effectiveQueues.filter((q) => q !== id) : [...effectiveQueues, id];
    setQueuesIds(next);
    const filtrosAtendimento = { ...storedFilters(), ...((user?.configs?.filtrosAtendimento as object) ?? {}), queuesIds: next };
    try {
      localStorage.setItem('filtrosAtendimento', JSON.stringify(filtrosAtendimento));
    } catch {
      // The server copy below is the durable one.
    }
    if (userId) void saveConfigs({ id: userId, configs: { filtrosAtendimento } });
  };

  const tickets = data?.tickets ?? [];
  return (
    <aside className="attendance-list" data-testid="ticket-list-panel">
      <div className="attendance-list-tools">
        <Tabs id="attendance-tabs" selectedTabId={tab} onChange={(id) => setTab(id as ListTab)}>
          <Tab id="active" title={t('attendance.tabs.active')} data-testid="tab-active" />
          <Tab id="open" title={t('attendance.tabs.open')} data-testid="tab-open" />
          <Tab id="pending" title={t('attendance.tabs.pending')} data-testid="tab-pending" />
          <Tab id="closed" title={t('attendance.tabs.closed')} data-testid="tab-closed" />
        </Tabs>
        <div className="attendance-list-search">
          <InputGroup
            leftIcon="search"
            placeholder={t('attendance.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="ticket-search"
            fill
          />
          <Popover
            placement="bottom-end"
            content={
              <div className="attendance-queue-filter" data-testid="queue-filter-menu">
                <strong>{t('attendance.queues')}</strong>
                {(queues ?? []).map((q) => (
                  <Checkbox
                    key={q.id}
                    checked={effectiveQueues.includes(q.id)}
                    label={q.name}
                    onChange={() => toggleQueue(q.id)}
                  />
                ))}
                {queues?.length === 0 && <span className="bp6-text-muted">{t('attendance.noQueues')}</span>}
              </div>
            }
          >
            <Button
              icon="filter"
              variant="minimal"
              intent={effectiveQueues.length ? 'primary' : 'none'}
              aria-label={t('attendance.queues')}
              data-testid="queue-filter"
            />
          </Popover>
        </div>
        <div className="attendance-list-count bp6-text-muted" data-testid="attendance-list-count">
          {data?.count != null ? t('attendance.count', { count: data.count }) : ''}
          {isFetching && <Spinner size={12} />}
        </div>
      </div>
      {isLoading ? (
        <Spinner />
      ) : tickets.length === 0 ? (
        <div className="attendance-list-empty bp6-text-muted" data-testid="ticket-list-empty">
          {t('attendance.emptyList')}
        </div>
      ) : (
        <VirtualList
          items={tickets}
          rowHeight={ROW_HEIGHT}
          onNearEnd={loadMore}
          testId="ticket-list"
          renderRow={(ticket) => (
            <TicketRow ticket={ticket} selected={ticket.id === selectedId} onOpen={() => navigate(`/atendimento/${ticket.id}`)} />
          )}
        />
      )}
    </aside>
  );
}

function TicketRow({ ticket, selected, onOpen }: { ticket: Ticket; selected: boolean; onOpen: () => void }) {
  const { t } = useTranslation();
  const name = ticket.contact?.name ?? ticket.name ?? '';
  return (
    <button
      type="button"
      className={`ticket-row${selected ? ' is-selected' : ''}`}
      onClick={onOpen}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
    >
      <span className="ticket-row-avatar" aria-hidden>
        {name.slice(0, 1).toUpperCase()}
      </span>
      <span className="ticket-row-main">
        <span className="ticket-row-top">
          <span className="ticket-row-name">{name}</span>
          <span className="ticket-row-time">{shortTime(ticket.lastMessageAt)}</span>
        </span>
        <span className="ticket-row-bottom">
          <span className="ticket-row-last">{ticket.lastMessage ?? ''}</span>
          {ticket.unreadMessages > 0 && (
            <Tag round intent="success" data-testid="unread-badge">
              {ticket.unreadMessages}
            </Tag>
          )}
        </span>
        <span className="ticket-row-meta">
          <span className={`ticket-status ticket-status-${ticket.status}`}>{t(`attendance.status.${ticket.status}`)}</span>
          {ticket.queue && (
            <span className="ticket-row-queue" style={{ borderColor: ticket.queue.color }}>
              {ticket.queue.name}
            </span>
          )}
        </span>
      </span>
    </button>
  );
}
