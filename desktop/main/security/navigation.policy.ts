import { isSafeExternalUrl } from './external-link.opener';
import { isOneOfOrigins } from './origin.matcher';

export type NavigationDecision =
  | { action: 'allow' }
  | { action: 'open-external'; url: string }
  | { action: 'deny'; reason: 'invalid-url' | 'foreign-origin' | 'unsafe-scheme' | 'new-window' };

/**
 * will-navigate: the main frame may move only within the app's own origin. A click on a web link
 * that would replace the console is turned into "open in the browser"; anything else is refused.
 */
export function decideNavigation(targetUrl: string, appOrigins: readonly string[]): NavigationDecision {
  if (isOneOfOrigins(targetUrl, appOrigins)) return { action: 'allow' };
  return refuseOrOpenExternally(targetUrl);
}

/**
 * will-redirect: a redirect is not a user's click, so it is never forwarded to the browser; it
 * either stays in the app's origin or is refused.
 */
export function decideRedirect(targetUrl: string, appOrigins: readonly string[]): NavigationDecision {
  if (isOneOfOrigins(targetUrl, appOrigins)) return { action: 'allow' };
  return { action: 'deny', reason: 'foreign-origin' };
}

/**
 * setWindowOpenHandler: the console never opens Electron windows for content (they would inherit
 * nothing of the hardening review); web links go to the default browser, the rest is refused.
 */
export function decideWindowOpen(targetUrl: string, appOrigins: readonly string[]): NavigationDecision {
  if (isOneOfOrigins(targetUrl, appOrigins)) return { action: 'deny', reason: 'new-window' };
  return refuseOrOpenExternally(targetUrl);
}

function refuseOrOpenExternally(targetUrl: string): NavigationDecision {
  try {
    new URL(targetUrl);
  } catch {
    return { action: 'deny', reason: 'invalid-url' };
  }
  if (isSafeExternalUrl(targetUrl)) return { action: 'open-external', url: new URL(targetUrl).href };
  return { action: 'deny', reason: 'unsafe-scheme' };
}
