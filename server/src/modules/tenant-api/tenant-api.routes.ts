import Router from '@koa/router';
import { z } from 'zod';
import { CreateTenantApiTokenSchema } from '@shared/schemas/platform-ops';
import { recordIdSchema } from '@shared/schemas/record-id';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { platformSuperadminOnly } from '../platform-ops/platform-ops.policy';
import { TenantApiService } from './tenant-api.service';

const ListQuerySchema = z.object({ tenantId: recordIdSchema().optional() });

/**
 * Tenant API tokens (/tenantApi), super administrator only:
 * GET /platform/tenant-api-tokens[?tenantId=], GET /platform/tenant-api-tokens/tenants (the
 * tenants a token can be created for), POST /platform/tenant-api-tokens (answers the token once),
 * DELETE /platform/tenant-api-tokens/:tokenId (revokes; the row stays, with its revocation time).
 */
export function tenantApiRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const superadmin = platformSuperadminOnly();
  const tokens = new TenantApiService(deps);

  router.get('/platform/tenant-api-tokens', auth, superadmin, validate(ListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await tokens.list(ctx.input);
  });

  router.get('/platform/tenant-api-tokens/tenants', auth, superadmin, async (ctx: AppContext) => {
    ctx.body = await tokens.tenants();
  });

  router.post('/platform/tenant-api-tokens', auth, superadmin, validate(CreateTenantApiTokenSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await tokens.create(authOf(ctx), ctx.input);
  });

  router.delete('/platform/tenant-api-tokens/:tokenId', auth, superadmin, async (ctx: AppContext) => {
    ctx.body = await tokens.revoke(authOf(ctx), intParam(ctx, 'tokenId'));
  });

  return router;
}
