import type { PaymentStatus } from '@shared/schemas/payments';

/** yyyy-MM-dd as dd/MM/yyyy (spec section 5). */
export function formatDay(day: string): string {
  const [y, m, d] = day.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
}

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
export const formatMoney = (value: number): string => money.format(value);

export const STATUS_INTENT: Record<PaymentStatus, 'warning' | 'danger' | 'success'> = {
  pending: 'warning',
  overdue: 'danger',
  paid: 'success',
};
