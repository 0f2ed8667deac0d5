import { z } from 'zod';
import { checkPeriod, enumListQuery, withoutBrackets } from '@shared/schemas/period';
import {
  BRAZIL_UFS,
  REPORT_FILTER_SCHEMAS,
  REPORT_PAGE_SIZE_DEFAULT,
  REPORT_PAGE_SIZE_MAX,
  reportExportQuerySchema,
  reportQuerySchema,
} from '@shared/schemas/reports';

/** The queries of GET /reports/{id} and /reports/{id}/export are the shared contract's. */
export { reportExportQuerySchema, reportQuerySchema };

/** The anchor's names of the contacts report's filters, read as ours when ours are absent. */
const ANCHOR_ALIASES: Record<string, string> = { tags: 'tagsIds', wallets: 'walletsIds', ddds: 'states', searchParam: 'search' };

const withAnchorNames = (raw: unknown): unknown => {
  const query = withoutBrackets(raw);
  if (!query || typeof query !== 'object') return query;
  const out = { ...(query as Record<string, unknown>) };
  for (const [alias, name] of Object.entries(ANCHOR_ALIASES)) {
    if (alias in out && !(name in out)) out[name] = out[alias];
    delete out[alias];
  }
  return out;
};

/**
 * GET /contacts-report (the anchor's path): lista-contatos with paging, plus the anchor's
 * filter names (`tags`, `wallets`, `searchParam`) and its state filter `ddds` (UF codes: the
 * anchor's client sends states under that name).
 */
export const ContactsReportQuerySchema = z.preprocess(
  withAnchorNames,
  REPORT_FILTER_SCHEMAS['lista-contatos']
    .extend({
      states: enumListQuery(BRAZIL_UFS),
      pageNumber: z.coerce.number().int().min(1).max(100_000).default(1),
      pageSize: z.coerce.number().int().min(1).max(REPORT_PAGE_SIZE_MAX).default(REPORT_PAGE_SIZE_DEFAULT),
    })
    .superRefine((v, ctx) => checkPeriod(v as { startDate: string; endDate: string }, ctx)),
);
export type ContactsReportQuery = z.output<typeof ContactsReportQuerySchema>;
