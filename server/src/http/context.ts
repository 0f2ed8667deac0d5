import type { RouterContext } from '@koa/router';
import type { AuthContext } from '../core/auth-context';

export interface AppState {
  requestId: string;
  /** Set by the auth middleware; absent on public routes. */
  auth?: AuthContext;
}

export interface AppContextExtras {
  /** Parsed, validated input (zod) for this route. */
  input: any;
}

export type AppContext = RouterContext<AppState, AppContextExtras>;

/** The authenticated caller; throws if the route forgot the auth middleware. */
export function authOf(ctx: { state: AppState }): AuthContext {
  if (!ctx.state.auth) throw new Error('authOf() used on a route without requireAuth');
  return ctx.state.auth;
}
