import { describe, expect, it } from 'vitest';
import { entersQueue } from './ticket-writes';
import type { TicketRow } from './tickets.presenter';

const row = (fields: Partial<Pick<TicketRow, 'status' | 'queueId' | 'userId'>>): TicketRow =>
  ({ status: 'pending', queueId: 1, userId: null, ...fields }) as TicketRow;

describe('entersQueue (the queue greeting goes once per entry)', () => {
  it.each([
    ['transfer to another queue', row({ queueId: 1 }), row({ queueId: 2 }), true],
    ['transfer from no queue', row({ queueId: null }), row({ queueId: 2 }), true],
    [
      'transfer to another queue with an agent',
      row({ status: 'open', userId: 5 }),
      row({ status: 'open', queueId: 2, userId: 6 }),
      true,
    ],
    [
      'return to the queue (agent leaves, pending)',
      row({ status: 'open', userId: 5 }),
      row({ status: 'pending', userId: null }),
      true,
    ],
    ['reopened into a queue', row({ status: 'closed', userId: 5 }), row({ status: 'pending', userId: null }), true],
    ['an agent takes it', row({}), row({ status: 'open', userId: 5 }), false],
    ['assigned to another agent', row({ status: 'open', userId: 5 }), row({ status: 'open', userId: 6 }), false],
    ['closed', row({ status: 'open', userId: 5 }), row({ status: 'closed', userId: 5 }), false],
    ['moved out of any queue', row({ queueId: 1 }), row({ queueId: null }), false],
    ['other fields only', row({}), row({}), false],
  ])('%s: %s', (_label, before, after, expected) => {
    expect(entersQueue(before, after)).toBe(expected);
  });
});
