import { describe, expect, it } from 'vitest';
import { DESKTOP_EVENT_CHANNELS } from '@shared/desktop-api';
import { createRendererEventRouter } from './renderer-event.queue';

function setup(options: { windowAlive?: boolean; max?: number } = {}) {
  const sent: Array<[string, unknown]> = [];
  let alive = options.windowAlive ?? true;
  const router = createRendererEventRouter({
    send: (channel, payload) => {
      if (!alive) return false;
      sent.push([channel, payload]);
      return true;
    },
    maxPendingPerEvent: options.max,
  });
  return { router, sent, setAlive: (value: boolean) => (alive = value) };
}

describe('createRendererEventRouter', () => {
  it('holds a cold-start deep link until the renderer listens', () => {
    const { router, sent } = setup();
    router.dispatch('deepLink', { path: '/tickets/1', query: {} });
    expect(sent).toEqual([]);
    router.markListening('deepLink');
    expect(sent).toEqual([[DESKTOP_EVENT_CHANNELS.deepLink, { path: '/tickets/1', query: {} }]]);
    expect(router.pendingCount('deepLink')).toBe(0);
  });

  it('delivers immediately once listening, per event', () => {
    const { router, sent } = setup();
    router.markListening('notificationClick');
    router.dispatch('notificationClick', { ticketId: 5 });
    router.dispatch('deepLink', { path: '/x', query: {} });
    expect(sent).toEqual([[DESKTOP_EVENT_CHANNELS.notificationClick, { ticketId: 5 }]]);
    expect(router.pendingCount('deepLink')).toBe(1);
  });

  it('holds events again while the page reloads', () => {
    const { router, sent } = setup();
    router.markListening('notificationClick');
    router.reset();
    router.dispatch('notificationClick', { ticketId: 6 });
    expect(sent).toEqual([]);
    router.markListening('notificationClick');
    expect(sent).toEqual([[DESKTOP_EVENT_CHANNELS.notificationClick, { ticketId: 6 }]]);
  });

  it('keeps events when the window is gone and sends them when it is back', () => {
    const { router, sent, setAlive } = setup({ windowAlive: false });
    router.markListening('deepLink');
    router.dispatch('deepLink', { path: '/a', query: {} });
    expect(router.pendingCount('deepLink')).toBe(1);
    setAlive(true);
    router.markListening('deepLink');
    expect(sent).toHaveLength(1);
  });

  it('bounds the queue and keeps the most recent events', () => {
    const { router, sent } = setup({ max: 2 });
    for (const ticketId of [1, 2, 3]) router.dispatch('notificationClick', { ticketId });
    router.markListening('notificationClick');
    expect(sent.map(([, payload]) => payload)).toEqual([{ ticketId: 2 }, { ticketId: 3 }]);
  });
});
