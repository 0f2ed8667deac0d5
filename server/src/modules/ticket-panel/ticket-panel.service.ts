import { isAdminProfile } from '@shared/profiles';
import type { AgentNowRow, DashTicketsQueuesAnswer } from '@shared/schemas/statistics';
import type { AuthContext } from '../../core/auth-context';
import type { AppDeps } from '../../deps';
import { TicketViewerLoader } from '../tickets/ticket-viewer';
import { visibilitySql } from '../tickets/ticket-visibility.policy';
import { ticketPanelPolicy } from './ticket-panel.policy';
import {
  presentAgentsNow,
  presentPanel,
  type AgentCountRow,
  type PanelTicketRow,
  type PanelUserRow,
  type QueueCountRow,
  type QueueRow,
} from './ticket-panel.presenter';
import type { AgentsNowQuery, DashTicketsQueuesQuery } from './ticket-panel.schema';

/** Lane names of the answer for tickets without an agent or a queue (the web app shows its own translation). */
export const NO_AGENT_NAME = 'Sem atendente';
export const NO_QUEUE_NAME = 'Sem fila';

/**
 * When a ticket started waiting for an answer: its first customer message after the last message
 * sent to the customer (private notes count for neither), only while the ticket is unanswered
 * (`answered` is cleared by an inbound message and set by a reply). Null for an answered ticket or
 * one without customer messages.
 *
 * Both walks are written so that only the (ticketId, id) index (messages_ticket_idx) serves
 * them. Written plainly (max(o.id); m."ticketId" = t.id AND m.id > ...), the planner may take the
 * primary key instead: backwards from the newest message with a filter on the ticket, or forwards
 * from the last reply, when its estimate puts thousands of a table's messages in every ticket (a
 * table whose messages sit in a few long threads). A ticket without a reply then walked the whole
 * table, for each ticket: 9.1 s on the console benchmark's data (3,000 assigned tickets, 10,000
 * messages in one thread), which held a core of the machine while the dashboard started; 10 ms
 * with these forms. The last reply: "= ANY (ARRAY[t.id])" keeps the ticket out of the planner's
 * equal-to-a-constant reasoning, so "ORDER BY ticketId, id" is an order only that index gives.
 * The first message after it: a row comparison on (ticketId, id), a range of that index that the
 * primary key cannot use.
 */
export const WAITING_SINCE_JOIN = `
  LEFT JOIN LATERAL (
    SELECT min(m."createdAt") AS since
      FROM messages m
     WHERE m."ticketId" = t.id AND NOT m."fromMe" AND NOT m."isPrivate"
       AND (m."ticketId", m.id) > (t.id, COALESCE(
             (SELECT o.id FROM messages o
               WHERE o."ticketId" = ANY (ARRAY[t.id]) AND o."fromMe" AND NOT o."isPrivate"
               ORDER BY o."ticketId" DESC, o.id DESC LIMIT 1), 0))
  ) w ON NOT t.answered`;

/**
 * What is happening now, for the administrator's live ticket panel (GET /dash-tickets-queues)
 * and the dashboard's "agents online now" (GET /statistics-tickets-per-users-detail). Every
 * statement starts from the caller's tenant and the open/pending list indexes.
 */
export class TicketPanelService {
  private readonly viewers: TicketViewerLoader;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events' | 'clock'>) {
    this.viewers = new TicketViewerLoader(deps);
  }

  async panel(auth: AuthContext, input: DashTicketsQueuesQuery): Promise<DashTicketsQueuesAnswer> {
    ticketPanelPolicy.authorize(auth, 'panel');
    const params: unknown[] = [auth.tenantId];
    const where = await this.activeTickets(auth, input.queuesIds, params);
    params.push(input.limit);
    const limit = `$${params.length}`;
    const db = this.deps.dataSource;
    const tickets: PanelTicketRow[] = await db.query(
      `WITH active AS (
         SELECT t.id, t.status, t."queueId", t."userId", t."whatsappId", t."contactId", t."lastMessage",
                t."lastMessageAt", t."updatedAt", w.since AS "waitingSince"
           FROM tickets t ${WAITING_SINCE_JOIN}
          WHERE ${where}
       ), ranked AS (
         SELECT a.*,
                row_number() OVER lane AS rank,
                count(*) FILTER (WHERE a.status = 'open') OVER (PARTITION BY a."userId") AS "laneOpen",
                count(*) FILTER (WHERE a.status = 'pending') OVER (PARTITION BY a."userId") AS "lanePending"
           FROM active a
         WINDOW lane AS (PARTITION BY a."userId" ORDER BY a."waitingSince" ASC NULLS LAST, a."lastMessageAt" ASC, a.id ASC)
       )
       SELECT r.id, r.status, r."queueId", r."userId", r."whatsappId" AS "channelId", r."lastMessage", r."updatedAt",
              r."waitingSince", r."laneOpen", r."lanePending", c.name AS "contactName", c.number AS "contactNumber"
         FROM ranked r JOIN contacts c ON c.id = r."contactId"
        WHERE r.rank <= ${limit}
        ORDER BY r."userId" NULLS FIRST, r.rank`,
      params,
    );
    const countParams: unknown[] = [auth.tenantId];
    const countWhere = await this.activeTickets(auth, input.queuesIds, countParams);
    const queueCounts: QueueCountRow[] = await db.query(
      `SELECT t."queueId", t.status, count(*) AS n FROM tickets t WHERE ${countWhere} GROUP BY t."queueId", t.status`,
      countParams,
    );
    const queues: QueueRow[] = await db.query(
      `SELECT id, name, color, active FROM queues
        WHERE "tenantId" = $1 AND ($2::int[] IS NULL OR id = ANY($2::int[]))
        ORDER BY lower(name), id`,
      [auth.tenantId, input.queuesIds?.length ? input.queuesIds : null],
    );
    const users = await this.users(auth);
    return presentPanel(tickets, users, queueCounts, queues, NO_AGENT_NAME, NO_QUEUE_NAME, this.deps.clock.now());
  }

  async agentsNow(auth: AuthContext, input: AgentsNowQuery): Promise<AgentNowRow[]> {
    ticketPanelPolicy.authorize(auth, 'agentsNow');
    const params: unknown[] = [auth.tenantId];
    const where = await this.activeTickets(auth, input.queuesIds, params);
    const counts: AgentCountRow[] = await this.deps.dataSource.query(
      `SELECT t."userId",
              count(*) FILTER (WHERE t.status = 'open') AS open,
              count(*) FILTER (WHERE t.status = 'pending') AS pending,
              min(w.since) FILTER (WHERE t.status = 'open') AS "oldestWaiting"
         FROM tickets t ${WAITING_SINCE_JOIN}
        WHERE ${where} AND t."userId" IS NOT NULL
        GROUP BY t."userId"`,
      params,
    );
    return presentAgentsNow(await this.users(auth), counts, this.deps.clock.now());
  }

  /**
   * The open and pending tickets the caller may count, as a condition over `tickets t` (bind
   * values appended to `params`, whose $1 is the tenant). Administrators count every ticket of the
   * tenant (support e-mails too, spec section 6); a supervisor follows the ticket visibility policy
   * without showAll (their own tickets, their queues, tickets without a queue; with the setting
   * supervisorAdmin enabled, an agent's rule).
   */
  private async activeTickets(auth: AuthContext, queuesIds: number[] | undefined, params: unknown[]): Promise<string> {
    const conditions = [`t."tenantId" = $1`, `t.status IN ('open', 'pending')`];
    if (queuesIds?.length) {
      params.push(queuesIds);
      conditions.push(`t."queueId" = ANY($${params.length}::int[])`);
    }
    if (!isAdminProfile(auth.profile, auth.email)) {
      const scope = visibilitySql(await this.viewers.load(auth), { showAll: false }, params);
      if (scope) conditions.push(scope);
    }
    return conditions.join(' AND ');
  }

  private users(auth: AuthContext): Promise<PanelUserRow[]> {
    return this.deps.dataSource.query(`SELECT id, name, "isOnline" FROM users WHERE "tenantId" = $1 ORDER BY lower(name), id`, [
      auth.tenantId,
    ]);
  }
}
