import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { mountCatalogRoutes } from '../../http/catalog-routes';
import { requireAuth } from '../auth/require-auth';
import { CreateKanbanSchema, CreateLaneSchema, UpdateKanbanSchema, UpdateLaneSchema } from './kanban.schema';
import { KanbansService, LanesService } from './kanban.service';

/**
 * Kanban columns: GET/POST /kanban, PUT /kanban/reorder, PUT/DELETE /kanban/:kanbanId.
 * Lanes: GET/POST /lanes, PUT /lanes/reorder, PUT/DELETE /lanes/:laneId.
 * Each route: auth -> validate(zod) -> handler.
 */
export function kanbanRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  mountCatalogRoutes(router, auth, {
    path: '/kanban',
    idParam: 'kanbanId',
    create: CreateKanbanSchema,
    update: UpdateKanbanSchema,
    service: new KanbansService(deps),
  });
  mountCatalogRoutes(router, auth, {
    path: '/lanes',
    idParam: 'laneId',
    create: CreateLaneSchema,
    update: UpdateLaneSchema,
    service: new LanesService(deps),
  });
  return router;
}
