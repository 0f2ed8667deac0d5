import { z } from 'zod';
import { RATING_MAX, RATING_MIN } from '../limits';
import { calendarDay, checkPeriod, enumListQuery, idListQuery, requiredIdList, requiredEnumList, withoutBrackets } from './period';

/**
 * Reports (`/relatorios/*`, issue #13, spec sections 1, 2, 5): the contract shared by the server
 * (`server/src/modules/reports`) and the web app (`features/reports`).
 *
 * Calls (GET, tenant-scoped, admin and super; an agent gets 403 ERR_NO_PERMISSION; a supervisor
 * follows the visibility policy):
 *   GET /reports/{reportId}?...filters&pageNumber=1&pageSize=50
 *       -> ReportPage
 *   GET /reports/{reportId}/export?format=csv|xlsx|pdf&...filters
 *       -> the file, streamed (Content-Disposition attachment), every row matching the filters
 *   GET /contacts-report          the anchor's path: lista-contatos as JSON (rows of one page)
 *   GET /statistics-per-users     the anchor's path: estatisticas-atendimentos-usuarios (see statistics.ts)
 *
 * Validation (400 ERR_VALIDATION with `fields`):
 *   - startDate and endDate required in every report ('{attribute} é obrigatório'), dd/MM/yyyy or
 *     yyyy-MM-dd; anything else 'Data inválida'; inclusive days in the tenant's time zone.
 *   - queuesIds required (at least one) in the two ticket reports.
 *   - the wallet, state, tag and kanban reports need at least one selection of theirs
 *     (REPORT_SELECTION_MESSAGES).
 */

export const REPORT_IDS = [
  'estatisticas-atendimentos-usuarios',
  'atendimentos-por-parametros',
  'lista-contatos',
  'contatos-por-etiquetas',
  'contatos-por-estado',
  'contatos-por-kanban',
  'contatos-por-carteira',
] as const;
export type ReportId = (typeof REPORT_IDS)[number];

export const REPORT_EXPORT_FORMATS = ['csv', 'xlsx', 'pdf'] as const;
export type ReportExportFormat = (typeof REPORT_EXPORT_FORMATS)[number];

export const REPORT_PAGE_SIZE_DEFAULT = 50;
export const REPORT_PAGE_SIZE_MAX = 200;

/** The reports whose filters must name at least one queue (spec section 5: dates and queues required). */
export const REPORTS_REQUIRING_QUEUES: readonly ReportId[] = ['estatisticas-atendimentos-usuarios', 'atendimentos-por-parametros'];

/** The selection each contact report requires, with its message. */
export const REPORT_SELECTION_MESSAGES: Partial<Record<ReportId, { field: string; message: string }>> = {
  'contatos-por-etiquetas': { field: 'tagsIds', message: 'Selecione ao menos uma etiqueta' },
  'contatos-por-estado': { field: 'states', message: 'Selecione ao menos um estado' },
  'contatos-por-kanban': { field: 'kanbanIds', message: 'Selecione ao menos um kanban' },
  'contatos-por-carteira': { field: 'walletsIds', message: 'Selecione ao menos uma carteira' },
};

/**
 * Filters, by report (query string; id lists as `1,2`, repeated or `x[]=`):
 *   common:     startDate, endDate
 *   estatisticas-atendimentos-usuarios: queuesIds (required), usersIds
 *   atendimentos-por-parametros: queuesIds (required), usersIds, status (open,pending,closed),
 *               channelsIds, tagsIds, demandsIds, ratings (0..5), isActiveDemand
 *   lista-contatos: queuesIds, tagsIds, walletsIds, search
 *   contatos-por-etiquetas: tagsIds (required)
 *   contatos-por-estado: states (required; UF codes such as SP, RJ)
 *   contatos-por-kanban: kanbanIds (required)
 *   contatos-por-carteira: walletsIds (required; user ids of wallet owners)
 * For contact reports the dates bound the contact's creation.
 */

export interface ReportColumn {
  key: string;
  /** Portuguese header, as in the table and the exports */
  label: string;
  kind: 'text' | 'number' | 'date' | 'datetime' | 'duration';
}

export interface ReportPage<Row = Record<string, unknown>> {
  reportId: ReportId;
  columns: ReportColumn[];
  rows: Row[];
  /** total rows matching the filters */
  count: number;
  pageNumber: number;
  pageSize: number;
  hasMore: boolean;
  /** totals row, by column key (the reports that have one) */
  totals?: Record<string, number | string | null>;
}

/** Brazilian states (UF) by area code (DDD): the fixed table lives in `shared/brazil-area-codes.ts`. */
export const BRAZIL_UFS = [
  'AC', 'AL', 'AM', 'AP', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MG', 'MS', 'MT', 'PA', 'PB', 'PE', 'PI', 'PR',
  'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO',
] as const;
export type BrazilUf = (typeof BRAZIL_UFS)[number];


const period = { startDate: calendarDay('Data inicial'), endDate: calendarDay('Data final') };
const QUEUES_REQUIRED = 'Selecione ao menos uma fila';
const TICKET_FILTER_STATUSES = ['open', 'pending', 'closed'] as const;
const ratingList = z.preprocess(
  (v) => (v === undefined || v === '' ? undefined : ([] as unknown[]).concat(v).flatMap((p) => (typeof p === 'string' ? p.split(',') : [p]))),
  z
    .array(z.coerce.number().int().min(RATING_MIN, { error: `avaliação de ${RATING_MIN} a ${RATING_MAX}` }).max(RATING_MAX, { error: `avaliação de ${RATING_MIN} a ${RATING_MAX}` }))
    .max(6)
    .optional(),
);
const sel = (id: ReportId) => REPORT_SELECTION_MESSAGES[id]!.message;

/** The filters of each report (query string), validated the same way by the server and the report forms. */
export const REPORT_FILTER_SCHEMAS = {
  'estatisticas-atendimentos-usuarios': z.object({ ...period, queuesIds: requiredIdList(QUEUES_REQUIRED), usersIds: idListQuery }),
  'atendimentos-por-parametros': z.object({
    ...period,
    queuesIds: requiredIdList(QUEUES_REQUIRED),
    usersIds: idListQuery,
    status: enumListQuery(TICKET_FILTER_STATUSES),
    channelsIds: idListQuery,
    tagsIds: idListQuery,
    demandsIds: idListQuery,
    ratings: ratingList,
    isActiveDemand: z.enum(['true', 'false']).optional(),
  }),
  'lista-contatos': z.object({
    ...period,
    queuesIds: idListQuery,
    tagsIds: idListQuery,
    walletsIds: idListQuery,
    search: z.string().trim().max(100).optional(),
  }),
  'contatos-por-etiquetas': z.object({ ...period, tagsIds: requiredIdList(sel('contatos-por-etiquetas')) }),
  'contatos-por-estado': z.object({ ...period, states: requiredEnumList(BRAZIL_UFS, sel('contatos-por-estado')) }),
  'contatos-por-kanban': z.object({ ...period, kanbanIds: requiredIdList(sel('contatos-por-kanban')) }),
  'contatos-por-carteira': z.object({ ...period, walletsIds: requiredIdList(sel('contatos-por-carteira')) }),
} as const satisfies Record<ReportId, z.ZodObject>;

export type ReportFilters<Id extends ReportId> = z.infer<(typeof REPORT_FILTER_SCHEMAS)[Id]>;

/** The full query of `GET /reports/{reportId}`: filters plus paging (brackets stripped, period checked). */
export const reportQuerySchema = (id: ReportId) =>
  z.preprocess(
    withoutBrackets,
    REPORT_FILTER_SCHEMAS[id]
      .extend({
        pageNumber: z.coerce.number().int().min(1).max(100_000).default(1),
        pageSize: z.coerce.number().int().min(1).max(REPORT_PAGE_SIZE_MAX).default(REPORT_PAGE_SIZE_DEFAULT),
      })
      .superRefine((v, ctx) => checkPeriod(v as { startDate: string; endDate: string }, ctx)),
  );

/** The full query of `GET /reports/{reportId}/export`. */
export const reportExportQuerySchema = (id: ReportId) =>
  z.preprocess(
    withoutBrackets,
    REPORT_FILTER_SCHEMAS[id]
      .extend({ format: z.enum(REPORT_EXPORT_FORMATS, { error: 'formato deve ser csv, xlsx ou pdf' }) })
      .superRefine((v, ctx) => checkPeriod(v as { startDate: string; endDate: string }, ctx)),
  );
