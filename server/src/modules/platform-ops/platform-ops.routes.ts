import Router from '@koa/router';
import { z } from 'zod';
import { CleanJobQueueSchema, RunTerminalCommandSchema } from '@shared/schemas/platform-ops';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { InternalDataService } from './internal-data.service';
import { JobBoardService } from './job-board.service';
import { PlatformUpdateService } from './platform-update.service';
import { platformSuperadminOnly } from './platform-ops.policy';
import { TerminalService } from './terminal.service';
import { updateFiles, updateUpload } from './update-upload';

/** Actions without input still refuse a body they do not take (a client bug shows at once). */
const NoBodySchema = z.object({});

/** `:name` and `:jobId` path segments: job names and Bull/memory job ids are short printable text. */
function segment(ctx: AppContext, name: string): string {
  const value = ctx.params[name];
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: name, message: 'valor inválido' }] });
  }
  return value;
}

/**
 * The super administrator's platform operations (issue #17), all behind
 * auth -> platformSuperadminOnly -> validate -> handler:
 * - job queues (/tenantsQueue): GET /platform/queues, GET /platform/queues/:name/failed,
 *   POST /platform/queues/:name/failed/:jobId/retry, POST /platform/queues/:name/clean,
 *   POST /platform/queues/:name/restart;
 * - internal data (/tenantsPk): GET /platform/internal-data;
 * - update (/atualizar): GET /platform/updates, POST /platform/updates (multipart);
 * - terminal (/terminal): POST /platform/terminal, GET /platform/terminal/audit (refused with
 *   'Usuário não autorizado a acessar o terminal', and a refused run is audited).
 */
export function platformOpsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const superadmin = platformSuperadminOnly();
  const board = new JobBoardService(deps);
  const internalData = new InternalDataService(deps);
  const updates = new PlatformUpdateService(deps);
  const terminal = new TerminalService(deps);
  const terminalOnly = platformSuperadminOnly('ERR_TERMINAL_FORBIDDEN');
  const terminalRunOnly = platformSuperadminOnly('ERR_TERMINAL_FORBIDDEN', (ctx) =>
    terminal.auditRefused(authOf(ctx), ((ctx.request as { body?: { command?: unknown } }).body ?? {}).command),
  );

  router.get('/platform/queues', auth, superadmin, async (ctx: AppContext) => {
    ctx.body = await board.board();
  });

  router.get('/platform/queues/:name/failed', auth, superadmin, async (ctx: AppContext) => {
    ctx.body = await board.failed(segment(ctx, 'name'));
  });

  router.post('/platform/queues/:name/failed/:jobId/retry', auth, superadmin, validate(NoBodySchema), async (ctx: AppContext) => {
    await board.retry(segment(ctx, 'name'), segment(ctx, 'jobId'));
    ctx.status = 204;
  });

  router.post('/platform/queues/:name/clean', auth, superadmin, validate(CleanJobQueueSchema), async (ctx: AppContext) => {
    ctx.body = await board.clean(segment(ctx, 'name'), ctx.input.state);
  });

  router.post('/platform/queues/:name/restart', auth, superadmin, validate(NoBodySchema), async (ctx: AppContext) => {
    ctx.body = await board.restart(segment(ctx, 'name'), authOf(ctx));
  });

  router.get('/platform/internal-data', auth, superadmin, async (ctx: AppContext) => {
    ctx.body = await internalData.read();
  });

  router.get('/platform/updates', auth, superadmin, async (ctx: AppContext) => {
    ctx.body = await updates.list();
  });

  router.post('/platform/updates', auth, superadmin, updateUpload(), async (ctx: AppContext) => {
    const { file, signature } = updateFiles(ctx);
    ctx.status = 201;
    ctx.body = await updates.apply(authOf(ctx), file, signature);
  });

  router.post('/platform/terminal', auth, terminalRunOnly, validate(RunTerminalCommandSchema), async (ctx: AppContext) => {
    ctx.body = await terminal.run(authOf(ctx), ctx.input.command);
  });

  router.get('/platform/terminal/audit', auth, terminalOnly, async (ctx: AppContext) => {
    ctx.body = await terminal.auditTrail();
  });

  return router;
}
