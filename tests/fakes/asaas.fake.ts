import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, postJson, sendJson, type RecordedRequest } from './fake-http-server';

/**
 * A local stand-in for an Asaas-compatible payment API (v3), written for the tests (no provider
 * code copied):
 *
 *   POST /v3/customers {name, cpfCnpj?, email?, externalReference?} -> {object: 'customer', id: 'cus_...'}
 *   POST /v3/payments  {customer, billingType, value, dueDate, description?, externalReference?}
 *        -> {object: 'payment', id: 'pay_...', status: 'PENDING', invoiceUrl, bankSlipUrl, ...}
 *   GET  /v3/payments/:id
 *   GET  /i/:id (the payment page behind invoiceUrl), GET /b/:id (the bank slip)
 * Every /v3 call needs the `access_token` header of the account (401 without it, as Asaas
 * answers); invalid input answers 400 {errors: [{code, description}]}.
 * Webhooks are posted to our server as Asaas posts them: JSON `{id, event, payment}` with the
 * webhook's token in the `asaas-access-token` header.
 */

export interface FakeAsaasPayment {
  object: 'payment';
  id: string;
  customer: string;
  value: number;
  netValue: number;
  billingType: string;
  status: string;
  dueDate: string;
  description: string | null;
  externalReference: string | null;
  invoiceUrl: string;
  bankSlipUrl: string;
  paymentDate: string | null;
  clientPaymentDate: string | null;
  deleted: boolean;
}

export interface WebhookTarget {
  url: string;
  token: string;
}

export class FakeAsaas extends FakeHttpServer {
  apiKey = `$aact_${randomBytes(12).toString('hex')}`;
  readonly customers = new Map<string, Record<string, unknown>>();
  readonly payments = new Map<string, FakeAsaasPayment>();
  /** Where webhooks go (our server's webhook URL and the configured token). */
  webhook: WebhookTarget | null = null;
  /** The last event posted, to replay it. */
  lastEvent: { body: unknown; token: string } | null = null;

  protected route(req: RecordedRequest, res: ServerResponse): void {
    const page = /^\/(i|b)\/([\w-]+)$/.exec(req.path);
    if (req.method === 'GET' && page) {
      const payment = this.payments.get(page[2]!);
      if (!payment) return sendJson(res, 404, {});
      const html = `<!doctype html><title>Fatura ${payment.id}</title><h1>Fatura ${payment.id}</h1><p>Valor: ${payment.value}</p><p>Situação: ${payment.status}</p>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
      return;
    }
    if (!req.path.startsWith('/v3/')) return sendJson(res, 404, { errors: [{ code: 'not_found', description: 'Not found' }] });
    if (req.headers['access_token'] !== this.apiKey) {
      res.writeHead(401);
      res.end();
      return;
    }
    if (req.method === 'POST' && req.path === '/v3/customers') return this.createCustomer(req, res);
    if (req.method === 'POST' && req.path === '/v3/payments') return this.createPayment(req, res);
    const one = /^\/v3\/payments\/([\w-]+)$/.exec(req.path);
    if (req.method === 'GET' && one) {
      const payment = this.payments.get(one[1]!);
      return payment ? sendJson(res, 200, payment) : sendJson(res, 404, { errors: [{ code: 'invalid_object', description: 'Cobrança não encontrada.' }] });
    }
    return sendJson(res, 404, { errors: [{ code: 'not_found', description: 'Not found' }] });
  }

  private createCustomer(req: RecordedRequest, res: ServerResponse): void {
    const body = req.json ?? {};
    if (typeof body.name !== 'string' || !body.name.trim()) {
      return sendJson(res, 400, { errors: [{ code: 'invalid_name', description: 'O nome do cliente deve ser informado.' }] });
    }
    const id = `cus_${randomBytes(6).toString('hex')}`;
    const customer = { object: 'customer', id, name: body.name, email: body.email ?? null, cpfCnpj: body.cpfCnpj ?? null, externalReference: body.externalReference ?? null };
    this.customers.set(id, customer);
    sendJson(res, 200, customer);
  }

  private createPayment(req: RecordedRequest, res: ServerResponse): void {
    const body = req.json ?? {};
    const errors: { code: string; description: string }[] = [];
    if (!this.customers.has(body.customer)) errors.push({ code: 'invalid_customer', description: 'Cliente inexistente.' });
    if (!['UNDEFINED', 'BOLETO', 'PIX', 'CREDIT_CARD'].includes(body.billingType)) errors.push({ code: 'invalid_billingType', description: 'Forma de pagamento inválida.' });
    if (!(typeof body.value === 'number' && body.value > 0)) errors.push({ code: 'invalid_value', description: 'O valor deve ser maior que zero.' });
    if (typeof body.dueDate !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(body.dueDate)) errors.push({ code: 'invalid_dueDate', description: 'Data de vencimento inválida.' });
    if (errors.length) return sendJson(res, 400, { errors });
    const id = `pay_${randomBytes(6).toString('hex')}`;
    const payment: FakeAsaasPayment = {
      object: 'payment',
      id,
      customer: body.customer,
      value: body.value,
      netValue: Math.round(body.value * 0.97 * 100) / 100,
      billingType: body.billingType,
      status: 'PENDING',
      dueDate: body.dueDate,
      description: body.description ?? null,
      externalReference: body.externalReference ?? null,
      invoiceUrl: `${this.url}/i/${id}`,
      bankSlipUrl: `${this.url}/b/${id}`,
      paymentDate: null,
      clientPaymentDate: null,
      deleted: false,
    };
    this.payments.set(id, payment);
    sendJson(res, 200, payment);
  }

  /** Posts an event about `paymentId` to the configured webhook, as the provider does. */
  async deliver(
    event: string,
    paymentId: string,
    opts: { token?: string; eventId?: string; target?: WebhookTarget } = {},
  ): Promise<{ status: number; body: any }> {
    const target = opts.target ?? this.webhook;
    if (!target) throw new Error('no webhook target configured in the fake');
    const payment = this.payments.get(paymentId);
    if (!payment) throw new Error(`no payment ${paymentId} in the fake`);
    const body = { id: opts.eventId ?? `evt_${randomBytes(8).toString('hex')}&${Date.now()}`, event, dateCreated: new Date().toISOString(), payment };
    const token = opts.token ?? target.token;
    this.lastEvent = { body, token };
    return postJson(target.url, body, { 'asaas-access-token': token });
  }

  /** The customer pays: the payment is received and PAYMENT_RECEIVED is posted. */
  pay(paymentId: string, opts: { token?: string } = {}): Promise<{ status: number; body: any }> {
    const payment = this.payments.get(paymentId)!;
    const today = new Date().toISOString().slice(0, 10);
    payment.status = 'RECEIVED';
    payment.paymentDate = today;
    payment.clientPaymentDate = today;
    return this.deliver('PAYMENT_RECEIVED', paymentId, opts);
  }

  /** The due date passed unpaid: PAYMENT_OVERDUE is posted. */
  overdue(paymentId: string): Promise<{ status: number; body: any }> {
    this.payments.get(paymentId)!.status = 'OVERDUE';
    return this.deliver('PAYMENT_OVERDUE', paymentId);
  }

  /** The account changed the due date at the provider: PAYMENT_UPDATED is posted. */
  changeDueDate(paymentId: string, dueDate: string): Promise<{ status: number; body: any }> {
    this.payments.get(paymentId)!.dueDate = dueDate;
    return this.deliver('PAYMENT_UPDATED', paymentId);
  }

  /** Posts the last event again, byte for byte the same (a replay or the provider's retry). */
  async replayLast(): Promise<{ status: number; body: any }> {
    if (!this.lastEvent || !this.webhook) throw new Error('nothing to replay');
    return postJson(this.webhook.url, this.lastEvent.body, { 'asaas-access-token': this.lastEvent.token });
  }
}
