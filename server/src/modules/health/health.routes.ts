import Router from '@koa/router';
import type { AppDeps } from '../../deps';

/** GET /health: the process is up and the database answers. */
export function healthRoutes(deps: AppDeps): Router {
  const router = new Router();
  router.get('/health', async (ctx) => {
    const started = performance.now();
    await deps.dataSource.query('SELECT 1');
    ctx.body = {
      status: 'ok',
      database: deps.config.databaseUrl ? 'postgresql' : 'embedded',
      jobs: deps.jobs.driver,
      dbLatencyMs: Math.round((performance.now() - started) * 10) / 10,
    };
  });
  return router;
}
