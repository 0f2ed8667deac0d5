import Router from '@koa/router';
import {
  AdminUserListQuerySchema,
  CreateTenantSchema,
  DeleteTenantQuerySchema,
  StartSupportSchema,
  TenantStatusSchema,
  UpdateTenantSchema,
} from '@shared/schemas/admin-tenants';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { ECHOED_ROW_FIELDS, intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { AdminChannelsService } from './admin-channels.service';
import { platformSuperadminOnly } from './admin-tenants.policy';
import { AdminTenantsService } from './admin-tenants.service';
import { AdminUsersService } from './admin-users.service';
import { SUPPORT_EXPIRE_JOB, SupportAccessService } from './support-access.service';
import { registerTenantDeletionJob } from './tenant-deletion';

/**
 * The platform super administrator's tenants (anchor paths; docs/api.md "Tenants (super
 * administrator)"). Chain: auth -> platform superadmin -> validate -> handler.
 *   GET    /admin/tenants                          every tenant with plan, limits, trial, counts  200 [AdminTenantDto]
 *   POST   /admin/tenants                          create a tenant and its first admin            201 AdminTenantDto
 *   GET    /admin/tenants/:tenantId                one tenant                                     200 AdminTenantDto
 *   PUT    /admin/empresa/:tenantId                edit (name, identity, plan, limits, trial)     200 AdminTenantDto
 *   PUT    /admin/status/tenant/:tenantId          activate / deactivate (cuts its sockets)       200 AdminTenantDto
 *   DELETE /admin/tenants/:tenantId[?force=true]   queue the deletion of its data and files       202 TenantDeletionDto
 *   GET    /admin/tenant-deletions                 recent deletions with their progress          200 [TenantDeletionDto]
 *   GET    /admin/tenant-deletions/:deletionId     one deletion's progress                        200 TenantDeletionDto
 *   POST   /admin/tenants/:tenantId/support        start a support access (30 min)               201 SupportAccessResponse
 *   GET    /admin/tenants/:tenantId/support-sessions   the tenant's support accesses             200 [SupportSessionDto]
 *   DELETE /admin/support-sessions/:id             end a support access                           200 SupportSessionDto
 *   GET    /support-sessions/current               the caller's support access (banner)           200 SupportSessionDto
 *   DELETE /support-sessions/current               leave it (banner's exit button)                200 SupportSessionDto
 *   GET    /admin/users                            users of every tenant (?tenantId, searchParam) 200 AdminUserListResponse
 *   PUT    /admin/channels/:channelId/session      restart a tenant's channel session             200 ChannelDto
 *   DELETE /admin/channels/:channelId/session      disconnect it                                  200 ChannelDto
 *   DELETE /admin/channels/:channelId              delete it                                      204
 */
const TENANT_ECHOED = [
  ...ECHOED_ROW_FIELDS,
  'status',
  'planName',
  'trialEndsAt',
  'userCount',
  'connectionCount',
  'deletion',
];

const registered = new WeakSet<AppDeps>();

export function adminTenantsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const only = platformSuperadminOnly;
  const tenants = new AdminTenantsService(deps);
  const support = new SupportAccessService(deps);
  const users = new AdminUsersService(deps);
  const channels = new AdminChannelsService(deps);
  if (!registered.has(deps)) {
    registered.add(deps);
    registerTenantDeletionJob(deps);
    deps.jobs.process<{ supportId: number }>(SUPPORT_EXPIRE_JOB, (data) => support.expire(Number(data.supportId)));
  }
  const tenantId = (ctx: AppContext) => intParam(ctx, 'tenantId');

  router.get(['/admin/tenants', '/admin/tenants/'], auth, only, async (ctx: AppContext) => {
    ctx.body = await tenants.list(authOf(ctx));
  });
  router.post(['/admin/tenants', '/admin/tenants/'], auth, only, validate(CreateTenantSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await tenants.create(authOf(ctx), ctx.input);
  });
  router.get('/admin/tenants/:tenantId', auth, only, async (ctx: AppContext) => {
    ctx.body = await tenants.get(authOf(ctx), tenantId(ctx));
  });
  router.put('/admin/empresa/:tenantId', auth, only, validate(UpdateTenantSchema, 'body', { echoed: TENANT_ECHOED }), async (ctx: AppContext) => {
    ctx.body = await tenants.update(authOf(ctx), tenantId(ctx), ctx.input);
  });
  router.put('/admin/status/tenant/:tenantId', auth, only, validate(TenantStatusSchema), async (ctx: AppContext) => {
    ctx.body = await tenants.setStatus(authOf(ctx), tenantId(ctx), ctx.input);
  });
  router.delete('/admin/tenants/:tenantId', auth, only, validate(DeleteTenantQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.status = 202;
    ctx.body = await tenants.requestDeletion(authOf(ctx), tenantId(ctx), ctx.input.force);
  });
  router.get('/admin/tenant-deletions', auth, only, async (ctx: AppContext) => {
    ctx.body = await tenants.listDeletions(authOf(ctx));
  });
  router.get('/admin/tenant-deletions/:deletionId', auth, only, async (ctx: AppContext) => {
    ctx.body = await tenants.getDeletion(authOf(ctx), intParam(ctx, 'deletionId'));
  });

  router.post('/admin/tenants/:tenantId/support', auth, only, validate(StartSupportSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await support.start(authOf(ctx), tenantId(ctx), ctx.input, { ip: ctx.ip || null });
  });
  router.get('/admin/tenants/:tenantId/support-sessions', auth, only, async (ctx: AppContext) => {
    ctx.body = await support.listForTenant(authOf(ctx), tenantId(ctx));
  });
  router.delete('/admin/support-sessions/:id', auth, only, async (ctx: AppContext) => {
    ctx.body = await support.endById(authOf(ctx), intParam(ctx, 'id'));
  });
  router.get('/support-sessions/current', auth, async (ctx: AppContext) => {
    ctx.body = await support.current(authOf(ctx));
  });
  router.delete('/support-sessions/current', auth, async (ctx: AppContext) => {
    ctx.body = await support.endCurrent(authOf(ctx));
  });

  router.get(['/admin/users', '/admin/users/'], auth, only, validate(AdminUserListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await users.list(authOf(ctx), ctx.input);
  });

  router.put('/admin/channels/:channelId/session', auth, only, async (ctx: AppContext) => {
    ctx.body = await channels.restart(authOf(ctx), intParam(ctx, 'channelId'));
  });
  router.delete('/admin/channels/:channelId/session', auth, only, async (ctx: AppContext) => {
    ctx.body = await channels.disconnect(authOf(ctx), intParam(ctx, 'channelId'));
  });
  router.delete('/admin/channels/:channelId', auth, only, async (ctx: AppContext) => {
    await channels.remove(authOf(ctx), intParam(ctx, 'channelId'));
    ctx.status = 204;
  });

  return router;
}
