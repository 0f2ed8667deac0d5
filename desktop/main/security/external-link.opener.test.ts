import { describe, expect, it, vi } from 'vitest';
import { isSafeExternalUrl, openExternalSafely } from './external-link.opener';

describe('isSafeExternalUrl', () => {
  it('accepts plain http and https links', () => {
    expect(isSafeExternalUrl('https://www.example.com/path?q=1#x')).toBe(true);
    expect(isSafeExternalUrl('http://example.com')).toBe(true);
  });

  it.each([
    'file:///C:/Windows/System32/calc.exe',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'smb://attacker/share',
    'ms-msdt:/id PCWDiagnostic',
    'atende://tickets/1',
    'mailto:someone@example.com',
    'https://bank.example@evil.example/',
    'https://user:pass@example.com/',
    'not a url',
    '',
    `https://example.com/${'a'.repeat(3000)}`,
  ])('refuses %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });
});

describe('openExternalSafely', () => {
  it('hands safe links to the shell in normalised form', async () => {
    const shell = { openExternal: vi.fn(async () => undefined) };
    await expect(openExternalSafely('HTTPS://Example.com/a b', shell)).resolves.toBe(true);
    expect(shell.openExternal).toHaveBeenCalledWith('https://example.com/a%20b');
  });

  it('never calls the shell for unsafe links', async () => {
    const shell = { openExternal: vi.fn(async () => undefined) };
    await expect(openExternalSafely('file:///etc/passwd', shell)).resolves.toBe(false);
    expect(shell.openExternal).not.toHaveBeenCalled();
  });
});
