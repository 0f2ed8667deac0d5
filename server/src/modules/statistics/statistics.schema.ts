/**
 * Query of every statistics call (shared with the web app): the period (yyyy-MM-dd or
 * dd/MM/yyyy, 'Data inválida' otherwise, at most PERIOD_MAX_DAYS days) and an optional queue list.
 */
export { PeriodQuerySchema, type PeriodQuery } from '@shared/schemas/period';
