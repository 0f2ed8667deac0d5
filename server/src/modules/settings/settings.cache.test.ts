import { describe, expect, it } from 'vitest';
import { TenantSettingsCache } from './settings.cache';

const clockAt = (ms: { now: number }) => ({ now: () => new Date(ms.now) });

describe('TenantSettingsCache', () => {
  it('serves from memory until invalidated or expired', async () => {
    const time = { now: 0 };
    const cache = new TenantSettingsCache(clockAt(time), 1000);
    let loads = 0;
    const load = async () => ({ forceSignature: `v${++loads}` });
    expect(await cache.get(1, load)).toEqual({ forceSignature: 'v1' });
    expect(await cache.get(1, load)).toEqual({ forceSignature: 'v1' });
    cache.invalidate(1);
    expect(await cache.get(1, load)).toEqual({ forceSignature: 'v2' });
    time.now = 1500;
    expect(await cache.get(1, load)).toEqual({ forceSignature: 'v3' });
    expect(await cache.get(2, load)).toEqual({ forceSignature: 'v4' });
  });

  it('does not keep a load that an invalidation overtook', async () => {
    const cache = new TenantSettingsCache(clockAt({ now: 0 }));
    let release!: () => void;
    const slow = cache.get(7, () => new Promise((resolve) => (release = () => resolve({ nullticket: 'disabled' }))));
    cache.invalidate(7);
    release();
    expect(await slow).toEqual({ nullticket: 'disabled' });
    expect(await cache.get(7, async () => ({ nullticket: 'enabled' }))).toEqual({ nullticket: 'enabled' });
  });
});
