import { TicketRecordFiltersSchema, type TicketRecordFilters } from '@shared/schemas/ticket-records';
import { format, startOfMonth } from 'date-fns';

/** What the filter fields hold: the search text and two days typed as dd/MM/yyyy ('' = open). */
export interface RecordsFormValues {
  search: string;
  startDate: string;
  endDate: string;
  [key: string]: string;
}

/** A new form: this month so far, nothing searched. */
export function recordsFormDefaults(today: Date = new Date()): RecordsFormValues {
  return { search: '', startDate: format(startOfMonth(today), 'dd/MM/yyyy'), endDate: format(today, 'dd/MM/yyyy') };
}

/** The filters of valid field values, as the form's submit would hand them over (the first list's query). */
export function recordsFormToFilters(values: RecordsFormValues): TicketRecordFilters {
  return TicketRecordFiltersSchema.parse(values);
}
