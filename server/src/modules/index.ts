import type Router from '@koa/router';
import type { AppDeps } from '../deps';
import { syncRoutes } from '../realtime/sync.routes';
import { authRoutes } from './auth/auth.routes';
import { healthRoutes } from './health/health.routes';
import { plansRoutes } from './plans/plans.routes';
import { tenantSettingsRoutes } from './tenants/tenant-settings.routes';
import { usersRoutes } from './users/users.routes';

/**
 * Every module's router, in one list. A module adds itself here and nowhere else.
 */
export function moduleRouters(deps: AppDeps): Router[] {
  return [healthRoutes(deps), authRoutes(deps), syncRoutes(deps), usersRoutes(deps), tenantSettingsRoutes(deps), plansRoutes(deps)];
}
