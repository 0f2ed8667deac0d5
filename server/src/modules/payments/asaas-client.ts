import { AppError } from '../../core/app-error';

/**
 * A client of an Asaas-compatible payment API (API v3): `access_token` header with the account's
 * API key, JSON bodies, `/v3/customers` and `/v3/payments`. The base URL is configurable
 * (production https://api.asaas.com, sandbox https://api-sandbox.asaas.com, a local fake in
 * tests). Errors of the provider (`{ errors: [{ code, description }] }`) become
 * ERR_PAYMENT_PROVIDER with the provider's description; the API key is never put in a message.
 */

export type AsaasPaymentStatus =
  | 'PENDING'
  | 'RECEIVED'
  | 'CONFIRMED'
  | 'OVERDUE'
  | 'REFUNDED'
  | 'RECEIVED_IN_CASH'
  | 'REFUND_REQUESTED'
  | 'REFUND_IN_PROGRESS'
  | 'CHARGEBACK_REQUESTED'
  | 'CHARGEBACK_DISPUTE'
  | 'AWAITING_CHARGEBACK_REVERSAL'
  | 'DUNNING_REQUESTED'
  | 'DUNNING_RECEIVED'
  | 'AWAITING_RISK_ANALYSIS';

export interface AsaasCustomer {
  object: 'customer';
  id: string;
  name: string;
  email?: string | null;
  cpfCnpj?: string | null;
  externalReference?: string | null;
}

export interface AsaasPayment {
  object: 'payment';
  id: string;
  customer: string;
  value: number;
  status: AsaasPaymentStatus | string;
  /** yyyy-MM-dd. */
  dueDate: string;
  billingType: string;
  description?: string | null;
  externalReference?: string | null;
  invoiceUrl?: string | null;
  bankSlipUrl?: string | null;
  paymentDate?: string | null;
  clientPaymentDate?: string | null;
}

export interface AsaasClientOptions {
  baseUrl: string;
  apiKey: string;
  /** Spec section 9: requests give up after 20 s. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

export class AsaasClient {
  private readonly baseUrl: string;

  constructor(private readonly opts: AsaasClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
  }

  createCustomer(input: { name: string; cpfCnpj?: string | null; email?: string | null; externalReference: string }): Promise<AsaasCustomer> {
    const body: Record<string, unknown> = { name: input.name, externalReference: input.externalReference, notificationDisabled: true };
    if (input.cpfCnpj) body.cpfCnpj = input.cpfCnpj.replace(/\D/g, '');
    if (input.email) body.email = input.email;
    return this.call<AsaasCustomer>('POST', '/v3/customers', body);
  }

  /**
   * A charge the customer pays as they choose (billingType UNDEFINED: bank slip, Pix or card on
   * the provider's payment page); the answer carries `invoiceUrl` and `bankSlipUrl`.
   */
  createPayment(input: { customer: string; value: number; dueDate: string; description?: string; externalReference: string }): Promise<AsaasPayment> {
    return this.call<AsaasPayment>('POST', '/v3/payments', {
      customer: input.customer,
      billingType: 'UNDEFINED',
      value: input.value,
      dueDate: input.dueDate,
      description: input.description,
      externalReference: input.externalReference,
    });
  }

  getPayment(id: string): Promise<AsaasPayment> {
    return this.call<AsaasPayment>('GET', `/v3/payments/${encodeURIComponent(id)}`);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const timeoutMs = this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          access_token: this.opts.apiKey,
          accept: 'application/json',
          'user-agent': 'atende-platform',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      const reason = e.name === 'TimeoutError' ? `sem resposta em ${timeoutMs} ms` : 'não foi possível conectar';
      throw new AppError('ERR_PAYMENT_PROVIDER', { message: `O provedor de pagamentos não respondeu (${method} ${path}): ${reason}.` });
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!res.ok) {
      const errors = (parsed as { errors?: { code?: string; description?: string }[] } | undefined)?.errors;
      const description = errors?.map((e) => e.description ?? e.code).filter(Boolean).join('; ');
      const why = res.status === 401 ? 'chave da API recusada' : description || `HTTP ${res.status}`;
      throw new AppError('ERR_PAYMENT_PROVIDER', { message: `O provedor de pagamentos recusou a operação: ${why}.` });
    }
    if (parsed === undefined || typeof parsed !== 'object') {
      throw new AppError('ERR_PAYMENT_PROVIDER', { message: 'O provedor de pagamentos respondeu algo que não é JSON.' });
    }
    return parsed as T;
  }
}
