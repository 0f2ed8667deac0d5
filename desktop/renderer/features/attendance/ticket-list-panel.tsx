import { Button, ButtonGroup, Checkbox, InputGroup, Spinner, Tab, Tabs, Tag, Tooltip } from '@blueprintjs/core';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { TICKET_LIST_LOAD_MORE_MS } from '@shared/limits';
import {
  TICKET_LIST_PAGE_SIZE,
  useGetTicketQuery,
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
import { MassActionsBar } from './mass-actions-bar';
import { keepListed, toggleSelection } from './mass-actions';
import { formatDay, formatTime } from './message-display';
import { NewTicketDialog } from './new-ticket-dialog';
import { TicketFilterMenu } from './ticket-filter-menu';
import {
  activeFilterCount,
  canUseMassActions,
  listFilterOf,
  listedStatus,
  needsMorePages,
  readSavedFilters,
  rowsWithFocused,
  toSavedFilters,
  type AttendanceFilters,
} from './ticket-filters';
import { TicketSearchDialog } from './ticket-search-dialog';
import { VirtualList } from './virtual-list';
import './console-panel.css';

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

export function TicketListPanel({ selectedId, pageNumber = 1 }: { selectedId: number | null; pageNumber?: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const userId = useAppSelector((s) => s.session.userId);
  const profile = useAppSelector((s) => s.session.profile);
  const [tab, setTab] = useState<ListTab>('active');
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search, 300);
  const { data: user } = useGetUserQuery(userId ?? 0, { skip: !userId });
  const [edited, setEdited] = useState<AttendanceFilters | null>(null);
  const savedObject = useMemo(
    () => (user?.configs?.filtrosAtendimento !== undefined ? user.configs.filtrosAtendimento : storedFilters()),
    [user],
  );
  const saved = useMemo(() => readSavedFilters(savedObject, profile), [savedObject, profile]);
  const filters = edited ?? saved;
  const [saveConfigs] = useUpdateUserConfigsMutation();
  const [searchOpen, setSearchOpen] = useState(false);
  const [newTicketOpen, setNewTicketOpen] = useState(false);
  const [massMode, setMassMode] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(() => new Set());

  const filter: TicketListFilter = useMemo(() => listFilterOf(TAB_STATUSES[tab], searchParam, filters), [tab, searchParam, filters]);
  const { data, isFetching, isLoading } = useGetTicketsQuery({ filter, cursor: null });
  const { data: focused } = useGetTicketQuery(selectedId ?? 0, { skip: !selectedId });

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

  // The chat route's pageNumber (spec section 2): the list holds at least that many pages.
  useEffect(() => {
    if (!data?.nextCursor || isFetching) return;
    if (!needsMorePages(pageNumber, data.tickets.length, TICKET_LIST_PAGE_SIZE, data.hasMore)) return;
    void dispatch(ticketsApi.endpoints.getTickets.initiate({ filter, cursor: data.nextCursor }, { subscribe: false }));
  }, [data, isFetching, dispatch, filter, pageNumber]);

  const changeFilters = (next: AttendanceFilters) => {
    setEdited(next);
    const filtrosAtendimento = toSavedFilters(next, { ...storedFilters(), ...((savedObject as object | null) ?? {}) });
    try {
      localStorage.setItem('filtrosAtendimento', JSON.stringify(filtrosAtendimento));
    } catch {
      // The server copy below is the durable one.
    }
    if (userId) void saveConfigs({ id: userId, configs: { filtrosAtendimento } });
  };

  const tickets = useMemo(() => rowsWithFocused(data?.tickets ?? [], TAB_STATUSES[tab], focused ?? null), [data, tab, focused]);
  useEffect(() => {
    setSelected((current) => (current.size ? keepListed(current, tickets.map((x) => x.id)) : current));
  }, [tickets]);
  const openTicket = useCallback(
    (id: number) => (massMode ? setSelected((current) => toggleSelection(current, id)) : navigate(`/atendimento/${id}`)),
    [massMode, navigate],
  );
  const massAllowed = canUseMassActions(profile);
  const filterCount = activeFilterCount(filters);
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
          <TicketFilterMenu filters={filters} onChange={changeFilters} profile={profile} count={filterCount} />
        </div>
        <div className="attendance-list-count bp6-text-muted" data-testid="attendance-list-count">
          {data?.count != null ? t('attendance.count', { count: data.count }) : ''}
          {isFetching && <Spinner size={12} />}
          <span className="chat-header-spacer" />
          <ButtonGroup variant="minimal" size="small">
            <Tooltip content={t('consolePanel.search.open')}>
              <Button icon="search-template" aria-label={t('consolePanel.search.open')} onClick={() => setSearchOpen(true)} data-testid="ticket-search-open" />
            </Tooltip>
            <Tooltip content={t('consolePanel.newTicket.open')}>
              <Button icon="add" aria-label={t('consolePanel.newTicket.open')} onClick={() => setNewTicketOpen(true)} data-testid="new-ticket-open" />
            </Tooltip>
            {massAllowed && (
              <Tooltip content={t('consolePanel.mass.toggle')}>
                <Button
                  icon="multi-select"
                  active={massMode}
                  aria-label={t('consolePanel.mass.toggle')}
                  onClick={() => {
                    setMassMode((on) => !on);
                    setSelected(new Set());
                  }}
                  data-testid="mass-mode"
                />
              </Tooltip>
            )}
          </ButtonGroup>
        </div>
        {massMode && massAllowed && (
          <MassActionsBar
            tickets={tickets}
            selected={selected}
            onSelect={setSelected}
            onDone={() => setSelected(new Set())}
          />
        )}
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
          getKey={ticketKey}
          renderRow={(ticket) => (
            <TicketRow
              ticket={ticket}
              selected={ticket.id === selectedId}
              status={listedStatus(ticket, selectedId)}
              checked={massMode ? selected.has(ticket.id) : undefined}
              onOpen={openTicket}
            />
          )}
        />
      )}
      {searchOpen && <TicketSearchDialog onClose={() => setSearchOpen(false)} />}
      {newTicketOpen && <NewTicketDialog onClose={() => setNewTicketOpen(false)} />}
    </aside>
  );
}

const ticketKey = (ticket: Ticket) => ticket.id;

/** Memoised: scrolling the list renders only the rows entering the window. */
const TicketRow = memo(function TicketRow({
  ticket,
  selected,
  status,
  checked,
  onOpen,
}: {
  ticket: Ticket;
  selected: boolean;
  status: TicketStatus;
  /** Defined in mass mode: the row's checkbox. */
  checked?: boolean;
  onOpen: (id: number) => void;
}) {
  const { t } = useTranslation();
  const name = ticket.contact?.name ?? ticket.name ?? '';
  return (
    <button
      type="button"
      className={`ticket-row${selected ? ' is-selected' : ''}`}
      onClick={() => onOpen(ticket.id)}
      data-testid="ticket-row"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
      data-listed-status={status}
      data-checked={checked === undefined ? undefined : String(checked)}
    >
      {checked !== undefined ? (
        <span className="ticket-row-check">
          <Checkbox checked={checked} readOnly tabIndex={-1} aria-label={name} data-testid="ticket-row-check" />
        </span>
      ) : (
        <span className="ticket-row-avatar" aria-hidden>
          {name.slice(0, 1).toUpperCase()}
        </span>
      )}
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
          <span className={`ticket-status ticket-status-${status}`} data-testid="ticket-row-status">
            {t(`attendance.status.${status}`)}
          </span>
          {ticket.user && <span className="ticket-row-user">{ticket.user.name}</span>}
          {ticket.queue && (
            <span className="ticket-row-queue" style={{ borderColor: ticket.queue.color }}>
              {ticket.queue.name}
            </span>
          )}
        </span>
      </span>
    </button>
  );
});
