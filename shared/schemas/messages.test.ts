import { describe, expect, it } from 'vitest';
import { SendMessageSchema, SendNowSchema, parseScheduleDate } from './messages';

const paths = (input: unknown) => {
  const r = SendMessageSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
};

describe('schedule dates', () => {
  it('reads an offset-less ISO date (the anchor picker) as a wall time in America/Sao_Paulo, like dd/MM/yyyy', () => {
    // Brazil has had no daylight saving time since 2019: UTC-3 all year.
    expect(parseScheduleDate('2030-07-10T14:30')?.toISOString()).toBe('2030-07-10T17:30:00.000Z');
    expect(parseScheduleDate('2030-07-10T14:30:15')?.toISOString()).toBe('2030-07-10T17:30:15.000Z');
    expect(parseScheduleDate('2030-07-10T14:30')?.getTime()).toBe(parseScheduleDate('10/07/2030 14:30')?.getTime());
    expect(parseScheduleDate('2030-07-10T14:30:00Z')?.toISOString()).toBe('2030-07-10T14:30:00.000Z');
    for (const bad of ['2030-02-31T10:00', '2030-07-10T24:00', '2030-07-10', 'amanhã']) expect(parseScheduleDate(bad)).toBeNull();
  });
});

describe('SendMessageSchema (POST /messages/{ticketId})', () => {
  it('maps the anchor names onto ours: quotedMsg -> quotedMsgId, id -> clientId; scheduleDate parsed, empty = now', () => {
    expect(
      SendMessageSchema.parse({
        read: 1,
        fromMe: true,
        mediaUrl: '',
        body: 'oi',
        scheduleDate: '2030-07-10T14:30',
        quotedMsg: { id: 12, body: 'pergunta', fromMe: false },
        id: 'abc-1',
      }),
    ).toEqual({
      body: 'oi',
      bodies: undefined,
      quotedMsgId: 12,
      clientId: 'abc-1',
      isPrivate: undefined,
      scheduleDate: new Date('2030-07-10T17:30:00.000Z'),
    });
    expect(SendMessageSchema.parse({ body: 'oi', scheduleDate: '', quotedMsg: null }).scheduleDate).toBeNull();
    expect(SendMessageSchema.parse({ body: 'oi', quotedMsg: 7 }).quotedMsgId).toBe(7);
    // Multipart: repeated fields arrive as arrays.
    expect(
      SendMessageSchema.parse({
        body: ['a.png', 'b.pdf'],
        scheduleDate: ['10/07/2030 14:30', '10/07/2030 14:30'],
        fromMe: 'true',
      }),
    ).toMatchObject({
      body: undefined,
      bodies: ['a.png', 'b.pdf'],
      scheduleDate: new Date('2030-07-10T17:30:00.000Z'),
    });
    expect(SendNowSchema.parse({ ticketId: '3', body: 'x', id: 'n-1' })).toMatchObject({ ticketId: 3, clientId: 'n-1' });
  });

  it('refuses, naming the field, what a send cannot do or what contradicts itself', () => {
    expect(paths({ body: 'x', fromMe: false })).toEqual(['fromMe']);
    expect(paths({ body: 'x', read: 0 })).toEqual(['read']);
    expect(paths({ body: 'x', mediaUrl: 'https://example.com/a.png' })).toEqual(['mediaUrl']);
    expect(paths({ body: 'x', quotedMsg: { body: 'sem id' } })).toEqual(['quotedMsg']);
    expect(paths({ body: 'x', quotedMsg: { id: 1 }, quotedMsgId: 2 })).toEqual(['quotedMsg']);
    expect(paths({ body: 'x', id: 'a', clientId: 'b' })).toEqual(['id']);
    expect(paths({ body: 'x', scheduleDate: '31/02/2030 10:00' })).toEqual(['scheduleDate']);
    expect(paths({ body: 'x', scheduleDate: ['10/07/2030 14:30', '11/07/2030 14:30'] })).toEqual(['scheduleDate']);
    expect(paths({ body: 'x', isPrivate: true, scheduleDate: '10/07/2030 14:30' })).toEqual(['scheduleDate']);
    expect(
      paths({
        body: 'x',
        fromMe: true,
        read: true,
        mediaUrl: null,
        id: 'a',
        clientId: 'a',
        quotedMsgId: 1,
        quotedMsg: { id: 1 },
      }),
    ).toEqual([]);
  });
});
