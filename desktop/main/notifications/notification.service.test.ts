import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { createNotificationService } from './notification.service';

class FakeNotification extends EventEmitter {
  shown = false;
  constructor(readonly options: { title: string; body: string }) {
    super();
  }
  show() {
    this.shown = true;
  }
}

function setup(supported = true, maxTracked?: number, muted = false) {
  const created: FakeNotification[] = [];
  const onClick = vi.fn();
  const service = createNotificationService({
    isSupported: () => supported,
    createNotification: (options) => {
      const notification = new FakeNotification(options);
      created.push(notification);
      return notification;
    },
    onClick,
    maxTracked,
    isMuted: () => muted,
  });
  return { service, created, onClick };
}

describe('createNotificationService', () => {
  it('shows a native notification with only title and body', () => {
    const { service, created } = setup();
    expect(service.show({ title: 'Maria', body: 'Olá', ticketId: 7 })).toBe('shown');
    expect(created[0].options).toEqual({ title: 'Maria', body: 'Olá' });
    expect(created[0].shown).toBe(true);
  });

  it('reports the ticket when clicked and releases the notification', () => {
    const { service, created, onClick } = setup();
    service.show({ title: 'Maria', body: 'Olá', ticketId: 7 });
    expect(service.trackedCount()).toBe(1);
    created[0].emit('click');
    expect(onClick).toHaveBeenCalledWith({ ticketId: 7 });
    expect(service.trackedCount()).toBe(0);
  });

  it('reports the internal-chat conversation when clicked (main opens it as a deep link)', () => {
    const { service, created, onClick } = setup();
    service.show({ title: 'Ana', body: 'oi', chat: { kind: 'user', id: 2 } });
    expect(created[0].options).toEqual({ title: 'Ana', body: 'oi' });
    created[0].emit('click');
    expect(onClick).toHaveBeenCalledWith({ chat: { kind: 'user', id: 2 } });
  });

  it('reports a click without a ticket as such', () => {
    const { service, created, onClick } = setup();
    service.show({ title: 'Aviso', body: '' });
    created[0].emit('click');
    expect(onClick).toHaveBeenCalledWith({});
  });

  it('releases closed and failed notifications', () => {
    const { service, created } = setup();
    service.show({ title: 'a', body: '' });
    service.show({ title: 'b', body: '' });
    created[0].emit('close');
    created[1].emit('failed', 'toast error');
    expect(service.trackedCount()).toBe(0);
  });

  it('keeps a bounded number alive', () => {
    const { service } = setup(true, 3);
    for (let i = 0; i < 10; i += 1) service.show({ title: `n${i}`, body: '' });
    expect(service.trackedCount()).toBe(3);
  });

  it('does nothing where notifications are unsupported', () => {
    const { service, created } = setup(false);
    expect(service.show({ title: 'a', body: '' })).toBe('unsupported');
    expect(created).toHaveLength(0);
  });

  it('shows nothing while the agent chose do not disturb', () => {
    const { service, created } = setup(true, undefined, true);
    expect(service.show({ title: 'Nova mensagem', body: 'oi', ticketId: 3 })).toBe('muted');
    expect(created).toHaveLength(0);
    expect(setup().service.show({ title: 'Nova mensagem', body: 'oi' })).toBe('shown');
  });
});
