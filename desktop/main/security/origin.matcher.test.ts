import { describe, expect, it } from 'vitest';
import { isLoopbackHost, isOneOfOrigins, isSameOrigin, originOf } from './origin.matcher';

describe('originOf', () => {
  it('computes an origin for the privileged app: scheme, unlike URL.origin', () => {
    expect(new URL('app://desktop/index.html').origin).toBe('null');
    expect(originOf('app://desktop/index.html#/tickets/1')).toBe('app://desktop');
  });

  it('keeps ports and lowercases', () => {
    expect(originOf('HTTP://LocalHost:5173/x')).toBe('http://localhost:5173');
  });

  it('returns null for host-less or unparsable URLs', () => {
    expect(originOf('file:///etc/passwd')).toBeNull();
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('::nonsense')).toBeNull();
  });
});

describe('same-origin checks', () => {
  it('does not confuse look-alike hosts or ports', () => {
    expect(isSameOrigin('app://desktop/a', 'app://desktop')).toBe(true);
    expect(isSameOrigin('app://desktop.evil/a', 'app://desktop')).toBe(false);
    expect(isSameOrigin('http://localhost:5174/', 'http://localhost:5173')).toBe(false);
    expect(isOneOfOrigins('https://a.example/x', ['app://desktop', 'https://a.example'])).toBe(true);
    expect(isOneOfOrigins('https://a.example.evil/x', ['https://a.example'])).toBe(false);
  });

  it('recognises loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.1.2.3', '[::1]'].every(isLoopbackHost)).toBe(true);
    expect(['localhost.evil.example', '10.0.0.1', '128.0.0.1'].some(isLoopbackHost)).toBe(false);
  });
});
