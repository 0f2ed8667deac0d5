import { describe, expect, it } from 'vitest';
import { appNameOf, brandingAssetUrl, titleWithName } from './branding.logic';

describe('branding logic', () => {
  it('keeps the unread prefix of the title and swaps the name', () => {
    expect(titleWithName('(3) Atende', 'Acme')).toBe('(3) Acme');
    expect(titleWithName('Atende', 'Acme')).toBe('Acme');
  });
  it('builds image addresses on the API server, and none without an image', () => {
    expect(brandingAssetUrl('http://srv:8080', '/publicBranding/logo?v=ab')).toBe('http://srv:8080/publicBranding/logo?v=ab');
    expect(brandingAssetUrl('', '/publicBranding/logo?v=ab')).toBe('/publicBranding/logo?v=ab');
    expect(brandingAssetUrl('', null)).toBeNull();
  });
  it('falls back to the product name', () => {
    expect(appNameOf(undefined, 'Atende')).toBe('Atende');
    expect(appNameOf({ appName: null, logoUrl: null, faviconUrl: null, updatedAt: '' }, 'Atende')).toBe('Atende');
    expect(appNameOf({ appName: 'Acme', logoUrl: null, faviconUrl: null, updatedAt: '' }, 'Atende')).toBe('Acme');
  });
});
