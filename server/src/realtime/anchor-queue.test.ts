import { describe, expect, it } from 'vitest';
import type { TicketDto } from '@shared/schemas/tickets';
import { AnchorQueue } from './anchor-queue';

const ticket = (id: number) => ({ id, status: 'open' }) as unknown as TicketDto;

function queueWithReads(fail = false) {
  const reads: number[][] = [];
  const errors: unknown[] = [];
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  const q = new AnchorQueue(
    async (_tenantId, ids) => {
      reads.push([...ids].sort((a, b) => a - b));
      await gate;
      if (fail) throw new Error('database down');
      return new Map(ids.map((id) => [id, ticket(id)]));
    },
    (err) => errors.push(err),
  );
  return {
    q,
    reads,
    errors,
    hold() {
      gate = new Promise<void>((r) => (release = r));
    },
    release: () => release(),
  };
}

describe('AnchorQueue', () => {
  it('runs each tenant\'s jobs in order, with the ticket read for them', async () => {
    const { q } = queueWithReads();
    const seen: string[] = [];
    q.enqueue(1, { ticketId: null, run: () => seen.push('a') });
    q.enqueue(1, { ticketId: 7, run: (t) => seen.push(`b:${t?.id}`) });
    q.enqueue(1, { ticketId: null, run: () => seen.push('c') });
    expect(seen).toEqual([]); // never inside the publishing loop
    await q.idle();
    expect(seen).toEqual(['a', 'b:7', 'c']);
  });

  it('jobs queued while a read runs make one batch with one read of all their tickets', async () => {
    const h = queueWithReads();
    const seen: string[] = [];
    h.hold();
    h.q.enqueue(1, { ticketId: 1, run: (t) => seen.push(`m${t?.id}`) });
    await new Promise((r) => setImmediate(r)); // the first read is under way
    for (const id of [2, 3, 2, 4]) h.q.enqueue(1, { ticketId: id, run: (t) => seen.push(`m${t?.id}`) });
    h.q.enqueue(1, { ticketId: null, run: () => seen.push('u') });
    h.release();
    await h.q.idle();
    expect(h.reads).toEqual([[1], [2, 3, 4]]);
    expect(seen).toEqual(['m1', 'm2', 'm3', 'm2', 'm4', 'u']);
  });

  it('a failed read still emits (without the whole ticket) and is reported', async () => {
    const h = queueWithReads(true);
    const seen: (number | null)[] = [];
    h.q.enqueue(1, { ticketId: 5, run: (t) => seen.push(t?.id ?? null) });
    await h.q.idle();
    expect(seen).toEqual([null]);
    expect(String(h.errors[0])).toContain('database down');
  });

  it('tenants do not wait for each other', async () => {
    const h = queueWithReads();
    const seen: string[] = [];
    h.hold();
    h.q.enqueue(1, { ticketId: 1, run: () => seen.push('t1') });
    h.q.enqueue(2, { ticketId: null, run: () => seen.push('t2') });
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['t2']);
    h.release();
    await h.q.idle();
    expect(seen).toEqual(['t2', 't1']);
  });
});
