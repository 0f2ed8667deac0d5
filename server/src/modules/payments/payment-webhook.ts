import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../../core/app-error';
import { updateReturning } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { refreshBlocks, todayOf } from './overdue';
import { readPaymentConfig } from './payments.config';

/**
 * The provider's payment webhook (Asaas-compatible): `POST` with the event as JSON
 * (`{ id, event, payment: { id, status, ... } }`) and the token configured for the webhook in
 * the `asaas-access-token` header.
 * - A missing or wrong token (a forged call) is refused with 401 and changes nothing.
 * - An event id already applied (a replay, or the provider's retry) changes nothing; so does an
 *   event that would put a charge in the status it already has.
 * - PAYMENT_RECEIVED / PAYMENT_CONFIRMED / PAYMENT_RECEIVED_IN_CASH: the charge is paid and its
 *   tenant's block is recomputed at once (paying unblocks). PAYMENT_OVERDUE: a pending charge
 *   becomes overdue. PAYMENT_UPDATED: due date, value and links follow the provider's.
 *   PAYMENT_DELETED: the charge is removed. Other events are acknowledged and ignored.
 * A charge unknown here is acknowledged too (the provider pauses a webhook that keeps failing).
 */

export const PAYMENT_WEBHOOK_TOKEN_HEADER = 'asaas-access-token';

const WebhookSchema = z.object({
  id: z.string().min(1).max(200).optional(),
  event: z.string({ error: 'é obrigatório' }).min(1, { error: 'é obrigatório' }).max(100),
  payment: z
    .object({
      id: z.string({ error: 'é obrigatório' }).min(1).max(100),
      status: z.string().max(60).optional(),
      value: z.number().positive().optional(),
      dueDate: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional(),
      paymentDate: z.string().nullish(),
      clientPaymentDate: z.string().nullish(),
      invoiceUrl: z.string().max(2000).nullish(),
      bankSlipUrl: z.string().max(2000).nullish(),
    })
    .loose()
    .optional(),
}).loose();

export type WebhookOutcome = { received: true; applied: boolean; reason?: 'duplicate' | 'unknown-payment' | 'ignored' | 'unchanged' };

const PAID_EVENTS = new Set(['PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED_IN_CASH']);

function sameToken(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function handlePaymentWebhook(
  deps: Pick<AppDeps, 'dataSource' | 'clock' | 'logger'>,
  token: string | undefined,
  body: unknown,
): Promise<WebhookOutcome> {
  const config = await readPaymentConfig(deps.dataSource);
  if (!config.webhookToken || !sameToken(config.webhookToken, token)) throw new AppError('ERR_WEBHOOK_SIGNATURE');
  const parsed = WebhookSchema.safeParse(body);
  if (!parsed.success) {
    throw new AppError('ERR_VALIDATION', {
      fields: parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message })),
    });
  }
  const { event, payment } = parsed.data;
  if (!payment) return { received: true, applied: false, reason: 'ignored' };
  // Older payloads carry no event id: the event, the payment and its status identify it.
  const eventId = parsed.data.id ?? `${event}:${payment.id}:${payment.status ?? ''}`;
  const today = todayOf(deps.clock);

  return deps.dataSource.transaction(async (tx) => {
    const inserted: { id: string }[] = await tx.query(
      `INSERT INTO payment_webhook_events (id, event, "providerPaymentId") VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [eventId, event, payment.id],
    );
    if (inserted.length === 0) return { received: true, applied: false, reason: 'duplicate' } as const;
    const [row]: { id: number; tenantId: number; status: string }[] = await tx.query(
      `SELECT id, "tenantId", status FROM tenant_payments WHERE "providerId" = $1 FOR UPDATE`,
      [payment.id],
    );
    if (!row) return { received: true, applied: false, reason: 'unknown-payment' } as const;

    let changed: number;
    if (PAID_EVENTS.has(event)) {
      const paidOn = payment.clientPaymentDate ?? payment.paymentDate;
      const paidAt = paidOn && /^\d{4}-\d{2}-\d{2}/.test(paidOn) ? new Date(`${paidOn.slice(0, 10)}T12:00:00Z`) : deps.clock.now();
      changed = (
        await updateReturning(tx, `UPDATE tenant_payments SET status = 'paid', "paidAt" = $2, "updatedAt" = now() WHERE id = $1 AND status <> 'paid' RETURNING id`, [
          row.id,
          paidAt,
        ])
      ).length;
    } else if (event === 'PAYMENT_OVERDUE') {
      changed = (
        await updateReturning(tx, `UPDATE tenant_payments SET status = 'overdue', "updatedAt" = now() WHERE id = $1 AND status = 'pending' RETURNING id`, [row.id])
      ).length;
    } else if (event === 'PAYMENT_UPDATED') {
      changed = (
        await updateReturning(
          tx,
          `UPDATE tenant_payments SET
             "dueDate" = COALESCE($2::date, "dueDate"), value = COALESCE($3, value),
             "invoiceUrl" = COALESCE($4, "invoiceUrl"), "bankSlipUrl" = COALESCE($5, "bankSlipUrl"),
             status = CASE WHEN status = 'overdue' AND COALESCE($2::date, "dueDate") >= $6::date THEN 'pending' ELSE status END,
             "updatedAt" = now()
           WHERE id = $1 AND status <> 'paid' RETURNING id`,
          [row.id, payment.dueDate ?? null, payment.value ?? null, payment.invoiceUrl ?? null, payment.bankSlipUrl ?? null, today],
        )
      ).length;
    } else if (event === 'PAYMENT_DELETED') {
      changed = (await updateReturning(tx, `DELETE FROM tenant_payments WHERE id = $1 RETURNING id`, [row.id])).length;
    } else {
      return { received: true, applied: false, reason: 'ignored' } as const;
    }
    if (changed === 0) return { received: true, applied: false, reason: 'unchanged' } as const;
    const blocks = await refreshBlocks(tx, { today, graceDays: config.graceDays, tenantIds: [row.tenantId] });
    deps.logger.info({ event, paymentId: row.id, tenantId: row.tenantId, blocks }, 'payment webhook applied');
    return { received: true, applied: true } as const;
  });
}
