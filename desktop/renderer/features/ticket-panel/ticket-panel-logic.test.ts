import { describe, expect, it } from 'vitest';
import type { DashTicketsQueuesAnswer } from '@shared/schemas/statistics';
import { boardLanes, panelTotals, waitIntent, waitingNow } from './ticket-panel-logic';

const lane = (userId: number | null, online: boolean, open = 0, pending = 0): DashTicketsQueuesAnswer['users'][number] => ({
  userId,
  name: userId === null ? 'Sem atendente' : `Agente ${userId}`,
  online,
  open,
  pending,
  tickets: [],
});

describe('boardLanes', () => {
  it('puts "no agent" first, then online agents, then offline agents holding tickets, hiding idle offline ones', () => {
    const answer: DashTicketsQueuesAnswer = {
      users: [lane(1, false, 2), lane(2, true), lane(null, false, 0, 3), lane(3, false), lane(4, true, 1)],
      queues: [],
    };
    expect(boardLanes(answer).map((l) => l.userId)).toEqual([null, 2, 4, 1]);
    expect(boardLanes(undefined)).toEqual([]);
  });

  it('totals the lanes and counts the agents online', () => {
    const answer: DashTicketsQueuesAnswer = {
      users: [lane(null, false, 0, 3), lane(1, true, 2, 1), lane(2, false, 1)],
      queues: [],
    };
    expect(panelTotals(answer)).toEqual({ open: 3, pending: 4, agentsOnline: 1 });
  });
});

describe('waiting time', () => {
  it('ticks from the server’s figure by the time passed since the answer', () => {
    expect(waitingNow({ waitingSeconds: 60 }, 0)).toBe(60);
    expect(waitingNow({ waitingSeconds: 60 }, 2999)).toBe(62);
    expect(waitingNow({ waitingSeconds: null }, 5000)).toBeNull();
    expect(waitingNow({ waitingSeconds: 10 }, -500)).toBe(10);
  });

  it('turns warning at 5 minutes and danger at 15', () => {
    expect(waitIntent(null)).toBe('none');
    expect(waitIntent(299)).toBe('none');
    expect(waitIntent(300)).toBe('warning');
    expect(waitIntent(899)).toBe('warning');
    expect(waitIntent(900)).toBe('danger');
  });
});
