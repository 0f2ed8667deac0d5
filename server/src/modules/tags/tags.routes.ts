import Router from '@koa/router';
import type { AppDeps } from '../../deps';

export function tagsRoutes(_deps: AppDeps): Router {
  const router = new Router();
  return router;
}
