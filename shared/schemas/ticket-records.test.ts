import { describe, expect, it } from 'vitest';
import { PERIOD_ORDER_MESSAGE, TicketRecordFiltersSchema, TicketRecordsQuerySchema } from './ticket-records';

/** The filters of /protocolos and /notas as the form and the server read them (issue #14 item 9). */
describe('ticket records filters', () => {
  const issues = (input: unknown) => {
    const result = TicketRecordFiltersSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  };

  it('reads dd/MM/yyyy and yyyy-MM-dd days, trims the search and leaves empty fields open', () => {
    expect(TicketRecordFiltersSchema.parse({ search: '  João ', startDate: '01/03/2025', endDate: '2025-03-31' })).toEqual({
      search: 'João',
      startDate: '2025-03-01',
      endDate: '2025-03-31',
    });
    expect(TicketRecordFiltersSchema.parse({ search: '', startDate: '', endDate: ' ' })).toEqual({ search: '' });
  });

  it("answers 'Data inválida' for a day that does not exist and refuses an end before the start", () => {
    expect(issues({ startDate: '29/02/2025' })).toEqual([{ path: 'startDate', message: 'Data inválida' }]);
    expect(issues({ endDate: '2025/03/01' })).toEqual([{ path: 'endDate', message: 'Data inválida' }]);
    expect(issues({ startDate: '02/03/2025', endDate: '01/03/2025' })).toEqual([{ path: 'endDate', message: PERIOD_ORDER_MESSAGE }]);
    expect(issues({ startDate: '01/03/2025', endDate: '01/03/2025' })).toEqual([]);
  });

  it("reads the query's paging, the anchor's searchParam and axios' brackets", () => {
    expect(TicketRecordsQuerySchema.parse({})).toEqual({ pageNumber: 1, pageSize: 25 });
    expect(TicketRecordsQuerySchema.parse({ searchParam: 'x', 'startDate[]': '01/03/2025', pageNumber: '3', pageSize: '50' })).toEqual({
      search: 'x',
      startDate: '2025-03-01',
      pageNumber: 3,
      pageSize: 50,
    });
    expect(TicketRecordsQuerySchema.safeParse({ pageSize: '0' }).success).toBe(false);
  });
});
