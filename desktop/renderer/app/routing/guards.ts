import type { Profile } from '@shared/profiles';
import { PARENT_REDIRECTS, PUBLIC_ROUTES, TOKEN_SETUP_QUERY_FLAG, pathTo, profileMayOpen } from './route-table';

/**
 * Navigation decisions of spec section 2, as pure functions of the target location and the
 * stored session, so they are tested without a browser. The router calls `decideNavigation`
 * before rendering each location (the anchor's beforeEach).
 */

export interface GuardSession {
  token: string | null;
  profile: Profile | null;
}

export interface GuardTarget {
  pathname: string;
  search: string;
}

export type GuardDecision =
  | { kind: 'allow' }
  /** `messageKey` is an i18n key shown as a toast while redirecting. */
  | { kind: 'redirect'; to: string; messageKey?: string };

const normalize = (pathname: string): string => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname) || '/';

export function isPublicPath(pathname: string): boolean {
  const path = normalize(pathname);
  return (
    path === PUBLIC_ROUTES.login ||
    path === PUBLIC_ROUTES.signup ||
    /^\/signup\/confirm\/[^/]+$/.test(path) ||
    /^\/reset\/[^/]+$/.test(path)
  );
}

const hasTokenSetupFlag = (search: string): boolean => new URLSearchParams(search).has(TOKEN_SETUP_QUERY_FLAG);

/** Where a profile starts after login (brief: admin -> dashboard, superadmin -> subscription, others -> tickets). */
export function landingPathFor(profile: Profile | null): string {
  switch (profile) {
    case 'admin':
      return pathTo('home-dashboard');
    case 'superadmin':
      return pathTo('assinatura');
    default:
      return pathTo('atendimento');
  }
}

export function decideNavigation(target: GuardTarget, session: GuardSession): GuardDecision {
  const path = normalize(target.pathname);
  if (!session.token) {
    if (isPublicPath(path) || hasTokenSetupFlag(target.search)) return { kind: 'allow' };
    return { kind: 'redirect', to: PUBLIC_ROUTES.login, messageKey: 'auth.loginRequired' };
  }
  // A token without a profile is a broken session: no landing page can be chosen for it.
  // It is treated as anonymous (login itself and the token-setup flag pass, so no redirect loops).
  if (!session.profile) {
    if (isPublicPath(path) || hasTokenSetupFlag(target.search)) return { kind: 'allow' };
    return { kind: 'redirect', to: PUBLIC_ROUTES.login, messageKey: 'auth.loginRequired' };
  }
  const superadmin = session.profile === 'superadmin';
  if (path === '/') return { kind: 'redirect', to: superadmin ? pathTo('assinatura') : '/contatos' };
  // The spec's own redirects of the superadmin come first and are silent.
  if (superadmin && path === '/home') return { kind: 'redirect', to: '/tenants' };
  if (superadmin && path === '/contatos') return { kind: 'redirect', to: pathTo('assinatura') };
  // Before the parent redirects, so '/configuracoes' sends an agent home rather than to '/configuracoes/geral' first.
  if (!profileMayOpen(session.profile, path)) {
    return { kind: 'redirect', to: landingPathFor(session.profile), messageKey: 'auth.routeForbidden' };
  }
  const parentRedirect = PARENT_REDIRECTS[path];
  if (parentRedirect) return { kind: 'redirect', to: parentRedirect + target.search };
  return { kind: 'allow' };
}

const EMPTY_CHAT = '/atendimento/chats';

/**
 * The empty-chat screen is not re-entered from itself (spec section 2: "not re-entered from
 * itself"; a chat is "blocked when moving from an empty chat to an empty chat").
 */
export function isRedundantChatNavigation(fromPathname: string, toPathname: string): boolean {
  return normalize(fromPathname) === EMPTY_CHAT && normalize(toPathname) === EMPTY_CHAT;
}

/** Ctrl-click (or cmd-click on macOS) on a menu link opens the target in a new tab. */
export function opensInNewTab(event: { ctrlKey: boolean; metaKey: boolean; button?: number }): boolean {
  return event.ctrlKey || event.metaKey || event.button === 1;
}
