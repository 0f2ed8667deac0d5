/** Queries of the ticket panel routes; declared in shared/ so the web app builds the same query. */
export { AgentsNowQuerySchema, DashTicketsQueuesQuerySchema } from '@shared/schemas/ticket-panel';
export type { AgentsNowQuery, DashTicketsQueuesQuery } from '@shared/schemas/ticket-panel';
