import { describe, expect, it } from 'vitest';
import { DESKTOP_DEFAULT_API_BASE_URL, resolveApiBaseUrl } from './app-config';

describe('resolveApiBaseUrl', () => {
  it('uses the same origin for the web app', () => {
    expect(resolveApiBaseUrl({ protocol: 'https:' })).toBe('');
    expect(resolveApiBaseUrl({ protocol: 'http:', storedApiBaseUrl: 'http://elsewhere' })).toBe('');
  });
  it('honours a build-time address for the web app', () => {
    expect(resolveApiBaseUrl({ protocol: 'https:', buildApiBaseUrl: 'https://api.example.com/' })).toBe(
      'https://api.example.com',
    );
  });
  it('prefers the desktop shell, then the stored choice, then the build for the desktop', () => {
    expect(resolveApiBaseUrl({ protocol: 'file:', desktopApiBaseUrl: 'https://a', storedApiBaseUrl: 'https://b' })).toBe(
      'https://a',
    );
    expect(resolveApiBaseUrl({ protocol: 'app:', storedApiBaseUrl: 'https://b/', buildApiBaseUrl: 'https://c' })).toBe(
      'https://b',
    );
    expect(resolveApiBaseUrl({ protocol: 'file:', buildApiBaseUrl: 'https://c' })).toBe('https://c');
    expect(resolveApiBaseUrl({ protocol: 'file:' })).toBe(DESKTOP_DEFAULT_API_BASE_URL);
  });
});
