import Router from '@koa/router';
import type { Middleware } from 'koa';
import { REPORT_IDS, type ReportId } from '@shared/schemas/reports';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { authorizeReports } from './reports.policy';
import { ContactsReportQuerySchema, reportExportQuerySchema, reportQuerySchema } from './reports.schema';
import { ReportsService } from './reports.service';

/**
 * Reports (issue #13): auth -> profile gate -> validate(shared zod schema) -> handler. One route
 * per report id (an unknown id is the router's 404), so each validates its own filters. The
 * profile is checked before the query, so an agent is refused whatever they send.
 */
export function reportsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const reports = new ReportsService(deps);
  const allowed: Middleware = async (ctx, next) => {
    authorizeReports(authOf(ctx as AppContext));
    await next();
  };

  for (const id of REPORT_IDS as readonly ReportId[]) {
    router.get(`/reports/${id}`, auth, allowed, validate(reportQuerySchema(id), 'query'), async (ctx: AppContext) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await reports.page(authOf(ctx), id, ctx.input);
    });

    router.get(`/reports/${id}/export`, auth, allowed, validate(reportExportQuerySchema(id), 'query'), async (ctx: AppContext) => {
      const file = await reports.export(authOf(ctx), id, ctx.input);
      ctx.set('Cache-Control', 'no-store');
      ctx.attachment(file.fileName);
      ctx.type = file.contentType;
      ctx.body = file.body;
    });
  }

  router.get('/contacts-report', auth, allowed, validate(ContactsReportQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await reports.contactsReport(authOf(ctx), ctx.input);
  });

  return router;
}
