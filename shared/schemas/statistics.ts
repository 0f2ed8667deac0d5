/**
 * Dashboard and ticket-panel statistics (issue #13, spec sections 1, 2, 5, 6): the contract shared
 * by the server (`server/src/modules/statistics`) and the web app (`features/dashboard`,
 * `features/ticket-panel`). Paths are the anchor's, so dashboards built on its API keep working;
 * the answers keep the anchor's field names where it has them and add ours beside them.
 *
 * Every call is GET, tenant-scoped, for admin and super (a supervisor follows the visibility
 * policy: without showAll, only the queues they belong to); an agent (profile `user`) gets 403
 * ERR_NO_PERMISSION. Durations are whole seconds. Day and hour buckets are in the tenant's time
 * zone (tenant setting `timeZone`, default America/Sao_Paulo).
 *
 * The query schemas (zod) live beside these types once the server implements them; the query is:
 *   startDate, endDate  required; yyyy-MM-dd or dd/MM/yyyy, inclusive days in the tenant's zone;
 *                       invalid -> 400 ERR_VALIDATION with field message 'Data inválida';
 *                       endDate before startDate -> 400; a period longer than 366 days -> 400.
 *   queuesIds           optional id list (`1,2`, repeated, `queuesIds[]=`); empty = every queue the
 *                       caller may see.
 */

export const STATISTICS_PATHS = {
  /** Counters and times for the period: one row (an array of one, as the anchor answers). */
  ticketsTimes: '/statistics-tickets-times',
  /** Tickets by channel for the period. */
  ticketsChannels: '/statistics-tickets-channels',
  /** Tickets per day (or per hour for a one-day period) for the period. */
  ticketsEvolutionByPeriod: '/statistics-tickets-evolution-by-period',
  /** Tickets per day and channel for the period. */
  ticketsEvolutionChannels: '/statistics-tickets-evolution-channels',
  /** Tickets by queue for the period. */
  ticketsQueue: '/statistics-tickets-queue',
  /** Tickets by hour of day (0-23) for the period (ours; the anchor has none). */
  ticketsHours: '/statistics-tickets-hours',
  /** Per-agent statistics for the period (also the report estatisticas-atendimentos-usuarios). */
  perUsers: '/statistics-per-users',
  /** Agents now: online state and their open and pending tickets (no period). */
  perUsersDetail: '/statistics-tickets-per-users-detail',
  /** Live ticket panel: every open and pending ticket by agent and queue, oldest first (no period; admin only). */
  dashTicketsQueues: '/dash-tickets-queues',
  /** Messages in and out for the period. */
  countMessages: '/count/messages',
} as const;

/** median and 90th percentile, in seconds; null when there is no sample in the period. */
export interface DurationStats {
  median: number | null;
  p90: number | null;
  /** mean, for the anchor's TMA/TME */
  average: number | null;
  samples: number;
}

export interface TicketsTimesRow {
  // anchor fields
  qtd_total_atendimentos: number;
  qtd_demanda_ativa: number;
  qtd_demanda_receptiva: number;
  new_contacts: number;
  /** anchor: average resolution and waiting time, as 'HH:MM:SS' text */
  tma: string | null;
  tme: string | null;
  // ours
  /** tickets in each status now, among tickets of the chosen queues (not bounded by the period) */
  open: number;
  pending: number;
  /** tickets resolved within the period */
  resolved: number;
  /** pending -> first open (waiting), first agent reply, opened -> resolved */
  waiting: DurationStats;
  firstResponse: DurationStats;
  resolution: DurationStats;
  ratings: { count: number; average: number | null; /** count per score 0..5 */ distribution: number[] };
  messagesIn: number;
  messagesOut: number;
}

/** One bucket of a breakdown: anchor `label`, `qtd`, `pertentual` (sic, the anchor's spelling). */
export interface CountBucket {
  label: string;
  qtd: number;
  pertentual: number;
  /** the id behind the label where there is one (queue, channel, user); null for "no queue" */
  id?: number | null;
}

export interface EvolutionBucket {
  /** bucket start in the tenant's zone: yyyy-MM-dd, or yyyy-MM-ddTHH:00 for hourly buckets */
  dt_referencia: string;
  label: string;
  qtd: number;
  /** channel for the per-channel evolution */
  channel?: string;
}

export interface HourBucket {
  hour: number;
  qtd: number;
}

export interface PerUserRow {
  userId: number | null;
  name: string;
  email: string | null;
  ticketsHandled: number;
  ticketsResolved: number;
  messagesSent: number;
  firstResponse: DurationStats;
  resolution: DurationStats;
  ratings: { count: number; average: number | null };
}

export interface AgentNowRow {
  userId: number;
  name: string;
  online: boolean;
  open: number;
  pending: number;
  /** seconds the oldest of their open tickets has waited for an answer, null if none waits */
  oldestWaitingSeconds: number | null;
}

export interface PanelTicket {
  id: number;
  status: 'open' | 'pending';
  contactName: string;
  contactNumber: string | null;
  queueId: number | null;
  userId: number | null;
  channelId: number | null;
  /** when the ticket started waiting (last inbound message without an answer), ISO */
  waitingSince: string | null;
  waitingSeconds: number | null;
  lastMessage: string | null;
  updatedAt: string;
}

export interface DashTicketsQueuesAnswer {
  /**
   * one lane per agent (userId null = no agent) with their tickets, oldest waiting first; `open`
   * and `pending` count all of the lane's tickets, `tickets` holds at most the query's `limit`
   */
  users: Array<{ userId: number | null; name: string; online: boolean; open: number; pending: number; tickets: PanelTicket[] }>;
  /** one lane per queue (queueId null = no queue) */
  queues: Array<{ queueId: number | null; name: string; color: string | null; open: number; pending: number }>;
}

export interface CountMessagesAnswer {
  messagesIn: number;
  messagesOut: number;
}
