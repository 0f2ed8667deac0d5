import type { DataSource } from 'typeorm';
import { RATING_LABELS } from '@shared/limits';
import { formatCalendarDate } from '@shared/validation/calendar-date';
import { TICKET_STATUS_LABELS } from './tickets-by-parameters.report';

/** One line of the filters printed at the top of an exported report. */
export interface FilterLine {
  label: string;
  value: string;
}

/** The id lists a report filter may hold, with the table their names come from and their label. */
const ID_FILTERS = [
  { key: 'queuesIds', table: 'queues', label: 'Filas' },
  { key: 'usersIds', table: 'users', label: 'Usuários' },
  { key: 'channelsIds', table: 'channels', label: 'Conexões' },
  { key: 'tagsIds', table: 'tags', label: 'Etiquetas' },
  { key: 'demandsIds', table: 'demands', label: 'Motivos' },
  { key: 'kanbanIds', table: 'kanbans', label: 'Kanban' },
  { key: 'walletsIds', table: 'users', label: 'Carteiras' },
] as const;

/**
 * The filters of a report as people read them: the period, then each filter given, with the
 * names of the chosen queues, users, tags ... (read in one statement, the caller's tenant only:
 * an id that is not the tenant's row is shown as `#id`).
 */
export async function describeFilters(
  dataSource: Pick<DataSource, 'query'>,
  tenantId: number,
  timeZone: string,
  filters: Record<string, unknown>,
): Promise<FilterLine[]> {
  const lines: FilterLine[] = [
    { label: 'Período', value: `${formatCalendarDate(String(filters.startDate))} a ${formatCalendarDate(String(filters.endDate))}` },
    { label: 'Fuso horário', value: timeZone },
  ];
  const lists = ID_FILTERS.filter((f) => Array.isArray(filters[f.key]) && (filters[f.key] as number[]).length > 0);
  const names = new Map<string, string>();
  if (lists.length > 0) {
    const params: unknown[] = [tenantId];
    const parts = lists.map((f) => {
      params.push(filters[f.key]);
      return `SELECT '${f.table}' AS source, id, name FROM ${f.table} WHERE "tenantId" = $1 AND id = ANY($${params.length}::int[])`;
    });
    const rows: { source: string; id: number; name: string }[] = await dataSource.query(parts.join(' UNION ALL '), params);
    for (const r of rows) names.set(`${r.source}:${r.id}`, r.name);
  }
  for (const f of ID_FILTERS) {
    const ids = filters[f.key];
    if (!Array.isArray(ids) || ids.length === 0) continue;
    lines.push({ label: f.label, value: ids.map((id) => names.get(`${f.table}:${id}`) ?? `#${id}`).join(', ') });
  }
  if (Array.isArray(filters.status) && filters.status.length) {
    lines.push({ label: 'Status', value: filters.status.map((s) => TICKET_STATUS_LABELS[String(s)] ?? String(s)).join(', ') });
  }
  if (Array.isArray(filters.ratings) && filters.ratings.length) {
    lines.push({ label: 'Avaliações', value: filters.ratings.map((r) => `${r} (${RATING_LABELS[Number(r)] ?? ''})`).join(', ') });
  }
  if (filters.isActiveDemand === 'true' || filters.isActiveDemand === 'false') {
    lines.push({ label: 'Demanda ativa', value: filters.isActiveDemand === 'true' ? 'Sim' : 'Não' });
  }
  if (Array.isArray(filters.states) && filters.states.length) lines.push({ label: 'Estados', value: filters.states.join(', ') });
  if (typeof filters.search === 'string' && filters.search) lines.push({ label: 'Busca', value: filters.search });
  return lines;
}
