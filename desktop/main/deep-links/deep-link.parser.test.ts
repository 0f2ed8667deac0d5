import { describe, expect, it } from 'vitest';
import { findDeepLinkInArgv, parseDeepLink, protocolClientRegistration } from './deep-link.parser';

describe('parseDeepLink', () => {
  it('reads host-style and path-style links the same way', () => {
    expect(parseDeepLink('atende://tickets/42')).toEqual({ path: '/tickets/42', query: {} });
    expect(parseDeepLink('atende:///tickets/42')).toEqual({ path: '/tickets/42', query: {} });
    expect(parseDeepLink('ATENDE://tickets/42/')).toEqual({ path: '/tickets/42', query: {} });
  });

  it('keeps simple query pairs and drops the fragment', () => {
    expect(parseDeepLink('atende://tickets/42?tab=notes&highlight=msg-9#ignored')).toEqual({
      path: '/tickets/42',
      query: { tab: 'notes', highlight: 'msg-9' },
    });
  });

  it.each([
    'https://tickets/42',
    'atendex://tickets/42',
    'atende://',
    'atende://user:pw@tickets/42',
    'atende://tickets:8080/42',
    'atende://tickets/.hidden',
    'atende://tickets/<script>',
    'atende://tickets/a%2Fb',
    'atende://a/b/c/d/e/f/g/h/i',
    'atende://tickets/1?bad key=1',
    'atende://tickets/1?x=%0a',
    `atende://tickets/${'1'.repeat(3000)}`,
    'atende://tickets/%E0%A4%A',
  ])('refuses %s', (raw) => {
    expect(parseDeepLink(raw)).toBeNull();
  });

  it('resolves dot segments while parsing, so nothing climbs above the root', () => {
    expect(parseDeepLink('atende://tickets/%2e%2e/%2e%2e/admin')).toEqual({ path: '/tickets/admin', query: {} });
    expect(parseDeepLink('atende:///../../etc/passwd')).toEqual({ path: '/etc/passwd', query: {} });
  });

  it('refuses non-strings', () => {
    expect(parseDeepLink(undefined)).toBeNull();
    expect(parseDeepLink({ path: '/x' })).toBeNull();
  });
});

describe('findDeepLinkInArgv', () => {
  it('finds the link Windows and Linux pass on the command line', () => {
    expect(findDeepLinkInArgv(['C:\\Atende\\Atende.exe', '--flag', 'atende://tickets/9'])).toBe('atende://tickets/9');
    expect(findDeepLinkInArgv(['/opt/Atende/atende', '--no-sandbox'])).toBeNull();
  });
});

describe('protocolClientRegistration', () => {
  it('registers the packaged app itself', () => {
    expect(
      protocolClientRegistration({ defaultApp: false, execPath: '/Atende', argv: ['/Atende'], resolvePath: (p) => p }),
    ).toEqual({
      scheme: 'atende',
    });
  });

  it('names the checkout when run through the electron binary', () => {
    expect(
      protocolClientRegistration({
        defaultApp: true,
        execPath: '/node_modules/electron/dist/electron',
        argv: ['/node_modules/electron/dist/electron', '.'],
        resolvePath: (p) => `/work/${p}`,
      }),
    ).toEqual({ scheme: 'atende', executable: '/node_modules/electron/dist/electron', args: ['/work/.'] });
  });
});
