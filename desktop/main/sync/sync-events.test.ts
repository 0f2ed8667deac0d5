import { describe, expect, it } from 'vitest';
import type { DomainEventEnvelope } from '@shared/events';
import { contactFixture, isoAt, messageFixture, ticketFixture } from '../cache/cache-fixtures.test-support';
import { batchOfEvents, isEnvelope, purgeRequestOf } from './sync-events';

/** How each event name and payload becomes cache writes (the server's names: docs/api.md, Socket.IO). */

let seq = 0;
const envelope = (name: string, payload: unknown, createdAt = isoAt(seq + 1)): DomainEventEnvelope => ({
  seq: ++seq,
  tenantId: 1,
  name,
  payload,
  createdAt,
});

describe('batchOfEvents', () => {
  it('maps ticket, message and contact events; the last copy of a row wins', () => {
    const batch = batchOfEvents([
      envelope('ticket:create', { action: 'create', ticket: ticketFixture(1, { lastMessage: 'a' }) }),
      envelope('appMessage:create', { action: 'create', ticketId: 1, message: messageFixture(10, 1, { ack: 0 }) }),
      envelope('appMessage:ack', { action: 'update', ticketId: 1, message: messageFixture(10, 1, { ack: 2 }) }),
      envelope('appMessage:update', { action: 'update', ticketId: 1, message: messageFixture(11, 1) }),
      envelope('appMessage:delete', { action: 'delete', ticketId: 1, message: messageFixture(12, 1, { isDeleted: true }) }),
      envelope('ticket:update', { action: 'update', ticket: ticketFixture(1, { lastMessage: 'b' }) }),
      envelope('contact:update', { action: 'create', contact: contactFixture(5) }),
      envelope('contact:update', { action: 'update', contact: contactFixture(5, { name: 'Novo nome' }) }),
    ]);
    expect(batch.tickets.map((t) => t.lastMessage)).toEqual(['b']);
    expect(batch.messages.map((m) => [m.id, m.ack, m.isDeleted])).toEqual([
      [10, 2, false],
      [11, 0, false],
      [12, 3, true],
    ]);
    expect(batch.contacts.map((c) => c.name)).toEqual(['Novo nome']);
    expect(batch.deletedTickets).toEqual([]);
  });

  it('a deleted contact leaves the batch and is deleted; a bulk change writes nothing', () => {
    const batch = batchOfEvents([
      envelope('contact:update', { action: 'create', contact: contactFixture(8) }),
      envelope('contact:update', { action: 'create', contact: contactFixture(9) }),
      envelope('contact:update', { action: 'delete', contactId: 8 }),
      envelope('contact:update', { action: 'bulk', source: 'removeDuplicates' }),
    ]);
    expect(batch.contacts.map((c) => c.id)).toEqual([9]);
    expect(batch.deletedContacts).toEqual([8]);
  });

  it('a ticket leaving sight is a deletion at the event’s time', () => {
    const hidden = envelope('ticket:delete', { action: 'delete', ticketId: 7, reason: 'hidden' }, isoAt(500));
    expect(batchOfEvents([hidden]).deletedTickets).toEqual([{ ticketId: 7, deletedAt: isoAt(500) }]);
  });

  it('events the cache does not keep, and malformed payloads, write nothing', () => {
    const batch = batchOfEvents([
      envelope('ticket:note', { action: 'create', ticketId: 1, note: { id: 1 } }),
      envelope('user:status', { userId: 1, isOnline: true }),
      envelope('contact:update', { action: 'delete', contactId: 'x' }),
      envelope('contact:update', { action: 'bulk', source: 'import' }),
      envelope('whatsappSession', { action: 'update', session: {} }),
      envelope('something:new', { whatever: true }),
      envelope('ticket:update', { action: 'update', ticket: null }),
      envelope('appMessage:create', { action: 'create', ticketId: 1 }),
      envelope('ticket:delete', { action: 'delete', ticketId: 'x' }),
      envelope('ticket:update', null),
    ]);
    expect(batch).toEqual({ tickets: [], messages: [], contacts: [], deletedTickets: [], deletedContacts: [] });
  });
});

describe('isEnvelope', () => {
  it('accepts the server’s envelope and nothing else', () => {
    expect(isEnvelope({ seq: 3, tenantId: 1, name: 'ticket:update', payload: {}, createdAt: isoAt(1) })).toBe(true);
    for (const bad of [
      null,
      'event',
      { seq: 0, tenantId: 1, name: 'x', createdAt: isoAt(1) },
      { seq: 1.5, tenantId: 1, name: 'x', createdAt: isoAt(1) },
      { seq: '3', tenantId: 1, name: 'x', createdAt: isoAt(1) },
      { seq: 3, name: 'x', createdAt: isoAt(1) },
      { seq: 3, tenantId: 1, createdAt: isoAt(1) },
      { seq: 3, tenantId: 1, name: 'x' },
    ]) {
      expect(isEnvelope(bad)).toBe(false);
    }
  });
});

describe('purgeRequestOf', () => {
  it('finds the first desktop:purge naming the cache’s user; others, and malformed ones, are not a purge', () => {
    const other = envelope('desktop:purge', { userId: 8, reason: 'admin' });
    const malformed = [envelope('desktop:purge', null), envelope('desktop:purge', { userId: '7' }), envelope('desktop:purge', 7)];
    const mine = envelope('desktop:purge', { userId: 7, reason: 'self' });
    const again = envelope('desktop:purge', { userId: 7, reason: 'admin' });
    const events = [envelope('ticket:update', { action: 'update', ticket: ticketFixture(1) }), other, ...malformed, mine, again];
    expect(purgeRequestOf(events, 7)).toEqual({ seq: mine.seq, reason: 'self' });
    expect(purgeRequestOf(events, 8)).toEqual({ seq: other.seq, reason: 'admin' });
    expect(purgeRequestOf([other, ...malformed], 7)).toBeNull();
    // An unknown reason still purges (the server decides who may): shown as an administrator's.
    expect(purgeRequestOf([envelope('desktop:purge', { userId: 7, reason: 'later' })], 7)?.reason).toBe('admin');
  });

  it('is not a cache write', () => {
    expect(batchOfEvents([envelope('desktop:purge', { userId: 7, reason: 'admin' })])).toEqual({
      tickets: [],
      messages: [],
      contacts: [],
      deletedTickets: [],
      deletedContacts: [],
    });
  });
});
