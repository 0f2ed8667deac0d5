import { z } from 'zod';
import { idListQuery, withoutBrackets } from './period';

/**
 * Queries of the two "now" calls of the dashboard and the ticket panel (issue #13; paths and
 * answers in statistics.ts): no period, an optional queue selection.
 *   GET /dash-tickets-queues                    admin only: DashTicketsQueuesAnswer
 *   GET /statistics-tickets-per-users-detail    admin and super: AgentNowRow[]
 */

/** Tickets shown per agent lane of the panel; each lane still counts all of its tickets. */
export const PANEL_LANE_LIMIT_DEFAULT = 100;
export const PANEL_LANE_LIMIT_MAX = 500;

const laneLimit = z.coerce
  .number({ error: `deve ser um número entre 1 e ${PANEL_LANE_LIMIT_MAX}` })
  .int({ error: `deve ser um número entre 1 e ${PANEL_LANE_LIMIT_MAX}` })
  .min(1, { error: `deve ser um número entre 1 e ${PANEL_LANE_LIMIT_MAX}` })
  .max(PANEL_LANE_LIMIT_MAX, { error: `deve ser um número entre 1 e ${PANEL_LANE_LIMIT_MAX}` })
  .default(PANEL_LANE_LIMIT_DEFAULT);

/** GET /dash-tickets-queues: `queuesIds` (empty = every queue, and tickets without one), `limit` per lane. */
export const DashTicketsQueuesQuerySchema = z.preprocess(withoutBrackets, z.object({ queuesIds: idListQuery, limit: laneLimit }));
export type DashTicketsQueuesQuery = z.output<typeof DashTicketsQueuesQuerySchema>;

/** GET /statistics-tickets-per-users-detail: `queuesIds` (empty = every queue the caller may see). */
export const AgentsNowQuerySchema = z.preprocess(withoutBrackets, z.object({ queuesIds: idListQuery }));
export type AgentsNowQuery = z.output<typeof AgentsNowQuerySchema>;
