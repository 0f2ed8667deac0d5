import type Router from '@koa/router';
import type { AppDeps } from '../deps';
import { healthRoutes } from './health/health.routes';

/**
 * Every module's router, in one list. A module adds itself here and nowhere else.
 */
export function moduleRouters(deps: AppDeps): Router[] {
  return [healthRoutes(deps)];
}
