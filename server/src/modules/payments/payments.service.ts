import type {
  BillableTenant,
  CreateInvoiceInput,
  Invoice,
  InvoiceListQuery,
  PaymentConfig,
  PaymentConfigInput,
  PaymentStatus,
  Subscription,
} from '@shared/schemas/payments';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { PLATFORM_TENANT_ID } from '../../core/platform';
import type { AppDeps } from '../../deps';
import type { AsaasPaymentStatus } from './asaas-client';
import { markOverdue, refreshBlocks, todayOf } from './overdue';
import { presentPaymentConfig, providerClient, readPaymentConfig, writePaymentConfig } from './payments.config';
import { authorizePayments } from './payments.policy';
import { presentInvoice, type TenantPaymentRow } from './payments.presenter';

const INVOICE_COLUMNS = `p.id, p."tenantId", p."providerId", p.value, p.status, p."dueDate"::text AS "dueDate", p.description,
  p."bankSlipUrl", p."invoiceUrl", p."paidAt", p."createdAt"`;
/** The super administrator's list shows the most recent charges first, this many at most. */
const ALL_INVOICES_LIMIT = 500;

/** The provider's statuses in ours (spec section 4: pending, overdue, paid, also received). */
export function statusOfProvider(status: AsaasPaymentStatus | string): PaymentStatus {
  if (status === 'RECEIVED' || status === 'CONFIRMED' || status === 'RECEIVED_IN_CASH' || status === 'DUNNING_RECEIVED') return 'paid';
  if (status === 'OVERDUE') return 'overdue';
  return 'pending';
}

/**
 * Tenant payments: the super administrator configures the provider and charges tenants (value
 * of the tenant's plan); a tenant's administrators see their charges and pay them on the
 * provider's pages (bank slip, payment link). Blocking of overdue tenants: overdue.ts.
 */
export class PaymentsService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'clock' | 'logger'>) {}

  async getConfig(auth: AuthContext): Promise<PaymentConfig> {
    authorizePayments(auth, 'manage');
    return presentPaymentConfig(await readPaymentConfig(this.deps.dataSource));
  }

  /** Saving also re-applies the grace days to every tenant's block at once. */
  async updateConfig(auth: AuthContext, input: PaymentConfigInput): Promise<PaymentConfig> {
    authorizePayments(auth, 'manage');
    return this.deps.dataSource.transaction(async (tx) => {
      await writePaymentConfig(tx, input);
      const config = await readPaymentConfig(tx);
      await refreshBlocks(tx, { today: todayOf(this.deps.clock), graceDays: config.graceDays });
      return presentPaymentConfig(config);
    });
  }

  async listBillableTenants(auth: AuthContext): Promise<BillableTenant[]> {
    authorizePayments(auth, 'manage');
    const rows: { id: number; name: string; planName: string | null; planValue: string | null; overdueBlocked: boolean }[] =
      await this.deps.dataSource.query(
        `SELECT t.id, t.name, pl.name AS "planName", pl.value AS "planValue", t."overdueBlocked"
           FROM tenants t LEFT JOIN plans pl ON pl.id = t."planId"
          WHERE t.id <> $1
          ORDER BY lower(t.name), t.id`,
        [PLATFORM_TENANT_ID],
      );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      planName: r.planName,
      planValue: r.planValue === null ? null : Number(r.planValue),
      blocked: r.overdueBlocked,
    }));
  }

  /**
   * A charge for a tenant, of its plan's value, created at the provider (the tenant becomes the
   * provider's customer on its first charge). The provider is called outside any transaction.
   */
  async createInvoice(auth: AuthContext, input: CreateInvoiceInput): Promise<Invoice> {
    authorizePayments(auth, 'manage');
    if (input.dueDate < todayOf(this.deps.clock)) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: 'dueDate', message: 'não pode ser anterior a hoje' }] });
    }
    const [tenant]: { id: number; name: string; identity: string | null; customerId: string | null; planName: string | null; planValue: string | null }[] =
      await this.deps.dataSource.query(
        `SELECT t.id, t.name, t.identity, t."customerId", pl.name AS "planName", pl.value AS "planValue"
           FROM tenants t LEFT JOIN plans pl ON pl.id = t."planId"
          WHERE t.id = $1 AND t.id <> $2`,
        [input.tenantId, PLATFORM_TENANT_ID],
      );
    if (!tenant) throw new AppError('ERR_NO_TENANT_FOUND');
    const value = input.value ?? Number(tenant.planValue ?? 0);
    if (!(value > 0)) throw new AppError('ERR_TENANT_NO_PLAN');
    const client = providerClient(await readPaymentConfig(this.deps.dataSource));

    let customerId = tenant.customerId;
    if (!customerId) {
      const customer = await client.createCustomer({ name: tenant.name, cpfCnpj: tenant.identity, externalReference: `tenant:${tenant.id}` });
      customerId = customer.id;
      // Kept even if the charge below fails: the next attempt reuses the customer.
      await this.deps.dataSource.query(`UPDATE tenants SET "customerId" = $2, "paymentActive" = true, "updatedAt" = now() WHERE id = $1`, [
        tenant.id,
        customerId,
      ]);
    }
    const payment = await client.createPayment({
      customer: customerId,
      value,
      dueDate: input.dueDate,
      description: input.description || `Plano ${tenant.planName ?? ''}`.trim(),
      externalReference: `tenant:${tenant.id}`,
    });
    const [row]: TenantPaymentRow[] = await this.deps.dataSource.query(
      `INSERT INTO tenant_payments AS p ("tenantId", "providerId", value, status, "dueDate", description, "bankSlipUrl", "invoiceUrl", "paidAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       RETURNING ${INVOICE_COLUMNS}`,
      [
        tenant.id,
        payment.id,
        payment.value ?? value,
        statusOfProvider(payment.status),
        payment.dueDate ?? input.dueDate,
        payment.description ?? input.description ?? null,
        payment.bankSlipUrl ?? null,
        payment.invoiceUrl ?? null,
        statusOfProvider(payment.status) === 'paid' ? this.deps.clock.now() : null,
      ],
    );
    return presentInvoice({ ...row!, tenantName: tenant.name });
  }

  /** GET /invoices/all: every tenant's charges, newest due date first, with the filters. */
  async listAll(auth: AuthContext, query: InvoiceListQuery): Promise<Invoice[]> {
    authorizePayments(auth, 'manage');
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.status) {
      params.push(query.status);
      where.push(`p.status = $${params.length}`);
    }
    if (query.tenantId) {
      params.push(query.tenantId);
      where.push(`p."tenantId" = $${params.length}`);
    }
    params.push(ALL_INVOICES_LIMIT);
    const rows: TenantPaymentRow[] = await this.deps.dataSource.query(
      `SELECT ${INVOICE_COLUMNS}, t.name AS "tenantName"
         FROM tenant_payments p JOIN tenants t ON t.id = p."tenantId"
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY p."dueDate" DESC, p.id DESC
        LIMIT $${params.length}`,
      params,
    );
    return rows.map(presentInvoice);
  }

  /** GET /invoices: the caller's tenant's charges. */
  async listOwn(auth: AuthContext): Promise<Invoice[]> {
    authorizePayments(auth, 'readOwn');
    const rows: TenantPaymentRow[] = await this.deps.dataSource.query(
      `SELECT ${INVOICE_COLUMNS} FROM tenant_payments p WHERE p."tenantId" = $1 ORDER BY p."dueDate" DESC, p.id DESC`,
      [auth.tenantId],
    );
    return rows.map(presentInvoice);
  }

  /** GET /invoices/:id: one charge of the caller's tenant; another tenant's is not found. */
  async getOwn(auth: AuthContext, id: number): Promise<Invoice> {
    authorizePayments(auth, 'readOwn');
    const [row]: TenantPaymentRow[] = await this.deps.dataSource.query(
      `SELECT ${INVOICE_COLUMNS} FROM tenant_payments p WHERE p.id = $1 AND p."tenantId" = $2`,
      [id, auth.tenantId],
    );
    if (!row) throw new AppError('ERR_NO_INVOICE_FOUND');
    return presentInvoice(row);
  }

  /** GET /subscription: plan, block and charges of the caller's tenant. */
  async subscription(auth: AuthContext): Promise<Subscription> {
    authorizePayments(auth, 'readOwn');
    const [tenant]: { planId: number | null; planName: string | null; planValue: string | null; overdueBlocked: boolean }[] =
      await this.deps.dataSource.query(
        `SELECT pl.id AS "planId", pl.name AS "planName", pl.value AS "planValue", t."overdueBlocked"
           FROM tenants t LEFT JOIN plans pl ON pl.id = t."planId" WHERE t.id = $1`,
        [auth.tenantId],
      );
    const config = await readPaymentConfig(this.deps.dataSource);
    return {
      tenantId: auth.tenantId,
      plan: tenant?.planId ? { id: tenant.planId, name: tenant.planName ?? '', value: Number(tenant.planValue ?? 0) } : null,
      blocked: tenant?.overdueBlocked ?? false,
      graceDays: config.graceDays,
      invoices: await this.listOwn(auth),
    };
  }

  /**
   * The periodic sweep: pending charges past their due date become overdue, then every tenant's
   * block is recomputed (a grace period may have ended today).
   */
  async sweepOverdue(): Promise<void> {
    const today = todayOf(this.deps.clock);
    await this.deps.dataSource.transaction(async (tx) => {
      const config = await readPaymentConfig(tx);
      const touched = await markOverdue(tx, today);
      const changed = await refreshBlocks(tx, { today, graceDays: config.graceDays });
      if (touched.length || changed.length) this.deps.logger.info({ overdueTenants: touched, blockChanges: changed }, 'payments overdue sweep');
    });
  }
}
