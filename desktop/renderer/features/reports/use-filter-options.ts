import { RATING_LABELS, RATING_MAX, RATING_MIN } from '@shared/limits';
import { BRAZIL_UFS } from '@shared/schemas/reports';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useListDemandsQuery } from '../../api/demands.api';
import { useListKanbansQuery } from '../../api/kanban.api';
import { useListQueuesQuery } from '../../api/queues.api';
import { useListTagsQuery } from '../../api/tags.api';
import { useListAllTenantUsersQuery, useListConnectionOptionsQuery } from '../../api/users.api';
import type { ChoiceOption } from '../../app/forms/form-fields';
import { BRAZIL_STATE_NAMES } from './brazil-states';
import type { FilterField } from './report-catalog';

export interface FilterChoices {
  options: ChoiceOption<string | number>[];
  loading: boolean;
}

const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;

/**
 * The choices of each list filter a report shows, from the catalog calls the rest of the app
 * uses (queues, users, tags, kanban columns, connections, reasons); a catalog the report does
 * not filter by is not loaded.
 */
export function useFilterOptions(fields: readonly FilterField[]): Partial<Record<FilterField, FilterChoices>> {
  const { t } = useTranslation();
  const uses = (...names: FilterField[]) => names.some((name) => fields.includes(name));
  const queues = useListQueuesQuery(undefined, { skip: !uses('queuesIds') });
  const users = useListAllTenantUsersQuery(undefined, { skip: !uses('usersIds', 'walletsIds') });
  const tags = useListTagsQuery(undefined, { skip: !uses('tagsIds') });
  const kanbans = useListKanbansQuery(undefined, { skip: !uses('kanbanIds') });
  const channels = useListConnectionOptionsQuery(undefined, { skip: !uses('channelsIds') });
  const demands = useListDemandsQuery(undefined, { skip: !uses('demandsIds') });

  return useMemo(() => {
    const byName = <T>(rows: T[] | undefined, label: (row: T) => string) =>
      [...(rows ?? [])].sort((a, b) => label(a).localeCompare(label(b), 'pt-BR'));
    const userChoices: FilterChoices = {
      options: byName(users.data, (u) => u.name).map((u) => ({ value: u.id, label: u.name, hint: u.email })),
      loading: users.isLoading,
    };
    const all: Record<FilterField, FilterChoices> = {
      queuesIds: { options: byName(queues.data, (q) => q.name).map((q) => ({ value: q.id, label: q.name })), loading: queues.isLoading },
      usersIds: userChoices,
      walletsIds: userChoices,
      tagsIds: { options: byName(tags.data, (tag) => tag.name).map((tag) => ({ value: tag.id, label: tag.name })), loading: tags.isLoading },
      kanbanIds: { options: (kanbans.data ?? []).map((column) => ({ value: column.id, label: column.name })), loading: kanbans.isLoading },
      channelsIds: {
        options: byName(channels.data, (c) => c.name).map((c) => ({ value: c.id, label: c.name, hint: c.type })),
        loading: channels.isLoading,
      },
      demandsIds: { options: byName(demands.data, (d) => d.name).map((d) => ({ value: d.id, label: d.name })), loading: demands.isLoading },
      states: { options: BRAZIL_UFS.map((uf) => ({ value: uf, label: BRAZIL_STATE_NAMES[uf], hint: uf })), loading: false },
      status: { options: TICKET_STATUSES.map((status) => ({ value: status, label: t(`attendance.status.${status}`) })), loading: false },
      ratings: {
        options: Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i).map((score) => ({
          value: score,
          label: `${score} · ${t(`consolePanel.rating.labels.${score}`, { defaultValue: RATING_LABELS[score] })}`,
        })),
        loading: false,
      },
      isActiveDemand: {
        options: [
          { value: 'true', label: t('reports.demandType.active') },
          { value: 'false', label: t('reports.demandType.receptive') },
        ],
        loading: false,
      },
      search: { options: [], loading: false },
    };
    return Object.fromEntries(fields.map((field) => [field, all[field]]));
  }, [fields, t, queues.data, queues.isLoading, users.data, users.isLoading, tags.data, tags.isLoading, kanbans.data, kanbans.isLoading, channels.data, channels.isLoading, demands.data, demands.isLoading]);
}
