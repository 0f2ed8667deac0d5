import Router from '@koa/router';
import type { AppDeps } from '../../deps';

export function ticketsRoutes(_deps: AppDeps): Router {
  const router = new Router();
  return router;
}
