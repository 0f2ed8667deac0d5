/**
 * The statistics calls' query parameters (statistics.api.ts), in a module of their own: the
 * start-up script (boot.ts) builds the dashboard's first calls with them before the app loads.
 */

/** A period of whole days (yyyy-MM-dd, the tenant's zone) and the queues chosen (none = every queue). */
export interface PeriodArgs {
  startDate: string;
  endDate: string;
  queuesIds: number[];
}

export const queueParam = (queuesIds: readonly number[]): Record<string, string> =>
  queuesIds.length ? { queuesIds: queuesIds.join(',') } : {};

export const periodParams = ({ startDate, endDate, queuesIds }: PeriodArgs): Record<string, string> => ({
  startDate,
  endDate,
  ...queueParam(queuesIds),
});
