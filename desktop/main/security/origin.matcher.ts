/**
 * Origin arithmetic for the allow-lists. WHATWG `URL.origin` is "null" for schemes Node does not
 * know (our privileged `app:` scheme), while Chromium treats a registered standard scheme as a
 * real origin, so this module computes `scheme://host[:port]` itself for every hierarchical URL.
 */

/** `scheme://host[:port]` in lower case, or null for unparsable or host-less URLs. */
export function originOf(rawUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (!url.host) return null;
  return `${url.protocol}//${url.host}`.toLowerCase();
}

export function isSameOrigin(rawUrl: string, origin: string): boolean {
  const actual = originOf(rawUrl);
  return actual !== null && actual === originOf(origin);
}

export function isOneOfOrigins(rawUrl: string, origins: readonly string[]): boolean {
  const actual = originOf(rawUrl);
  return actual !== null && origins.some((origin) => originOf(origin) === actual);
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}
