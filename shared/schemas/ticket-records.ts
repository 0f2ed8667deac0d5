import { z } from 'zod';
import { INVALID_DATE_MESSAGE, parseCalendarDay, withoutBrackets } from './period';

/**
 * Protocols and notes across tickets (`/protocolos`, `/notas`, issue #14 item 9; spec sections 2,
 * 3 and 5): the contract shared by the server (`server/src/modules/tickets/ticket-records.*`) and
 * the web app (`features/ticket-records`).
 *
 * Calls (GET, tenant-scoped, admin and super (and the platform super administrator in its own
 * tenant); an agent gets 403 ERR_NO_PERMISSION; rows follow the ticket visibility policy):
 *   GET /protocol?search&startDate&endDate&pageNumber&pageSize   -> ProtocolPage (the anchor's path)
 *   GET /tickets/notes?search&startDate&endDate&pageNumber&pageSize -> NotePage
 *
 * Filters (query string; every one optional):
 *   - search: up to 100 characters. Protocols: the protocol contains it, or the contact's name or
 *     e-mail (accents and case ignored), or number (its digits), or the agent's name. Notes: the
 *     note's text (accents and case ignored), or the same ticket fields. The anchor's name
 *     `searchParam` is read as `search`.
 *   - startDate, endDate: calendar days dd/MM/yyyy (spec section 5) or yyyy-MM-dd, both included,
 *     in the tenant's time zone; anything else 'Data inválida'; either may be left open; the end
 *     may not precede the start.
 * Order: newest first (the protocol's ticket creation, the note's creation), then id.
 */

export const TICKET_RECORDS_PAGE_SIZE_DEFAULT = 25;
export const TICKET_RECORDS_PAGE_SIZE_MAX = 200;
export const TICKET_RECORDS_SEARCH_MAX = 100;
export const PERIOD_ORDER_MESSAGE = 'A data final deve ser igual ou posterior à data inicial';

/** An optional calendar day: empty means "open"; anything but a valid day is 'Data inválida'. */
const optionalDay = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z
    .string({ error: INVALID_DATE_MESSAGE })
    .transform((value, ctx) => {
      const day = parseCalendarDay(value);
      if (!day) {
        ctx.addIssue({ code: 'custom', message: INVALID_DATE_MESSAGE });
        return z.NEVER;
      }
      return day;
    })
    .optional(),
);

const filterFields = {
  search: z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(TICKET_RECORDS_SEARCH_MAX, { error: `no máximo ${TICKET_RECORDS_SEARCH_MAX} caracteres` })
    .optional(),
  startDate: optionalDay,
  endDate: optionalDay,
};

function checkOrder(value: { startDate?: string; endDate?: string }, ctx: z.RefinementCtx): void {
  if (value.startDate && value.endDate && value.endDate < value.startDate) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: PERIOD_ORDER_MESSAGE });
  }
}

/** The filters of both screens' forms (the same rules the server's query schema applies). */
export const TicketRecordFiltersSchema = z.object(filterFields).superRefine(checkOrder);
export type TicketRecordFilters = z.output<typeof TicketRecordFiltersSchema>;

/** The anchor's client names the search `searchParam`. */
const withAnchorNames = (raw: unknown): unknown => {
  const query = withoutBrackets(raw);
  if (!query || typeof query !== 'object') return query;
  const out = { ...(query as Record<string, unknown>) };
  if ('searchParam' in out && !('search' in out)) out.search = out.searchParam;
  delete out.searchParam;
  return out;
};

/** The query of GET /protocol and GET /tickets/notes: the filters plus offset paging. */
export const TicketRecordsQuerySchema = z.preprocess(
  withAnchorNames,
  z
    .object({
      ...filterFields,
      pageNumber: z.coerce
        .number({ error: 'deve ser um número de página' })
        .int({ error: 'deve ser um número de página' })
        .min(1, { error: 'deve ser um número de página' })
        .max(100_000, { error: 'deve ser um número de página' })
        .default(1),
      pageSize: z.coerce
        .number({ error: `deve ser de 1 a ${TICKET_RECORDS_PAGE_SIZE_MAX}` })
        .int({ error: `deve ser de 1 a ${TICKET_RECORDS_PAGE_SIZE_MAX}` })
        .min(1, { error: `deve ser de 1 a ${TICKET_RECORDS_PAGE_SIZE_MAX}` })
        .max(TICKET_RECORDS_PAGE_SIZE_MAX, { error: `deve ser de 1 a ${TICKET_RECORDS_PAGE_SIZE_MAX}` })
        .default(TICKET_RECORDS_PAGE_SIZE_DEFAULT),
    })
    .superRefine(checkOrder),
);
export type TicketRecordsQuery = z.output<typeof TicketRecordsQuerySchema>;

/** A ticket's protocol (spec section 3: protocol, user, ticket, date). */
export interface ProtocolRow {
  ticketId: number;
  protocol: string;
  /** open | pending | closed | schedule */
  status: string;
  contactId: number;
  contactName: string | null;
  /** The ticket's agent. */
  userId: number | null;
  userName: string | null;
  /** When the ticket (and its protocol) was created, ISO 8601. */
  createdAt: string;
}

/** A note of a ticket (spec section 3: note, user, ticket, date). */
export interface NoteRow {
  id: number;
  ticketId: number;
  protocol: string | null;
  note: string;
  contactId: number;
  contactName: string | null;
  /** The note's author. */
  userId: number | null;
  userName: string | null;
  createdAt: string;
}

interface RecordPage {
  /** Rows matching the filters over every page. */
  count: number;
  pageNumber: number;
  pageSize: number;
  hasMore: boolean;
}

export interface ProtocolPage extends RecordPage {
  protocols: ProtocolRow[];
}

export interface NotePage extends RecordPage {
  notes: NoteRow[];
}
