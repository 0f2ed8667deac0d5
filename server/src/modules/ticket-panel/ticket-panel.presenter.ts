import type { AgentNowRow, DashTicketsQueuesAnswer, PanelTicket } from '@shared/schemas/statistics';

/** Rows of the ticket panel queries and their answers (shared/schemas/statistics.ts). */

export interface PanelTicketRow {
  id: number;
  status: 'open' | 'pending';
  contactName: string;
  contactNumber: string | null;
  queueId: number | null;
  userId: number | null;
  channelId: number | null;
  waitingSince: Date | null;
  lastMessage: string | null;
  updatedAt: Date;
  laneOpen: string | number;
  lanePending: string | number;
}

export interface PanelUserRow {
  id: number;
  name: string;
  isOnline: boolean;
}

export interface QueueCountRow {
  queueId: number | null;
  status: 'open' | 'pending';
  n: string | number;
}

export interface QueueRow {
  id: number;
  name: string;
  color: string | null;
  active: boolean;
}

export interface AgentCountRow {
  userId: number;
  open: string | number;
  pending: string | number;
  oldestWaiting: Date | null;
}

/** Whole seconds from `since` to `now`, never negative (clocks of two machines may disagree). */
export const secondsSince = (since: Date | null, now: Date): number | null =>
  since === null ? null : Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000));

export function presentPanelTicket(row: PanelTicketRow, now: Date): PanelTicket {
  return {
    id: row.id,
    status: row.status,
    contactName: row.contactName,
    contactNumber: row.contactNumber,
    queueId: row.queueId,
    userId: row.userId,
    channelId: row.channelId,
    waitingSince: row.waitingSince ? row.waitingSince.toISOString() : null,
    waitingSeconds: secondsSince(row.waitingSince, now),
    lastMessage: row.lastMessage,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The board: the "no agent" lane first, then every user of the tenant in name order (an agent
 * without tickets still has a lane: the administrator sees who is free); then the queues, the
 * tenant's active ones and any other that holds tickets, plus "no queue" when tickets have none.
 */
export function presentPanel(
  tickets: PanelTicketRow[],
  users: PanelUserRow[],
  queueCounts: QueueCountRow[],
  queues: QueueRow[],
  noAgentName: string,
  noQueueName: string,
  now: Date,
): DashTicketsQueuesAnswer {
  type Lane = DashTicketsQueuesAnswer['users'][number];
  const lanes = new Map<number | null, Lane>();
  lanes.set(null, { userId: null, name: noAgentName, online: false, open: 0, pending: 0, tickets: [] });
  for (const user of users)
    lanes.set(user.id, { userId: user.id, name: user.name, online: user.isOnline, open: 0, pending: 0, tickets: [] });
  for (const row of tickets) {
    let lane = lanes.get(row.userId);
    if (!lane) {
      // A ticket of a user who is not listed (another tenant's id cannot be here: the query is scoped).
      lane = { userId: row.userId, name: `#${row.userId}`, online: false, open: 0, pending: 0, tickets: [] };
      lanes.set(row.userId, lane);
    }
    lane.open = Number(row.laneOpen);
    lane.pending = Number(row.lanePending);
    lane.tickets.push(presentPanelTicket(row, now));
  }

  const counts = new Map<number | null, { open: number; pending: number }>();
  for (const row of queueCounts) {
    const entry = counts.get(row.queueId) ?? { open: 0, pending: 0 };
    entry[row.status] += Number(row.n);
    counts.set(row.queueId, entry);
  }
  const queueLanes: DashTicketsQueuesAnswer['queues'] = queues
    .filter((queue) => queue.active || counts.has(queue.id))
    .map((queue) => ({
      queueId: queue.id,
      name: queue.name,
      color: queue.color,
      ...(counts.get(queue.id) ?? { open: 0, pending: 0 }),
    }));
  const noQueue = counts.get(null);
  if (noQueue) queueLanes.push({ queueId: null, name: noQueueName, color: null, ...noQueue });
  return { users: [...lanes.values()], queues: queueLanes };
}

/** Agents now: online first, then by name; counts and the oldest wait of their open tickets. */
export function presentAgentsNow(users: PanelUserRow[], counts: AgentCountRow[], now: Date): AgentNowRow[] {
  const byUser = new Map(counts.map((row) => [row.userId, row]));
  return users
    .map((user) => {
      const row = byUser.get(user.id);
      return {
        userId: user.id,
        name: user.name,
        online: user.isOnline,
        open: Number(row?.open ?? 0),
        pending: Number(row?.pending ?? 0),
        oldestWaitingSeconds: secondsSince(row?.oldestWaiting ?? null, now),
      };
    })
    .sort((a, b) => Number(b.online) - Number(a.online));
}
