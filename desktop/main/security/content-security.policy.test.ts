import { describe, expect, it } from 'vitest';
import { resolveDesktopConfig } from '../config/desktop.config';
import {
  buildContentSecurityPolicy,
  buildCspDirectives,
  shouldApplyCsp,
  withContentSecurityPolicy,
} from './content-security.policy';

const production = resolveDesktopConfig({ isPackaged: true, env: {}, buildServerUrl: 'https://app.example.com' });
const development = resolveDesktopConfig({ isPackaged: false, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' } });

describe('buildCspDirectives (production)', () => {
  const directives = buildCspDirectives(production);

  it("runs only the app's own scripts", () => {
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(buildContentSecurityPolicy(production)).not.toMatch(/unsafe-eval/);
  });

  it('lets the app reach only itself and the configured server, over https and wss', () => {
    expect(directives['connect-src']).toEqual(["'self'", 'https://app.example.com', 'wss://app.example.com']);
  });

  it('allows images from the app, data/blob URLs and the server', () => {
    expect(directives['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://app.example.com']);
  });

  it('allows inline styles for Blueprint but nothing else inline', () => {
    expect(directives['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('locks plugins, base URL, form targets and framing', () => {
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['base-uri']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['form-action']).toEqual(["'none'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
  });

  it('serialises to one header value', () => {
    const csp = buildContentSecurityPolicy(production);
    expect(csp.startsWith("default-src 'self'; script-src 'self'; ")).toBe(true);
    expect(csp).toContain("connect-src 'self' https://app.example.com wss://app.example.com");
    expect(csp).toContain("object-src 'none'");
  });
});

describe('buildCspDirectives (development)', () => {
  it('adds only what Vite hot reload needs', () => {
    const directives = buildCspDirectives(development);
    expect(directives['script-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(directives['connect-src']).toEqual(["'self'", 'http://localhost:8080', 'ws://localhost:8080', 'ws://localhost:5173']);
  });
});

describe('withContentSecurityPolicy', () => {
  it('replaces any CSP the response had, whatever its spelling', () => {
    const headers = withContentSecurityPolicy(
      {
        'content-security-policy': ['script-src *'],
        'Content-Security-Policy-Report-Only': 'default-src *',
        'Content-Type': 'text/html',
      },
      "script-src 'self'",
    );
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': ["script-src 'self'"],
      'X-Content-Type-Options': ['nosniff'],
    });
  });

  it('works on a response without headers', () => {
    expect(withContentSecurityPolicy(undefined, 'x')['Content-Security-Policy']).toEqual(['x']);
  });
});

describe('shouldApplyCsp', () => {
  it("applies to the app's pages only", () => {
    expect(shouldApplyCsp('app://desktop/index.html', ['app://desktop'])).toBe(true);
    expect(shouldApplyCsp('http://localhost:5173/', ['http://localhost:5173'])).toBe(true);
    expect(shouldApplyCsp('https://app.example.com/tickets', ['app://desktop'])).toBe(false);
  });
});
