import { Button, Checkbox, Popover, Switch } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@shared/profiles';
import { useListKanbansQuery } from '../../api/kanban.api';
import { useListTagsQuery } from '../../api/tags.api';
import { useGetAttendanceChannelsQuery, useGetAttendanceQueuesQuery, useGetAttendanceUsersQuery } from '../../api/tickets.api';
import { useAppSelector } from '../../app/store-hooks';
import {
  DEFAULT_FILTERS,
  canShowAll,
  toggleFilterId,
  type AttendanceFilters,
  type FilterFlagKey,
  type FilterListKey,
} from './ticket-filters';

interface Option {
  id: number;
  name: string;
}

/**
 * The filter popover of the ticket list: queues, connection, user, tags and kanban, and the
 * switches of GET /tickets (spec section 3, "Attendance filter"). Every change is saved per user.
 */
export function TicketFilterMenu({
  filters,
  onChange,
  profile,
  count,
}: {
  filters: AttendanceFilters;
  onChange: (next: AttendanceFilters) => void;
  profile: Profile | null;
  count: number;
}) {
  const { t } = useTranslation();
  return (
    <Popover
      placement="bottom-end"
      content={<FilterMenuBody filters={filters} onChange={onChange} profile={profile} />}
    >
      <Button
        icon="filter"
        variant="minimal"
        intent={count ? 'primary' : 'none'}
        aria-label={t('consolePanel.filters.title')}
        data-testid="queue-filter"
        data-active-filters={count}
        text={count ? String(count) : undefined}
      />
    </Popover>
  );
}

function FilterMenuBody({
  filters,
  onChange,
  profile,
}: {
  filters: AttendanceFilters;
  onChange: (next: AttendanceFilters) => void;
  profile: Profile | null;
}) {
  const { t } = useTranslation();
  const me = { id: useAppSelector((s) => s.session.userId), name: useAppSelector((s) => s.session.username) };
  const { data: queues } = useGetAttendanceQueuesQuery();
  const { data: channels, isError: channelsRefused } = useGetAttendanceChannelsQuery();
  const { data: users } = useGetAttendanceUsersQuery();
  const { data: tags } = useListTagsQuery();
  const { data: kanbans } = useListKanbansQuery();
  const userOptions: Option[] = [
    ...(me.id ? [{ id: me.id, name: t('consolePanel.filters.me', { name: me.name ?? '' }) }] : []),
    ...(users ?? []).map((u) => ({ id: u.id, name: u.name })),
  ];
  const flag = (key: FilterFlagKey) => (
    <Switch
      key={key}
      checked={filters[key]}
      label={t(`consolePanel.filters.${key}`)}
      onChange={() => onChange({ ...filters, [key]: !filters[key] })}
      data-testid={`filter-${key}`}
    />
  );
  return (
    <div className="attendance-queue-filter console-filter-menu" data-testid="queue-filter-menu">
      <div className="console-filter-columns">
        <FilterGroup title={t('attendance.queues')} empty={t('attendance.noQueues')} testId="filter-queues">
          {(queues ?? []).map((q) => (
            <IdCheckbox key={q.id} option={q} list="queuesIds" filters={filters} onChange={onChange} />
          ))}
        </FilterGroup>
        <FilterGroup
          title={t('consolePanel.filters.connections')}
          empty={channelsRefused ? t('consolePanel.filters.connectionsRefused') : t('consolePanel.filters.none')}
          testId="filter-connections"
        >
          {(channels ?? []).map((c) => (
            <IdCheckbox key={c.id} option={c} list="whatsappIds" filters={filters} onChange={onChange} />
          ))}
        </FilterGroup>
        <FilterGroup title={t('consolePanel.filters.users')} empty={t('consolePanel.filters.none')} testId="filter-users">
          {userOptions.map((u) => (
            <IdCheckbox key={u.id} option={u} list="selectedUser" filters={filters} onChange={onChange} />
          ))}
        </FilterGroup>
        <FilterGroup title={t('consolePanel.filters.tags')} empty={t('consolePanel.filters.none')} testId="filter-tags">
          {(tags ?? []).map((tag) => (
            <IdCheckbox key={tag.id} option={tag} list="tags" filters={filters} onChange={onChange} />
          ))}
        </FilterGroup>
        <FilterGroup title={t('consolePanel.filters.kanban')} empty={t('consolePanel.filters.none')} testId="filter-kanban">
          {(kanbans ?? []).map((k) => (
            <IdCheckbox key={k.id} option={k} list="kanbanIds" filters={filters} onChange={onChange} />
          ))}
        </FilterGroup>
      </div>
      <div className="console-filter-flags">
        {canShowAll(profile) && flag('showAll')}
        {flag('withUnreadMessages')}
        {flag('isNotAssignedUser')}
        {flag('includeNotQueueDefined')}
      </div>
      <Button
        size="small"
        variant="minimal"
        icon="eraser"
        onClick={() => onChange({ ...DEFAULT_FILTERS })}
        data-testid="filter-clear"
      >
        {t('consolePanel.filters.clear')}
      </Button>
    </div>
  );
}

function FilterGroup({ title, empty, testId, children }: { title: string; empty: string; testId: string; children: ReactNode[] }) {
  return (
    <div className="console-filter-group" data-testid={testId}>
      <strong>{title}</strong>
      <div className="console-filter-options">
        {children.length ? children : <span className="bp6-text-muted">{empty}</span>}
      </div>
    </div>
  );
}

function IdCheckbox({
  option,
  list,
  filters,
  onChange,
}: {
  option: Option;
  list: FilterListKey;
  filters: AttendanceFilters;
  onChange: (next: AttendanceFilters) => void;
}) {
  return (
    <Checkbox
      checked={filters[list].includes(option.id)}
      label={option.name}
      onChange={() => onChange(toggleFilterId(filters, list, option.id))}
    />
  );
}
