import { z } from 'zod';
import { parseCalendarDay } from './calendar-day';
import { recordIdSchema } from './record-id';

/**
 * Tenant payments (spec section 3 "Tenant payment: id, status, dueDate, bankSlipUrl, payment
 * link"; section 4 "Payment: pending, overdue, paid (also received)"). The platform charges its
 * tenants through an Asaas-compatible payment provider, configured by the super administrator.
 */

export const PAYMENT_STATUSES = ['pending', 'overdue', 'paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Grace days after a due date before an overdue tenant is blocked: bounds of the setting. */
export const PAYMENT_GRACE_DAYS_MAX = 90;
export const PAYMENT_GRACE_DAYS_DEFAULT = 5;
/** The provider's production address (Asaas); the sandbox is https://api-sandbox.asaas.com. */
export const PAYMENT_PROVIDER_DEFAULT_BASE_URL = 'https://api.asaas.com';
/** The shortest webhook token accepted: it is the only proof a webhook comes from the provider. */
export const PAYMENT_WEBHOOK_TOKEN_MIN = 16;

const httpUrl = z
  .string({ error: 'é obrigatório' })
  .trim()
  .min(1, { error: 'é obrigatório' })
  .max(500, { error: 'no máximo 500 caracteres' })
  .refine(
    (v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    },
    { error: 'deve ser um endereço http(s) válido' },
  );

/**
 * PUT /admin/payments/config. `apiKey` and `webhookToken` are never read back: an empty or
 * missing value keeps the stored one.
 */
export const PaymentConfigSchema = z.object({
  baseUrl: httpUrl,
  apiKey: z.string({ error: 'deve ser um texto' }).trim().max(500, { error: 'no máximo 500 caracteres' }).optional(),
  webhookToken: z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(200, { error: 'no máximo 200 caracteres' })
    .refine((v) => v === '' || v.length >= PAYMENT_WEBHOOK_TOKEN_MIN, {
      error: `no mínimo ${PAYMENT_WEBHOOK_TOKEN_MIN} caracteres`,
    })
    .optional(),
  graceDays: z.coerce
    .number({ error: 'deve ser um número' })
    .int({ error: 'deve ser um número inteiro' })
    .min(0, { error: 'deve ser 0 ou mais' })
    .max(PAYMENT_GRACE_DAYS_MAX, { error: `no máximo ${PAYMENT_GRACE_DAYS_MAX}` }),
});
export type PaymentConfigInput = z.infer<typeof PaymentConfigSchema>;

/** GET /admin/payments/config: the secrets only say whether they are set. */
export interface PaymentConfig {
  baseUrl: string;
  graceDays: number;
  apiKeySet: boolean;
  webhookTokenSet: boolean;
}

const calendarDay = z
  .string({ error: 'é obrigatório' })
  .refine((v) => parseCalendarDay(v) !== null, { error: 'Data inválida' })
  .transform((v) => parseCalendarDay(v)!);

export const INVOICE_VALUE_MAX = 1_000_000;

/**
 * POST /admin/invoices: a charge for one tenant, of its plan's value unless `value` is given
 * (an extra or pro-rata charge). A form's empty text means "the plan's value".
 */
export const CreateInvoiceSchema = z.object({
  tenantId: recordIdSchema(),
  dueDate: calendarDay,
  value: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v.trim().replace(',', '.')) : v),
    z
      .number({ error: 'deve ser um número' })
      .positive({ error: 'deve ser maior que zero' })
      .max(INVOICE_VALUE_MAX, { error: `no máximo ${INVOICE_VALUE_MAX}` })
      .refine((n) => Math.round(n * 100) === n * 100, { error: 'no máximo 2 casas decimais' })
      .optional(),
  ),
  description: z.string({ error: 'deve ser um texto' }).trim().max(500, { error: 'no máximo 500 caracteres' }).optional(),
});
export type CreateInvoiceInput = z.infer<typeof CreateInvoiceSchema>;

/** GET /invoices/all query: the super administrator's filters. */
export const InvoiceListQuerySchema = z.object({
  status: z.enum(PAYMENT_STATUSES, { error: 'deve ser pending, overdue ou paid' }).optional(),
  tenantId: recordIdSchema().optional(),
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuerySchema>;

/** One charge, as the tenant admin and the super administrator see it. */
export interface Invoice {
  id: number;
  tenantId: number;
  tenantName?: string;
  providerId: string;
  value: number;
  status: PaymentStatus;
  /** yyyy-MM-dd. */
  dueDate: string;
  description: string | null;
  bankSlipUrl: string | null;
  /** The provider's payment page (payment link). */
  invoiceUrl: string | null;
  paidAt: string | null;
  createdAt: string;
}

/** GET /subscription: the tenant's plan, whether it is blocked, and its charges. */
export interface Subscription {
  tenantId: number;
  plan: { id: number; name: string; value: number } | null;
  blocked: boolean;
  graceDays: number;
  invoices: Invoice[];
}

/** GET /admin/payments/tenants: who may be charged, with the plan value a charge would take. */
export interface BillableTenant {
  id: number;
  name: string;
  planName: string | null;
  planValue: number | null;
  blocked: boolean;
}
