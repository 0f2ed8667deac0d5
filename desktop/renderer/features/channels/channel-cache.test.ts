import { describe, expect, it } from 'vitest';
import type { ChannelDto } from '@shared/schemas/channels';
import { applyChannelEventToList, channelEventOf, patchSession, upsertChannel } from './channel-cache';

const ch = (id: number, name: string, over: Partial<ChannelDto> = {}) =>
  ({ id, name, type: 'telegram', status: 'DISCONNECTED', qrcode: null, isDefault: false, ...over }) as ChannelDto;

describe('channel events on the cached list', () => {
  it('inserts in name order and moves the default flag', () => {
    const list = [ch(1, 'beta', { isDefault: true }), ch(2, 'delta')];
    const next = upsertChannel(list, ch(3, 'Alfa', { isDefault: true }));
    expect(next.map((c) => [c.id, c.isDefault])).toEqual([
      [3, true],
      [1, false],
      [2, false],
    ]);
  });

  it('patches a session (status, QR) and asks for a refetch for an unknown channel', () => {
    const list = [ch(1, 'a')];
    const session = { id: 1, name: 'a', type: 'baileys', status: 'qrcode', statusReason: null, qrcode: '2@abc', pairingCode: null, retries: 0, number: null, updatedAt: 'x' } as const;
    expect(patchSession(list, session)![0]).toMatchObject({ status: 'qrcode', qrcode: '2@abc' });
    expect(patchSession(list, { ...session, id: 9 })).toBeNull();
  });

  it('reads each event name', () => {
    expect(channelEventOf('whatsapp:update', { action: 'create', whatsapp: ch(4, 'x') })).toMatchObject({ kind: 'upsert' });
    expect(channelEventOf('whatsapp:delete', { action: 'delete', id: 4 })).toEqual({ kind: 'delete', id: 4 });
    expect(channelEventOf('whatsappSession', { action: 'update', session: { id: 4, status: 'CONNECTED' } })).toMatchObject({ kind: 'session' });
    expect(channelEventOf('whatsappSession', { action: 'update' })).toBeNull();
    expect(channelEventOf('importMessages', { action: 'update', whatsappId: 4, status: { this: 10, all: 50 } })).toMatchObject({
      kind: 'importSync',
      channelId: 4,
      done: 10,
      total: 50,
    });
    expect(channelEventOf('change_battery', { action: 'update', batteryInfo: { id: 4, battery: 12, plugged: false } })).toMatchObject({
      kind: 'battery',
      channelId: 4,
      level: 12,
      plugged: false,
    });
    expect(channelEventOf('ticket:update', {})).toBeNull();
  });

  it('removes a deleted channel and leaves the list alone for import and battery events', () => {
    const list = [ch(1, 'a'), ch(2, 'b')];
    expect(applyChannelEventToList(list, { kind: 'delete', id: 1 })!.map((c) => c.id)).toEqual([2]);
    expect(applyChannelEventToList(list, channelEventOf('change_battery', { id: 1, battery: 5 })!)).toBe(list);
  });
});
