import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCKET_EVENTS } from '@shared/events';
import { AppError } from '../../core/app-error';
import { eventCount, lastEvent } from '../../../../tests/helpers/domain-events';
import type { AdapterFactory } from '../../channels/adapter-context';
import type { ChannelAdapter, ChannelRecord, SessionStatus } from '../../channels/channel-adapter';
import { canTransition, statesLeadingTo } from '../../channels/session-state';
import { createWabaChannel, startWabaTestBed, type WabaTestBed } from '../../channels/waba/waba.test-support';
import { WabaAdapter } from '../../channels/waba/waba-adapter';

let bed: WabaTestBed;
beforeAll(async () => {
  bed = await startWabaTestBed();
});
afterAll(async () => bed?.close());

const registry = () => bed.server.deps.channels;

async function appError(p: Promise<unknown> | (() => unknown)): Promise<AppError> {
  let err: unknown;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('session state machine', () => {
  it('allows the session paths of spec section 4 and refuses the rest', () => {
    const allowed: [SessionStatus, SessionStatus][] = [
      ['DISCONNECTED', 'OPENING'],
      ['DISCONNECTED', 'qrcode'],
      ['OPENING', 'CONNECTED'],
      ['OPENING', 'DISCONNECTED'],
      ['qrcode', 'qrcode'],
      ['qrcode', 'TIMEOUT'],
      ['qrcode', 'CONNECTED'],
      ['CONNECTED', 'CONNECTION_LOST'],
      ['CONNECTED', 'DISCONNECTED'],
      ['CONNECTION_LOST', 'CONNECTED'],
      ['TIMEOUT', 'qrcode'],
    ];
    for (const [from, to] of allowed) expect(canTransition(from, to), `${from} -> ${to}`).toBe(true);
    const refused: [SessionStatus, SessionStatus][] = [
      ['DISCONNECTED', 'CONNECTED'],
      ['DISCONNECTED', 'CONNECTION_LOST'],
      ['DISCONNECTED', 'TIMEOUT'],
      ['CONNECTED', 'qrcode'],
      ['CONNECTED', 'TIMEOUT'],
      ['TIMEOUT', 'CONNECTED'],
    ];
    for (const [from, to] of refused) expect(canTransition(from, to), `${from} -> ${to}`).toBe(false);
    expect(statesLeadingTo('CONNECTED').sort()).toEqual(['CONNECTION_LOST', 'OPENING', 'qrcode'].sort());
  });
});

describe('ChannelRegistry', () => {
  it('persists each transition and announces it to supervisors and admins; refuses an invalid one and ignores a repeat', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const ref = { id: ch.id, tenantId: a.tenant.id };
    expect(await registry().setStatus(ref, 'CONNECTION_LOST', { reason: 'rede caiu' })).toBe('CONNECTION_LOST');
    const [row] = await bed.server.deps.dataSource.query(`SELECT status, "statusReason" FROM channels WHERE id = $1`, [ch.id]);
    expect(row).toEqual({ status: 'CONNECTION_LOST', statusReason: 'rede caiu' });
    const session = await lastEvent(bed.server, a.tenant.id, SOCKET_EVENTS.whatsappSession);
    expect(session?.payload).toMatchObject({
      action: 'update',
      session: { id: ch.id, status: 'CONNECTION_LOST', statusReason: 'rede caiu' },
    });
    expect(session?.audience).toEqual({ scope: 'profiles', profiles: ['super', 'admin', 'superadmin'] });
    const update = await lastEvent(bed.server, a.tenant.id, SOCKET_EVENTS.whatsappUpdate);
    expect(update?.payload.whatsapp).toMatchObject({ id: ch.id, status: 'CONNECTION_LOST' });

    const refused = await appError(registry().setStatus(ref, 'TIMEOUT'));
    expect(refused.code).toBe('ERR_WAPP_SESSION_TRANSITION');
    expect(refused.message).toContain('CONNECTION_LOST');
    const events = await eventCount(bed.server, a.tenant.id);
    expect(await registry().setStatus(ref, 'CONNECTION_LOST')).toBe('CONNECTION_LOST');
    expect(await eventCount(bed.server, a.tenant.id)).toBe(events);
    const [after] = await bed.server.deps.dataSource.query(`SELECT status FROM channels WHERE id = $1`, [ch.id]);
    expect(after.status).toBe('CONNECTION_LOST');

    const other = await bed.server.createTenant();
    expect((await appError(registry().setStatus({ id: ch.id, tenantId: other.id }, 'DISCONNECTED'))).code).toBe(
      'ERR_NO_WAPP_FOUND',
    );
  });

  it('builds one adapter per channel, rebuilds it when the provider settings change, forgets it on demand', async () => {
    const a = await bed.server.createTenantWithUsers();
    const ch = await createWabaChannel(bed, a.users.admin.token);
    const record = await registry().load(a.tenant.id, ch.id);
    const first = registry().adapterFor(record);
    expect(first).toBeInstanceOf(WabaAdapter);
    expect(registry().adapterFor(await registry().load(a.tenant.id, ch.id))).toBe(first);
    const changed: ChannelRecord = { ...record, secrets: { ...record.secrets, wabaManagerToken: 'EAAG-other' } };
    const rebuilt = registry().adapterFor(changed);
    expect(rebuilt).not.toBe(first);
    registry().forget(ch.id);
    expect(registry().adapterFor(changed)).not.toBe(rebuilt);
  });

  it('refuses a type without a provider (ERR_CHANNEL_TYPE_UNSUPPORTED) until a factory is registered', async () => {
    const record: ChannelRecord = {
      id: 987654,
      tenantId: 1,
      type: 'instagram',
      name: 'T',
      status: 'DISCONNECTED',
      number: null,
      providerConfig: {},
      secrets: {},
    };
    // A provider taken out of the registry stands for one whose adapter does not exist yet.
    const factory = (registry() as unknown as { factories: Record<string, AdapterFactory | undefined> }).factories.instagram;
    registry().unregister('instagram');
    try {
      expect(registry().supports('instagram')).toBe(false);
      const err = await appError(() => registry().adapterFor(record));
      expect(err.code).toBe('ERR_CHANNEL_TYPE_UNSUPPORTED');
      expect(err.message).toContain('instagram');
      const stub = { type: 'instagram' } as ChannelAdapter;
      registry().register('instagram', () => stub);
      try {
        expect(registry().supports('instagram')).toBe(true);
        expect(registry().adapterFor(record)).toBe(stub);
      } finally {
        registry().unregister('instagram');
      }
      expect(registry().supports('instagram')).toBe(false);
    } finally {
      if (factory) registry().register('instagram', factory);
    }
  });

  it('resumes on start only the sessions of live-connection providers that were up or coming up', async () => {
    const { tenant } = await bed.server.createTenantWithUsers();
    const ids: Record<string, number> = {};
    for (const status of ['CONNECTED', 'OPENING', 'CONNECTION_LOST', 'qrcode', 'TIMEOUT', 'DISCONNECTED']) {
      const [row] = await bed.server.deps.dataSource.query(
        `INSERT INTO channels ("tenantId", name, type, status, "providerConfig", secrets) VALUES ($1, $2, 'baileys', $3, '{}', '{}') RETURNING id`,
        [tenant.id, `B ${status}`, status],
      );
      ids[status] = row.id;
    }
    const started: number[] = [];
    const factory = (registry() as unknown as { factories: Record<string, AdapterFactory | undefined> }).factories.baileys;
    registry().register('baileys', (ctx) => {
      const id = ctx.record.id;
      return { type: 'baileys', connect: async () => void started.push(id), status: () => ctx.record.status } as ChannelAdapter;
    });
    try {
      await registry().resumeSessions();
      await registry().idle();
      const mine = started.filter((id) => Object.values(ids).includes(id)).sort((a, b) => a - b);
      expect(mine).toEqual([ids.CONNECTED, ids.OPENING, ids.CONNECTION_LOST].sort((a, b) => a - b));
    } finally {
      if (factory) registry().register('baileys', factory);
      else registry().unregister('baileys');
      await bed.server.deps.dataSource.query(`DELETE FROM channels WHERE "tenantId" = $1`, [tenant.id]);
    }
  });

  it('loads channels within the tenant only, the default, and a ready adapter only when CONNECTED', async () => {
    const a = await bed.server.createTenantWithUsers();
    const b = await bed.server.createTenantWithUsers();
    expect((await appError(registry().loadDefault(a.tenant.id))).code).toBe('ERR_NO_DEF_WAPP_FOUND');
    const ch = await createWabaChannel(bed, a.users.admin.token);
    expect((await appError(registry().load(b.tenant.id, ch.id))).code).toBe('ERR_NO_WAPP_FOUND');
    expect((await registry().loadDefault(a.tenant.id)).id).toBe(ch.id);
    const ready = await registry().ready(a.tenant.id, null);
    expect(ready.channel.id).toBe(ch.id);
    expect(ready.adapter.status()).toBe('CONNECTED');
    await registry().setStatus({ id: ch.id, tenantId: a.tenant.id }, 'DISCONNECTED');
    const err = await appError(registry().ready(a.tenant.id, ch.id));
    expect(err.code).toBe('ERR_WAPP_NOT_INITIALIZED');
  });
});
