import Router from '@koa/router';
import type { Middleware } from 'koa';
import { BulkSendResultsQuerySchema, BulkSendSchema, BulkSendsQuerySchema } from '@shared/schemas/bulk-sends';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { campaignSenderOf } from '../campaigns/campaigns.routes';
import { authorizeBulkSends } from '../campaigns/campaigns.policy';
import { CampaignsService } from '../campaigns/campaigns.service';
import { BulkSendsService } from './bulk-sends.service';

/**
 * Bulk sends (screens /massa/*; no anchor path, docs/api.md "Bulk sends"): auth -> profile gate
 * (supervisors and administrators, as campaigns; agents 403) -> validate(zod from
 * shared/schemas/bulk-sends) -> handler. Sent by the campaign sender.
 *   GET  /bulk-sends?kind=                 latest sends (with counts)
 *   POST /bulk-sends                       create and start (answers the refused lines and the 2% warning)
 *   GET  /bulk-sends/:bulkSendId           one
 *   GET  /bulk-sends/:bulkSendId/results   each destination's outcome (paged) and the refused lines
 *   POST /bulk-sends/:bulkSendId/cancel    stop
 */
export function bulkSendsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const holder: { campaigns?: CampaignsService } = {};
  const sender = campaignSenderOf(deps, () => holder.campaigns!.promoteDue());
  holder.campaigns = new CampaignsService(deps, (channelId) => sender.kick(channelId));
  const service = new BulkSendsService(deps, (channelId) => sender.kick(channelId));
  const allowed: Middleware = async (ctx, next) => {
    authorizeBulkSends(authOf(ctx as AppContext));
    await next();
  };
  const noStore: Middleware = async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    await next();
  };

  router.get('/bulk-sends', auth, allowed, noStore, validate(BulkSendsQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await service.list(authOf(ctx), (ctx.input as { kind?: string }).kind);
  });
  router.post('/bulk-sends', auth, allowed, validate(BulkSendSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await service.create(authOf(ctx), ctx.input);
  });
  router.get('/bulk-sends/:bulkSendId', auth, allowed, noStore, async (ctx: AppContext) => {
    ctx.body = await service.get(authOf(ctx), intParam(ctx, 'bulkSendId'));
  });
  router.get(
    '/bulk-sends/:bulkSendId/results',
    auth,
    allowed,
    noStore,
    validate(BulkSendResultsQuerySchema, 'query'),
    async (ctx: AppContext) => {
      ctx.body = await service.results(authOf(ctx), intParam(ctx, 'bulkSendId'), ctx.input);
    },
  );
  router.post('/bulk-sends/:bulkSendId/cancel', auth, allowed, async (ctx: AppContext) => {
    ctx.body = await service.cancel(authOf(ctx), intParam(ctx, 'bulkSendId'));
  });
  return router;
}
