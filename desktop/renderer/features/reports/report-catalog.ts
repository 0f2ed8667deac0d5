import type { IconName } from '@blueprintjs/core';
import { checkPeriod } from '@shared/schemas/period';
import {
  REPORT_FILTER_SCHEMAS,
  REPORT_IDS,
  REPORT_SELECTION_MESSAGES,
  REPORTS_REQUIRING_QUEUES,
  type ReportId,
} from '@shared/schemas/reports';
import { format, startOfMonth } from 'date-fns';
import type { z } from 'zod';

/**
 * The seven reports of `/relatorios` (spec sections 2 and 5) as data: the screen, its filter form
 * and the index page are built from this and from each report's shared filter schema, so a filter
 * the server reads is a filter the form shows, with the server's own messages.
 */

/** Filters other than the period, in the order the form shows them. */
export const FILTER_FIELDS = [
  'queuesIds',
  'usersIds',
  'walletsIds',
  'tagsIds',
  'kanbanIds',
  'states',
  'status',
  'channelsIds',
  'demandsIds',
  'ratings',
  'isActiveDemand',
  'search',
] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

/** What kind of input each filter is. */
export const FILTER_KINDS: Record<FilterField, 'multi' | 'select' | 'text'> = {
  queuesIds: 'multi',
  usersIds: 'multi',
  walletsIds: 'multi',
  tagsIds: 'multi',
  kanbanIds: 'multi',
  states: 'multi',
  status: 'multi',
  channelsIds: 'multi',
  demandsIds: 'multi',
  ratings: 'multi',
  isActiveDemand: 'select',
  search: 'text',
};

export const PERIOD_FIELDS = ['startDate', 'endDate'] as const;

/** Route order of spec section 2 (the index page and the menu read it). */
export const REPORT_ORDER: readonly ReportId[] = [
  'estatisticas-atendimentos-usuarios',
  'lista-contatos',
  'contatos-por-etiquetas',
  'contatos-por-estado',
  'contatos-por-kanban',
  'contatos-por-carteira',
  'atendimentos-por-parametros',
];

export const REPORT_ICONS: Record<ReportId, IconName> = {
  'estatisticas-atendimentos-usuarios': 'person',
  'atendimentos-por-parametros': 'chat',
  'lista-contatos': 'people',
  'contatos-por-etiquetas': 'tag',
  'contatos-por-estado': 'map',
  'contatos-por-kanban': 'column-layout',
  'contatos-por-carteira': 'briefcase',
};

export const isReportId = (value: string | undefined): value is ReportId => (REPORT_IDS as readonly string[]).includes(value ?? '');

/** The filters a report's schema reads, besides the period, in form order. */
export function filterFieldsOf(id: ReportId): FilterField[] {
  const keys = Object.keys(REPORT_FILTER_SCHEMAS[id].shape);
  const unknown = keys.filter((key) => !(PERIOD_FIELDS as readonly string[]).includes(key) && !(FILTER_FIELDS as readonly string[]).includes(key));
  // A filter added to the contract without a widget here would be silently unreachable.
  if (unknown.length > 0) throw new Error(`Report '${id}' has filters without a form field: ${unknown.join(', ')}`);
  return FILTER_FIELDS.filter((field) => keys.includes(field));
}

/** The filters that must name at least one item (a star on the label; the schema says why). */
export function requiredFieldsOf(id: ReportId): FilterField[] {
  const required: FilterField[] = [];
  if (REPORTS_REQUIRING_QUEUES.includes(id)) required.push('queuesIds');
  const selection = REPORT_SELECTION_MESSAGES[id];
  if (selection) required.push(selection.field as FilterField);
  return required;
}

/** The form's schema: the report's filters plus the period rules the server adds to its query. */
export function reportFormSchema(id: ReportId): z.ZodType<Record<string, unknown>, unknown> {
  return REPORT_FILTER_SCHEMAS[id].superRefine((value, ctx) => checkPeriod(value as { startDate: string; endDate: string }, ctx));
}

/** What the fields hold: dd/MM/yyyy texts, lists of ids or codes, a select value, a text. */
export type ReportFormValues = Record<string, string | number[] | string[] | undefined>;

/** A new form: this month so far, and no choice in any list. */
export function reportFormDefaults(id: ReportId, today: Date = new Date()): ReportFormValues {
  const values: ReportFormValues = {
    startDate: format(startOfMonth(today), 'dd/MM/yyyy'),
    endDate: format(today, 'dd/MM/yyyy'),
  };
  for (const field of filterFieldsOf(id)) {
    const kind = FILTER_KINDS[field];
    values[field] = kind === 'multi' ? [] : kind === 'text' ? '' : undefined;
  }
  return values;
}
