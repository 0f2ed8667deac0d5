import { describe, expect, it } from 'vitest';
import { DESKTOP_LIMITS } from '@shared/desktop-api';
import {
  clampBadgeCount,
  parseListeningEvent,
  parseMediaBudget,
  parseMediaMessageId,
  parseNotificationRequest,
  parseRefreshToken,
} from './desktop-ipc.validation';

describe('parseNotificationRequest', () => {
  it('accepts a title, a body and an optional ticket', () => {
    expect(parseNotificationRequest({ title: ' Maria ', body: 'Olá!', ticketId: 42 })).toEqual({
      ok: true,
      value: { title: 'Maria', body: 'Olá!', ticketId: 42 },
    });
    expect(parseNotificationRequest({ title: 'Maria', body: '' })).toEqual({ ok: true, value: { title: 'Maria', body: '' } });
    expect(parseNotificationRequest({ title: 'Maria', body: 'x', ticketId: null })).toEqual({
      ok: true,
      value: { title: 'Maria', body: 'x' },
    });
  });

  it('accepts an internal-chat conversation to open on click, its two fields only', () => {
    expect(parseNotificationRequest({ title: 'Ana', body: 'oi', chat: { kind: 'team', id: 7, extra: 'x' } })).toEqual({
      ok: true,
      value: { title: 'Ana', body: 'oi', chat: { kind: 'team', id: 7 } },
    });
  });

  it('drops unknown fields', () => {
    const parsed = parseNotificationRequest({ title: 't', body: 'b', icon: 'file:///etc/passwd', actions: [] });
    expect(parsed).toEqual({ ok: true, value: { title: 't', body: 'b' } });
  });

  it.each([
    [null, 'object'],
    [[], 'object'],
    ['hello', 'object'],
    [{ body: 'b' }, 'title'],
    [{ title: '   ', body: 'b' }, 'title'],
    [{ title: 't'.repeat(DESKTOP_LIMITS.notificationTitleMax + 1), body: 'b' }, 'title'],
    [{ title: 't' }, 'body'],
    [{ title: 't', body: 'b'.repeat(DESKTOP_LIMITS.notificationBodyMax + 1) }, 'body'],
    [{ title: 't\u0007', body: 'b' }, 'control'],
    [{ title: 't', body: 'b', ticketId: '42' }, 'ticketId'],
    [{ title: 't', body: 'b', ticketId: 0 }, 'ticketId'],
    [{ title: 't', body: 'b', ticketId: 1.5 }, 'ticketId'],
    [{ title: 't', body: 'b', ticketId: 2 ** 60 }, 'ticketId'],
    [{ title: 't', body: 'b', chat: { kind: 'group', id: 1 } }, 'chat'],
    [{ title: 't', body: 'b', chat: { kind: 'user', id: '1' } }, 'chat'],
    [{ title: 't', body: 'b', chat: 'user:1' }, 'chat'],
  ])('refuses %j', (input, field) => {
    const parsed = parseNotificationRequest(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain(field);
  });

  it('accepts the limits exactly', () => {
    const parsed = parseNotificationRequest({
      title: 't'.repeat(DESKTOP_LIMITS.notificationTitleMax),
      body: 'b'.repeat(DESKTOP_LIMITS.notificationBodyMax),
    });
    expect(parsed.ok).toBe(true);
  });
});

describe('clampBadgeCount', () => {
  it.each([
    [3, 3],
    [0, 0],
    [-4, 0],
    [2.9, 2],
    [0.5, 0],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, DESKTOP_LIMITS.badgeCountMax],
    [Number.NEGATIVE_INFINITY, 0],
    [1e9, DESKTOP_LIMITS.badgeCountMax],
    ['7', 0],
    [null, 0],
    [undefined, 0],
    [{ valueOf: (): number => 5 }, 0],
  ])('%s -> %s', (input, expected) => {
    expect(clampBadgeCount(input)).toBe(expected);
  });
});

describe('parseRefreshToken', () => {
  it('accepts JWT-shaped and opaque tokens', () => {
    expect(parseRefreshToken('eyJhbGciOi.eyJzdWIiOjF9.c2lnbg')).toEqual({ ok: true, value: 'eyJhbGciOi.eyJzdWIiOjF9.c2lnbg' });
  });

  it.each(['', 'has space', 'line\nbreak', 'ação', 'x'.repeat(DESKTOP_LIMITS.refreshTokenMax + 1), 42, null])(
    'refuses %j',
    (input) => {
      expect(parseRefreshToken(input).ok).toBe(false);
    },
  );
});

describe('parseListeningEvent', () => {
  it('accepts only the declared event names', () => {
    expect(parseListeningEvent('deepLink')).toBe('deepLink');
    expect(parseListeningEvent('notificationClick')).toBe('notificationClick');
    expect(parseListeningEvent('desktop:deep-link')).toBeNull();
    expect(parseListeningEvent('__proto__')).toBeNull();
    expect(parseListeningEvent(1)).toBeNull();
  });
});

describe('media cache input', () => {
  it('takes a positive integer message id only', () => {
    expect(parseMediaMessageId(42)).toEqual({ ok: true, value: 42 });
    for (const bad of [0, -1, 1.5, '42', null, undefined, Number.MAX_SAFE_INTEGER + 2, { id: 1 }]) {
      expect(parseMediaMessageId(bad)).toEqual({ ok: false, error: 'messageId must be a positive integer' });
    }
  });

  it('takes a budget of whole bytes from 10 MB to 10 GB', () => {
    expect(parseMediaBudget(DESKTOP_LIMITS.mediaBudgetMinBytes)).toEqual({ ok: true, value: 10 * 1024 * 1024 });
    expect(parseMediaBudget(DESKTOP_LIMITS.mediaBudgetMaxBytes)).toEqual({ ok: true, value: 10 * 1024 ** 3 });
    for (const bad of [DESKTOP_LIMITS.mediaBudgetMinBytes - 1, DESKTOP_LIMITS.mediaBudgetMaxBytes + 1, 20e6 + 0.5, '200000000', Infinity, NaN]) {
      expect(parseMediaBudget(bad).ok).toBe(false);
    }
  });
});
