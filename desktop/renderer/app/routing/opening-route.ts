import { decideNavigation } from './guards';
import { shellRouteOf } from './route-table';
import { appStorage } from '../session/app-storage';

/**
 * The shell route the app is opening (after the guard's redirect: '/' or a landing page), from
 * the address and the stored session; null for a public page. Read at start-up by boot.ts (the
 * dashboard's early calls) and main.tsx (the opening screen's chunk).
 */
export function openingRouteId(): string | null {
  const [pathname, search = ''] = window.location.hash.replace(/^#/, '').split('?');
  const session = appStorage.readSession();
  const decision = decideNavigation(
    { pathname: pathname || '/', search: search ? `?${search}` : '' },
    { token: session?.token ?? null, profile: session?.profile ?? null },
  );
  const target = decision.kind === 'redirect' ? decision.to : pathname || '/';
  return shellRouteOf(target.split('?')[0])?.id ?? null;
}
