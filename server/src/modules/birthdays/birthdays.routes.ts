import Router from '@koa/router';
import { UpcomingBirthdaysQuerySchema } from '@shared/schemas/birthdays';
import type { Middleware } from 'koa';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { authorizeBirthdays } from './birthdays.policy';
import { BirthdaysService } from './birthdays.service';

/**
 * Birthdays (issue #14, screen /aniversarios): auth -> profile gate -> validate -> handler.
 *   GET /birthdays/upcoming?days=30&pageNumber=1&pageSize=20   200 UpcomingBirthdaysAnswer
 * The channels' birthday messages are written with PUT /whatsapp/{id}/birthday (channels module)
 * and sent by the messages module (POST /messages/sendBirthday and the periodic job).
 */
export function birthdaysRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const birthdays = new BirthdaysService(deps);
  const allowed: Middleware = async (ctx, next) => {
    authorizeBirthdays(authOf(ctx as AppContext));
    await next();
  };

  router.get('/birthdays/upcoming', auth, allowed, validate(UpcomingBirthdaysQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await birthdays.upcoming(authOf(ctx), ctx.input);
  });

  return router;
}
