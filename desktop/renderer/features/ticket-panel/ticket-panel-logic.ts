import type { DashTicketsQueuesAnswer, PanelTicket } from '@shared/schemas/statistics';

/** What the ticket panel shows, decided without React (tested on its own). */

export type PanelLane = DashTicketsQueuesAnswer['users'][number];

/**
 * The board's columns: "no agent" first (always: new tickets land there), then agents online
 * or holding tickets, online ones first, each group in the server's name order. Agents offline
 * with nothing to do would only push the busy columns off screen.
 */
export function boardLanes(answer: DashTicketsQueuesAnswer | undefined): PanelLane[] {
  if (!answer) return [];
  const noAgent = answer.users.find((lane) => lane.userId === null);
  const agents = answer.users.filter((lane) => lane.userId !== null && (lane.online || lane.open + lane.pending > 0));
  const online = agents.filter((lane) => lane.online);
  const offline = agents.filter((lane) => !lane.online);
  return [...(noAgent ? [noAgent] : []), ...online, ...offline];
}

/** A ticket's wait now: what the server measured plus the time since its answer arrived. */
export function waitingNow(ticket: Pick<PanelTicket, 'waitingSeconds'>, elapsedMs: number): number | null {
  if (ticket.waitingSeconds === null) return null;
  return ticket.waitingSeconds + Math.max(0, Math.floor(elapsedMs / 1000));
}

/** How urgent a wait looks: under 5 minutes calm, under 15 a warning, then danger. */
export function waitIntent(seconds: number | null): 'none' | 'warning' | 'danger' {
  if (seconds === null || seconds < 5 * 60) return 'none';
  return seconds < 15 * 60 ? 'warning' : 'danger';
}

export interface PanelTotals {
  open: number;
  pending: number;
  agentsOnline: number;
}

export function panelTotals(answer: DashTicketsQueuesAnswer | undefined): PanelTotals {
  const lanes = answer?.users ?? [];
  return {
    open: lanes.reduce((sum, lane) => sum + lane.open, 0),
    pending: lanes.reduce((sum, lane) => sum + lane.pending, 0),
    agentsOnline: lanes.filter((lane) => lane.userId !== null && lane.online).length,
  };
}
