import Router from '@koa/router';
import { CreateInvoiceSchema, InvoiceListQuerySchema, PaymentConfigSchema } from '@shared/schemas/payments';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { handlePaymentWebhook, PAYMENT_WEBHOOK_TOKEN_HEADER } from './payment-webhook';
import { PaymentsService } from './payments.service';

/** The overdue sweep runs hourly (and at start): a due date passes once a day, a grace period ends at most an hour late. */
export const PAYMENTS_OVERDUE_TASK = 'payments.overdue';
const OVERDUE_SWEEP_MS = 60 * 60_000;

/**
 * Tenant payments (docs/api.md "Payments"):
 * - super administrator: GET/PUT /admin/payments/config, GET /admin/payments/tenants,
 *   POST /admin/invoices, GET /invoices/all (anchor path; filters status, tenantId);
 * - a tenant's administrators: GET /invoices, GET /invoices/:invoiceId (anchor paths),
 *   GET /subscription;
 * - the provider: POST /subscription/whazing/webhook[/:type] (anchor path), authenticated by
 *   the `asaas-access-token` header, not by a user.
 */
export function paymentsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const payments = new PaymentsService(deps);

  deps.periodic.register({ name: PAYMENTS_OVERDUE_TASK, intervalMs: OVERDUE_SWEEP_MS, run: () => payments.sweepOverdue() });

  router.get('/admin/payments/config', auth, async (ctx: AppContext) => {
    ctx.body = await payments.getConfig(authOf(ctx));
  });

  router.put('/admin/payments/config', auth, validate(PaymentConfigSchema), async (ctx: AppContext) => {
    ctx.body = await payments.updateConfig(authOf(ctx), ctx.input);
  });

  router.get('/admin/payments/tenants', auth, async (ctx: AppContext) => {
    ctx.body = await payments.listBillableTenants(authOf(ctx));
  });

  router.post('/admin/invoices', auth, validate(CreateInvoiceSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await payments.createInvoice(authOf(ctx), ctx.input);
  });

  router.get('/invoices/all', auth, validate(InvoiceListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await payments.listAll(authOf(ctx), ctx.input);
  });

  router.get('/invoices', auth, async (ctx: AppContext) => {
    ctx.body = await payments.listOwn(authOf(ctx));
  });

  router.get('/invoices/:invoiceId', auth, async (ctx: AppContext) => {
    ctx.body = await payments.getOwn(authOf(ctx), intParam(ctx, 'invoiceId'));
  });

  router.get('/subscription', auth, async (ctx: AppContext) => {
    ctx.body = await payments.subscription(authOf(ctx));
  });

  const webhook = async (ctx: AppContext) => {
    const token = ctx.get(PAYMENT_WEBHOOK_TOKEN_HEADER) || undefined;
    try {
      ctx.body = await handlePaymentWebhook(deps, token, (ctx.request as unknown as { body?: unknown }).body);
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_WEBHOOK_SIGNATURE') {
        deps.logger.warn({ requestId: ctx.state.requestId }, 'payment webhook with a missing or wrong token refused');
      }
      throw err;
    }
  };
  router.post('/subscription/whazing/webhook', webhook);
  router.post('/subscription/whazing/webhook/:type', webhook);

  return router;
}
