import { describe, expect, it } from 'vitest';
import type { DesktopApi } from '@shared/desktop-api';
import { OutboxEntrySchema } from '@shared/schemas/outbox';
import { enqueueAction, enqueueText } from './offline-send';

/** The bridge's outbox as main answers it: entries checked with main's own schema, in order. */
function desktopRecording() {
  const entries: unknown[] = [];
  const desktop = {
    outbox: {
      enqueue: async (entry: unknown) => {
        OutboxEntrySchema.parse(entry);
        entries.push(entry);
        return `dsk:${entries.length}`;
      },
    },
  } as unknown as DesktopApi;
  return { desktop, entries };
}

describe('offline actions queued in the outbox', () => {
  it('a reaction and its removal', async () => {
    const { desktop, entries } = desktopRecording();
    expect(await enqueueAction(desktop, { kind: 'reaction', ticketId: 4, messageId: 90, emoji: '👍' })).toBe('dsk:1');
    expect(await enqueueAction(desktop, { kind: 'reaction', ticketId: 4, messageId: 90, emoji: '' })).toBe('dsk:2');
    expect(entries).toEqual([
      { kind: 'reaction', ticketId: 4, payload: { messageId: 90, emoji: '👍' } },
      { kind: 'reaction', ticketId: 4, payload: { messageId: 90, emoji: '' } },
    ]);
  });

  it('status changes carry the close choices only when closing, and the ticket as the agent saw it', async () => {
    const { desktop, entries } = desktopRecording();
    const expected = { status: 'open' as const, userId: 7, queueId: 2 };
    await enqueueAction(desktop, { kind: 'ticketStatus', ticketId: 4, status: 'closed', sendFarewellMessage: true, requestRating: false, expected });
    await enqueueAction(desktop, { kind: 'ticketStatus', ticketId: 4, status: 'pending', sendFarewellMessage: true });
    expect(entries).toEqual([
      { kind: 'ticketStatus', ticketId: 4, payload: { status: 'closed', sendFarewellMessage: true, requestRating: false }, expected },
      { kind: 'ticketStatus', ticketId: 4, payload: { status: 'pending' } },
    ]);
  });

  it('a text keeps the composer’s client id, so a send that reached the server is stored once', async () => {
    const { desktop, entries } = desktopRecording();
    await enqueueText(desktop, { ticketId: 4, body: 'olá', clientId: '0b0c3f8e-6f7e-4a43-9a0e-1f1e6b9d2c11' });
    expect(entries).toEqual([{ kind: 'message', ticketId: 4, payload: { body: 'olá' }, clientId: '0b0c3f8e-6f7e-4a43-9a0e-1f1e6b9d2c11' }]);
  });

  it('what the outbox would refuse is not queued', async () => {
    const { desktop, entries } = desktopRecording();
    expect(await enqueueAction(desktop, { kind: 'reaction', ticketId: 0, messageId: 90, emoji: '👍' })).toBeNull();
    expect(await enqueueText(desktop, { ticketId: 4, body: '   ' })).toBeNull();
    expect(entries).toEqual([]);
  });
});
