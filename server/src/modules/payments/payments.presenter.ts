import type { Invoice, PaymentStatus } from '@shared/schemas/payments';
import { isoDate } from '../../core/tenant-catalog';

export interface TenantPaymentRow {
  id: number;
  tenantId: number;
  tenantName?: string;
  providerId: string;
  value: string;
  status: PaymentStatus;
  dueDate: string | Date;
  description: string | null;
  bankSlipUrl: string | null;
  invoiceUrl: string | null;
  paidAt: Date | null;
  createdAt: Date;
}

/** A `date` column as yyyy-MM-dd whatever the driver hands back (text, or a Date at local midnight). */
export function calendarDayOf(value: string | Date): string {
  if (typeof value === 'string') return value.slice(0, 10);
  const y = value.getFullYear();
  const m = String(value.getMonth() + 1).padStart(2, '0');
  const d = String(value.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

export function presentInvoice(row: TenantPaymentRow): Invoice {
  return {
    id: row.id,
    tenantId: row.tenantId,
    ...(row.tenantName !== undefined ? { tenantName: row.tenantName } : {}),
    providerId: row.providerId,
    value: Number(row.value),
    status: row.status,
    dueDate: calendarDayOf(row.dueDate),
    description: row.description,
    bankSlipUrl: row.bankSlipUrl,
    invoiceUrl: row.invoiceUrl,
    paidAt: row.paidAt ? isoDate(row.paidAt) : null,
    createdAt: isoDate(row.createdAt),
  };
}
