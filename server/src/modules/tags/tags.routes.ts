import Router from '@koa/router';
import type { AppDeps } from '../../deps';
import { mountCatalogRoutes } from '../../http/catalog-routes';
import { requireAuth } from '../auth/require-auth';
import { CreateTagSchema, UpdateTagSchema } from './tags.schema';
import { TagsService } from './tags.service';

/** Tags (anchor paths): GET/POST /tags, PUT/DELETE /tags/:tagId; each auth -> validate(zod) -> handler. */
export function tagsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  mountCatalogRoutes(router, auth, {
    path: '/tags',
    idParam: 'tagId',
    create: CreateTagSchema,
    update: UpdateTagSchema,
    service: new TagsService(deps),
    // The anchor's tag screen names them `tag` and `isActive`.
    body: { aliases: { tag: 'name', isActive: 'active' } },
  });
  return router;
}
