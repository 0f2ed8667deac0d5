import { describe, expect, it, vi } from 'vitest';
import type { DesktopApi } from '@shared/desktop-api';
import { desktopMediaBlob } from './desktop-media';

function bridge(get: DesktopApi['media']['get']): Pick<DesktopApi, 'media'> {
  return { media: { get, usage: vi.fn(), setBudget: vi.fn() } };
}

describe('desktopMediaBlob', () => {
  it("answers a message's file from the desktop's media cache as a typed Blob", async () => {
    const get = vi.fn(async () => ({ mimeType: 'image/png', bytes: new Uint8Array([1, 2, 3]) }));
    const blob = await desktopMediaBlob('/messages/media/42', bridge(get));
    expect(get).toHaveBeenCalledWith(42);
    expect(blob?.type).toBe('image/png');
    expect(new Uint8Array(await blob!.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it('leaves the web app, other routes and malformed ids to the network', async () => {
    const get = vi.fn();
    expect(await desktopMediaBlob('/messages/media/42', undefined)).toBeNull();
    expect(await desktopMediaBlob('/messages/media/42', {} as Pick<DesktopApi, 'media'>)).toBeNull();
    for (const path of ['/fastreply/3/file', '/messages/media/0', '/messages/media/4x', '/messages/media/42?x=1']) {
      expect(await desktopMediaBlob(path, bridge(get))).toBeNull();
    }
    expect(get).not.toHaveBeenCalled();
  });

  it("the cache's errors reach the caller (the view shows the file as unavailable)", async () => {
    const get = vi.fn(async () => {
      throw new Error('ERR_DESKTOP_MEDIA_OFFLINE: not cached');
    });
    await expect(desktopMediaBlob('/messages/media/7', bridge(get))).rejects.toThrow(/ERR_DESKTOP_MEDIA_OFFLINE/);
  });
});
