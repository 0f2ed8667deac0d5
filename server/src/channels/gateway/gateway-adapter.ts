import { randomBytes } from 'node:crypto';
import { AppError } from '../../core/app-error';
import type { Logger } from '../../core/logger';
import type { AdapterContext, SessionChange } from '../adapter-context';
import {
  ChannelSendError,
  type ChannelAdapter,
  type ChannelType,
  type InteractiveButton,
  type OutboundMedia,
  type OutboundTarget,
  type SendOptions,
  type SendResult,
  type SessionStatus,
} from '../channel-adapter';

/**
 * What the QR-code gateways (Evolution API, Wuzapi, Meow) share: the session flow of spec
 * section 4 driven over HTTP, and what they cannot do. A gateway subclass only speaks its API.
 *
 * connect(): OPENING, then the gateway's `startSession` (create or start the instance, register
 * our webhook, read its state): already paired -> CONNECTED with the number; else the QR code
 * (and pairing code, when the gateway gives one) is published as `qrcode`, and the adapter polls
 * `readSession` every `pollIntervalMs` (new QR codes are published, pairing -> CONNECTED) until
 * `qrTimeoutMs` passes -> TIMEOUT (the gateway is told to stop pairing, best effort). The
 * gateway's connection webhooks (`onConnection`) do the same without waiting for the next poll.
 * A failure to reach the gateway, or a refusal, is DISCONNECTED with the reason.
 * disconnect(): logs out at the gateway (best effort) -> DISCONNECTED. destroy() (channel
 * deleted): the gateway's instance is removed. shutdown() (server stopping): polling stops; the
 * session lives on at the gateway and is read again on start (`resumeOnStart`).
 */

/** What a gateway says about its session. */
export type GatewaySession =
  | { connected: true; number?: string | null }
  | { connected: false; qr?: string | null; pairingCode?: string | null };

/** Session news a gateway's webhook carries. */
export type ConnectionEvent =
  | { kind: 'qr'; qr: string; pairingCode?: string | null }
  | { kind: 'connected'; number?: string | null }
  /** Logged out (on the phone, or the pairing was removed): the session ends. */
  | { kind: 'loggedOut'; reason?: string }
  /** The link dropped while connected; the gateway reconnects by itself. */
  | { kind: 'lost'; reason?: string };

export interface GatewayAdapterOptions {
  /** PUBLIC_URL: the gateway posts webhooks to `<publicUrl>/webhooks/<type>/<id>?secret=...`. */
  publicUrl: string;
  /** Deadline of each gateway call (CHANNEL_HTTP_TIMEOUT_MS). */
  timeoutMs: number;
  /** How often the session is read while waiting for the QR code to be scanned. */
  pollIntervalMs?: number;
  /** How long a QR code may wait to be scanned before the session is TIMEOUT. */
  qrTimeoutMs?: number;
}

export const GATEWAY_POLL_INTERVAL_MS = 3_000;
export const GATEWAY_QR_TIMEOUT_MS = 120_000;
export const QR_TIMEOUT_REASON = 'O QR code não foi lido a tempo. Gere um novo QR code.';
export const LOGGED_OUT_REASON = 'Sessão encerrada no WhatsApp (desconectada no celular).';
/** Largest inbound file fetched from a gateway. */
export const GATEWAY_DOWNLOAD_MAX_BYTES = 64 * 1024 * 1024;

/** A fresh per-channel webhook secret (the gateways cannot sign: it travels in the URL). */
export function newGatewayWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export abstract class GatewayAdapter implements ChannelAdapter {
  abstract readonly type: ChannelType;
  /** 'Evolution API', 'Wuzapi', 'Meow': prefix of reasons and errors. */
  protected abstract readonly label: string;
  /** Key of the per-channel webhook secret in `channels.secrets`. */
  protected abstract readonly secretKey: string;

  protected state: SessionStatus;
  protected readonly logger: Logger;
  private poll?: { timer?: NodeJS.Timeout; deadline: number };
  /** The QR code last published (a poll answering the same one publishes nothing). */
  private lastQr: string | null = null;
  private closed = false;

  constructor(
    protected readonly ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>,
    protected readonly opts: GatewayAdapterOptions,
  ) {
    this.state = ctx.record.status;
    this.logger = ctx.logger;
  }

  // ---------- what each gateway implements ----------

  /** Creates or starts the session at the gateway, registers our webhook, answers its state. */
  protected abstract startSession(webhookUrl: string): Promise<GatewaySession>;
  /** The session's state now (polled while waiting for the QR code to be scanned). */
  protected abstract readSession(): Promise<GatewaySession>;
  /** Logs the paired phone out (the next connect shows a QR code). */
  protected abstract logoutSession(): Promise<void>;
  /** Removes what the channel holds at the gateway (the channel was deleted). */
  protected abstract removeSession(): Promise<void>;
  /** Stops an unfinished pairing (QR not scanned in time); defaults to logging out. */
  protected stopPairing(): Promise<void> {
    return this.logoutSession();
  }

  abstract sendText(target: OutboundTarget, text: string, opts?: SendOptions): Promise<SendResult>;
  abstract sendMedia(target: OutboundTarget, media: OutboundMedia, opts?: SendOptions): Promise<SendResult>;
  abstract sendReaction(target: OutboundTarget, providerMessageId: string, emoji: string): Promise<SendResult>;

  // ---------- session ----------

  status(): SessionStatus {
    return this.state;
  }

  webhookSecret(): string {
    return str(this.ctx.record.secrets[this.secretKey]);
  }

  /** Where the gateway posts: the per-channel secret rides in the query string. */
  webhookUrl(): string {
    const base = `${this.opts.publicUrl.replace(/\/+$/, '')}/webhooks/${this.type}/${this.ctx.record.id}`;
    return `${base}?secret=${encodeURIComponent(this.webhookSecret())}`;
  }

  async connect(): Promise<void> {
    this.closed = false;
    this.lastQr = null;
    this.stopPolling();
    await this.moveTo('OPENING', { reason: null });
    try {
      if (!this.webhookSecret()) throw new ChannelSendError(`${this.label}: segredo do webhook não configurado`, false);
      await this.apply(await this.startSession(this.webhookUrl()));
    } catch (err) {
      this.stopPolling();
      const reason = err instanceof Error ? err.message : String(err);
      this.logger.warn({ channelId: this.ctx.record.id, type: this.type, reason }, 'gateway session start failed');
      await this.moveTo('DISCONNECTED', { reason });
    }
  }

  async disconnect(): Promise<void> {
    this.stopPolling();
    await this.logoutSession().catch((err: unknown) => this.warn('logout', err));
    await this.moveTo('DISCONNECTED', { reason: null });
  }

  async destroy(): Promise<void> {
    this.closed = true;
    this.stopPolling();
    await this.removeSession();
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    this.stopPolling();
  }

  /**
   * Session news from the gateway's webhook. `current` is the stored state the webhook read:
   * news about a session we ended (logged out, timed out) does not bring it back, except a
   * real connection.
   */
  async onConnection(event: ConnectionEvent, current: SessionStatus = this.state): Promise<void> {
    this.state = current;
    switch (event.kind) {
      case 'qr':
        if (current === 'DISCONNECTED' || current === 'TIMEOUT' || current === 'CONNECTED') return;
        await this.publishQr(event.qr, event.pairingCode ?? null);
        this.startPolling();
        return;
      case 'connected': {
        this.stopPolling();
        let number = event.number ?? null;
        if (!number) {
          const session = await this.readSession().catch(() => null);
          if (session?.connected) number = session.number ?? null;
        }
        await this.moveTo('CONNECTED', { reason: null, ...(number ? { number } : {}) });
        return;
      }
      case 'loggedOut':
        if (current === 'DISCONNECTED' || current === 'TIMEOUT') return;
        this.stopPolling();
        await this.moveTo('DISCONNECTED', { reason: event.reason ?? LOGGED_OUT_REASON });
        return;
      case 'lost':
        if (current !== 'CONNECTED') return;
        await this.moveTo('CONNECTION_LOST', { reason: event.reason ?? null });
        return;
    }
  }

  /** Applies a session read: connected, or a (new) QR code and polling until scanned. */
  protected async apply(session: GatewaySession): Promise<void> {
    if (session.connected) {
      this.stopPolling();
      await this.moveTo('CONNECTED', { reason: null, ...(session.number ? { number: session.number } : {}) });
      return;
    }
    if (session.qr) await this.publishQr(session.qr, session.pairingCode ?? null);
    this.startPolling();
  }

  private async publishQr(qr: string, pairingCode: string | null): Promise<void> {
    if (this.lastQr === qr && this.state === 'qrcode') return;
    this.lastQr = qr;
    await this.moveTo('qrcode', { reason: null, qrcode: qr, pairingCode });
  }

  /**
   * Moves the stored session; a transition the state machine refuses from the stored state
   * (another writer moved it meanwhile) goes through OPENING, which every state may enter.
   */
  protected async moveTo(next: SessionStatus, change: SessionChange = {}): Promise<void> {
    try {
      this.state = await this.ctx.setStatus(next, change);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'ERR_WAPP_SESSION_TRANSITION') throw err;
      await this.ctx.setStatus('OPENING', {}).catch(() => undefined);
      this.state = await this.ctx.setStatus(next, change);
    }
  }

  private startPolling(): void {
    if (this.poll || this.closed) return;
    this.poll = { deadline: Date.now() + (this.opts.qrTimeoutMs ?? GATEWAY_QR_TIMEOUT_MS) };
    this.schedule(this.poll);
  }

  private schedule(poll: NonNullable<GatewayAdapter['poll']>): void {
    poll.timer = setTimeout(() => void this.tick(poll), this.opts.pollIntervalMs ?? GATEWAY_POLL_INTERVAL_MS);
    poll.timer.unref?.();
  }

  private async tick(poll: NonNullable<GatewayAdapter['poll']>): Promise<void> {
    if (this.poll !== poll) return;
    try {
      if (Date.now() >= poll.deadline) {
        this.stopPolling();
        await this.stopPairing().catch((err: unknown) => this.warn('stop pairing', err));
        await this.moveTo('TIMEOUT', { reason: QR_TIMEOUT_REASON });
        return;
      }
      const session = await this.readSession();
      if (this.poll !== poll) return;
      await this.apply(session);
    } catch (err) {
      // The gateway may be restarting: keep polling until the deadline.
      this.warn('session poll', err);
    }
    if (this.poll === poll) this.schedule(poll);
  }

  protected stopPolling(): void {
    if (this.poll?.timer) clearTimeout(this.poll.timer);
    this.poll = undefined;
  }

  /** Whether the adapter is waiting for a QR code to be scanned (tests, diagnostics). */
  isPolling(): boolean {
    return this.poll !== undefined;
  }

  protected warn(what: string, err: unknown): void {
    this.logger.warn(
      { channelId: this.ctx.record.id, type: this.type, reason: err instanceof Error ? err.message : String(err) },
      `gateway ${what} failed`,
    );
  }

  // ---------- what the gateways cannot do ----------

  /** WhatsApp's unofficial clients cannot send reliable buttons: the options go as a numbered list. */
  sendButtons(target: OutboundTarget, body: string, buttons: InteractiveButton[], opts?: SendOptions): Promise<SendResult> {
    if (!body.trim() || buttons.length < 1) {
      throw new AppError('ERR_VALIDATION', { fields: [{ path: buttons.length ? 'body' : 'buttons', message: 'é obrigatório' }] });
    }
    const list = buttons.map((b, i) => `${i + 1}. ${b.title}`).join('\n');
    return this.sendText(target, `${body}\n\n${list}`, opts);
  }

  async sendTemplate(): Promise<SendResult> {
    throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
      message: `Conexões ${this.label} não têm modelos de mensagem (templates); envie um texto.`,
    });
  }

  async editMessage(_target: OutboundTarget, _providerMessageId: string, _text: string): Promise<SendResult> {
    throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
      message: `Conexões ${this.label} não editam mensagens enviadas.`,
    });
  }

  async deleteMessage(_target: OutboundTarget, _providerMessageId: string): Promise<void> {
    throw new AppError('ERR_CHANNEL_OPERATION_UNSUPPORTED', {
      message: `Conexões ${this.label} não apagam mensagens enviadas.`,
    });
  }
}

/** An accepted send without a message id should not happen; retrying could duplicate it, so it is final. */
export function sentResult(label: string, id: string | undefined, timestamp?: number): SendResult {
  if (!id) throw new ChannelSendError(`${label}: envio aceito sem id de mensagem`, false);
  return { providerMessageId: id, timestamp: timestamp ?? Math.floor(Date.now() / 1000) };
}
