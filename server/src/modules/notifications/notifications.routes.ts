import Router from '@koa/router';
import { NotificationPageQuerySchema, SendNotificationSchema } from '@shared/schemas/notifications';
import type { Middleware } from 'koa';
import { requirePlatformSuperadmin } from '../../core/platform';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { NotificationsService } from './notifications.service';

/**
 * Notifications (issue #17):
 * - the caller's own, for the bell of every signed-in user: GET /notifications,
 *   PUT /notifications/{id}/read, PUT /notifications/read-all;
 * - the super administrator's screen (/notificacao): GET/POST /admin/notifications,
 *   DELETE /admin/notifications/{id}, GET /admin/notifications/tenants.
 */
export function notificationsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const notifications = new NotificationsService(deps);
  // The profile is checked before the body: another profile is refused whatever it sends.
  const superadminOnly: Middleware = async (ctx, next) => {
    requirePlatformSuperadmin(authOf(ctx as AppContext));
    await next();
  };

  router.get('/notifications', auth, validate(NotificationPageQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await notifications.inbox(authOf(ctx), ctx.input);
  });
  router.put('/notifications/read-all', auth, async (ctx: AppContext) => {
    ctx.body = await notifications.markAllRead(authOf(ctx));
  });
  router.put('/notifications/:notificationId/read', auth, async (ctx: AppContext) => {
    ctx.body = await notifications.markRead(authOf(ctx), intParam(ctx, 'notificationId'));
  });

  router.get('/admin/notifications/tenants', auth, superadminOnly, async (ctx: AppContext) => {
    ctx.body = await notifications.listTargets(authOf(ctx));
  });
  router.get('/admin/notifications', auth, superadminOnly, validate(NotificationPageQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await notifications.listSent(authOf(ctx), ctx.input);
  });
  router.post('/admin/notifications', auth, superadminOnly, validate(SendNotificationSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await notifications.send(authOf(ctx), ctx.input);
  });
  router.delete('/admin/notifications/:notificationId', auth, superadminOnly, async (ctx: AppContext) => {
    await notifications.remove(authOf(ctx), intParam(ctx, 'notificationId'));
    ctx.status = 204;
  });

  return router;
}
