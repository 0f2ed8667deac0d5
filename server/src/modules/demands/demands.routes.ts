import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { mountCatalogRoutes } from '../../http/catalog-routes';
import { requireAuth } from '../auth/require-auth';
import { CreateDemandSchema, UpdateDemandSchema } from './demands.schema';
import { DemandsService } from './demands.service';

/** Demands (motivos): GET/POST /demands, PUT/DELETE /demands/:demandId; each auth -> validate(zod) -> handler. */
export function demandsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  mountCatalogRoutes(router, auth, {
    path: '/demands',
    idParam: 'demandId',
    create: CreateDemandSchema,
    update: UpdateDemandSchema,
    service: new DemandsService(deps),
  });
  return router;
}
