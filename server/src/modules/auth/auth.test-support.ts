import type { Clock } from '../../core/clock';

/** Test support for the auth suites (not a test file itself). */

export interface ParsedCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** The `Set-Cookie` headers of a response, parsed; attribute names in lower case. */
export function setCookies(headers: Headers): ParsedCookie[] {
  return headers.getSetCookie().map((line) => {
    const [pair, ...attrs] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const attr of attrs) {
      const i = attr.indexOf('=');
      if (i < 0) attributes[attr.toLowerCase()] = true;
      else attributes[attr.slice(0, i).toLowerCase()] = attr.slice(i + 1);
    }
    return { name: pair.slice(0, eq), value: pair.slice(eq + 1), attributes };
  });
}

export function refreshCookie(headers: Headers): ParsedCookie | undefined {
  return setCookies(headers).find((c) => c.name === 'jrt');
}

/** A clock the test moves forward instead of sleeping. */
export function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance(ms: number) {
      offset += ms;
    },
  };
}
