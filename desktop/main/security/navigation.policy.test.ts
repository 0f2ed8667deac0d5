import { describe, expect, it } from 'vitest';
import { decideNavigation, decideRedirect, decideWindowOpen } from './navigation.policy';

const origins = ['app://desktop'];

describe('decideNavigation (will-navigate)', () => {
  it('allows moving inside the app', () => {
    expect(decideNavigation('app://desktop/index.html#/tickets/4', origins)).toEqual({ action: 'allow' });
  });

  it('opens web links in the browser instead of replacing the console', () => {
    expect(decideNavigation('https://example.com/doc', origins)).toEqual({
      action: 'open-external',
      url: 'https://example.com/doc',
    });
  });

  it('refuses file:, javascript: and custom schemes', () => {
    expect(decideNavigation('file:///etc/passwd', origins)).toEqual({ action: 'deny', reason: 'unsafe-scheme' });
    expect(decideNavigation('javascript:alert(1)', origins)).toEqual({ action: 'deny', reason: 'unsafe-scheme' });
    expect(decideNavigation('app://other/index.html', origins)).toEqual({ action: 'deny', reason: 'unsafe-scheme' });
    expect(decideNavigation('garbage', origins)).toEqual({ action: 'deny', reason: 'invalid-url' });
  });

  it('compares with the dev server origin in development', () => {
    expect(decideNavigation('http://localhost:5173/#/login', ['http://localhost:5173'])).toEqual({ action: 'allow' });
    expect(decideNavigation('http://localhost:5174/', ['http://localhost:5173']).action).toBe('open-external');
  });
});

describe('decideRedirect (will-redirect)', () => {
  it('never follows a redirect out of the app, not even to the browser', () => {
    expect(decideRedirect('https://example.com/', origins)).toEqual({ action: 'deny', reason: 'foreign-origin' });
    expect(decideRedirect('app://desktop/index.html', origins)).toEqual({ action: 'allow' });
  });
});

describe('decideWindowOpen (setWindowOpenHandler)', () => {
  it('never opens a second Electron window, even for the app itself', () => {
    expect(decideWindowOpen('app://desktop/index.html', origins)).toEqual({ action: 'deny', reason: 'new-window' });
  });

  it('sends target=_blank web links to the browser', () => {
    expect(decideWindowOpen('https://wa.me/5511999999999', origins)).toEqual({
      action: 'open-external',
      url: 'https://wa.me/5511999999999',
    });
  });

  it('refuses everything else', () => {
    expect(decideWindowOpen('file:///C:/x.exe', origins).action).toBe('deny');
    expect(decideWindowOpen('about:blank', origins).action).toBe('deny');
  });
});
