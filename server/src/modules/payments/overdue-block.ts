/**
 * What a tenant blocked for an overdue charge may still call: what its blocked menu needs
 * (spec section 2 "A blocked-tenant menu contains settings only"; the /configuracoesbloqueio
 * screen lists its invoices to pay them) and the session itself. Everything else answers 402
 * ERR_ASAAS_OVERDUE (spec section 8 "check plan status").
 */
const OPEN_PREFIXES = ['/auth/', '/invoices', '/subscription'];

export function reachableWhileOverdue(method: string, path: string): boolean {
  if (OPEN_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`))) return true;
  if (method === 'GET' && (path === '/settings' || path === '/settings/')) return true;
  // The profile refresh every 30 s (spec section 6) and the login's own user.
  return method === 'GET' && /^\/users\/\d+\/?$/.test(path);
}
