import { describe, expect, it, vi } from 'vitest';
import { createTokenRefresher } from './token-refresher';

describe('token refresher', () => {
  it('shares one refresh between concurrent callers', async () => {
    let resolve!: (token: string) => void;
    const refresh = vi.fn(() => new Promise<string | null>((r) => (resolve = r)));
    const refresher = createTokenRefresher(refresh);
    const a = refresher.refresh('stale');
    const b = refresher.refresh('other');
    resolve('new-token');
    expect(await a).toBe('new-token');
    expect(await b).toBe('new-token');
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledWith('stale');
  });

  it('asks again for a later expiry', async () => {
    const refresh = vi.fn(async () => 'token');
    const refresher = createTokenRefresher(refresh);
    await refresher.refresh();
    await refresher.refresh();
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('turns a failed refresh into null', async () => {
    const refresher = createTokenRefresher(async () => {
      throw new Error('offline');
    });
    expect(await refresher.refresh()).toBeNull();
  });
});
