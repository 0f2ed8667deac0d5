import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { mountCatalogRoutes } from '../../http/catalog-routes';
import { requireAuth } from '../auth/require-auth';
import { CreateTeamSchema, UpdateTeamSchema } from './teams.schema';
import { TeamsService } from './teams.service';

/** Teams: GET/POST /teams, PUT/DELETE /teams/:teamId; each auth -> validate(zod) -> handler. */
export function teamsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  mountCatalogRoutes(router, auth, {
    path: '/teams',
    idParam: 'teamId',
    create: CreateTeamSchema,
    update: UpdateTeamSchema,
    service: new TeamsService(deps),
  });
  return router;
}
