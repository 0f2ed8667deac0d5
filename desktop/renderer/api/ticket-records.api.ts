import type { NotePage, ProtocolPage, TicketRecordFilters } from '@shared/schemas/ticket-records';
import { baseApi } from './base.api';

/**
 * Protocols and notes across tickets (docs/api.md, Tickets; contract in
 * shared/schemas/ticket-records.ts):
 *   GET /protocol?search&startDate&endDate&pageNumber&pageSize       -> ProtocolPage
 *   GET /tickets/notes?search&startDate&endDate&pageNumber&pageSize  -> NotePage
 * The filters are the output of the shared schema (days as yyyy-MM-dd, a trimmed text).
 */
export type { NotePage, ProtocolPage };

export interface TicketRecordsArgs {
  filters: TicketRecordFilters;
  pageNumber: number;
  pageSize: number;
}

/** The query string: empty filters left out, so "nothing typed" means "every". */
export function ticketRecordsParams({ filters, pageNumber, pageSize }: TicketRecordsArgs): Record<string, string | number> {
  const params: Record<string, string | number> = { pageNumber, pageSize };
  for (const key of ['search', 'startDate', 'endDate'] as const) {
    const value = filters[key]?.trim();
    if (value) params[key] = value;
  }
  return params;
}

export const ticketRecordsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    listProtocols: build.query<ProtocolPage, TicketRecordsArgs>({
      query: (args) => ({ url: '/protocol', params: ticketRecordsParams(args) }),
      providesTags: [{ type: 'Ticket', id: 'PROTOCOLS' }],
      keepUnusedDataFor: 30,
    }),
    listNotes: build.query<NotePage, TicketRecordsArgs>({
      query: (args) => ({ url: '/tickets/notes', params: ticketRecordsParams(args) }),
      providesTags: [{ type: 'Ticket', id: 'NOTES' }],
      keepUnusedDataFor: 30,
    }),
  }),
});

export const { useListProtocolsQuery, useListNotesQuery } = ticketRecordsApi;
