import { describe, expect, it } from 'vitest';
import type { OutboxItem } from '@shared/schemas/outbox';
import { outboxStore, pendingBubbles } from './outbox-store';

const item = (seq: number, extra: Partial<OutboxItem> = {}): OutboxItem =>
  ({
    kind: 'message',
    ticketId: 5,
    payload: { body: `texto ${seq}` },
    clientId: `dsk:${seq}`,
    seq,
    createdAt: seq,
    attempts: 0,
    state: 'queued',
    nextAttemptAt: 0,
    lastError: null,
    result: null,
    ...extra,
  }) as OutboxItem;

describe("the thread's pending bubbles", () => {
  it('a reaction or status change waiting or refused is shown (its conflict too), and no longer once done', () => {
    const reaction = { ...item(1), kind: 'reaction', payload: { messageId: 1, emoji: '👍' } } as OutboxItem;
    const close = {
      ...item(2, { state: 'conflict', lastError: { code: 'ERR_OUTBOX_TICKET_CHANGED', message: 'O atendimento mudou', status: null } }),
      kind: 'ticketStatus',
      payload: { status: 'closed' },
    } as OutboxItem;
    const doneReaction = { ...item(3, { state: 'done' }), kind: 'reaction', payload: { messageId: 1, emoji: '❤️' } } as OutboxItem;
    expect(pendingBubbles([reaction, close, doneReaction], 5, new Set(), new Set(['dsk:3'])).map((b) => [b.action, b.state, b.error, b.actionable])).toEqual([
      [{ kind: 'reaction', emoji: '👍' }, 'queued', null, false],
      [{ kind: 'ticketStatus', status: 'closed' }, 'conflict', 'O atendimento mudou', true],
    ]);
  });

  it("a ticket's texts and notes in outbox order with their state; other tickets left out", () => {
    const items = [
      item(2, { state: 'sending' }),
      item(1, { payload: { body: 'nota', isPrivate: true } }),
      item(3, { ticketId: 6 }),
    ];
    expect(pendingBubbles(items, 5, new Set(), new Set()).map((b) => [b.clientId, b.state, b.body, b.isPrivate, b.actionable])).toEqual([
      ['dsk:1', 'queued', 'nota', true, false],
      ['dsk:2', 'sending', 'texto 2', false, false],
    ]);
  });

  it("a conflict or failure shows the server's reason and the agent's two actions", () => {
    const conflict = item(1, { state: 'conflict', lastError: { code: 'ERR_OUTBOX_TICKET_CHANGED', message: 'O atendimento mudou', status: null } });
    const failed = item(2, { state: 'failed', lastError: { code: 'ERR_VALIDATION', message: 'Texto recusado', status: 400 } });
    expect(pendingBubbles([conflict, failed], 5, new Set(), new Set()).map((b) => [b.state, b.error, b.actionable])).toEqual([
      ['conflict', 'O atendimento mudou', true],
      ['failed', 'Texto recusado', true],
    ]);
  });

  it('delivered: shown until the server message of the same clientId is in the thread, and only when delivered here', () => {
    const done = item(1, { state: 'done', result: { messageIds: [77] } });
    expect(pendingBubbles([done], 5, new Set(), new Set(['dsk:1'])).map((b) => b.state)).toEqual(['delivered']);
    expect(pendingBubbles([done], 5, new Set(['dsk:1']), new Set(['dsk:1']))).toEqual([]);
    expect(pendingBubbles([done], 5, new Set(), new Set())).toEqual([]);
  });

  it('the store follows main: enqueued, updated to done (remembered as delivered here), discarded; counts', () => {
    outboxStore.replaceAll([item(1, { state: 'failed' })]);
    expect(outboxStore.waitingCount()).toBe(0);
    expect(outboxStore.unsentCount()).toBe(1);
    outboxStore.apply({ type: 'enqueued', item: item(2) });
    expect(outboxStore.waitingCount()).toBe(1);
    outboxStore.apply({ type: 'updated', item: item(2, { state: 'done' }) });
    expect(outboxStore.get().deliveredHere.has('dsk:2')).toBe(true);
    expect(outboxStore.waitingCount()).toBe(0);
    outboxStore.apply({ type: 'discarded', clientId: 'dsk:1' });
    expect(outboxStore.unsentCount()).toBe(0);
    outboxStore.clear();
    expect(outboxStore.get().items.size).toBe(0);
  });
});
