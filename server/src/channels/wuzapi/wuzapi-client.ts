import { ChannelSendError } from '../channel-adapter';
import { GatewayHttpClient } from '../gateway/gateway-http';

/**
 * A client of Wuzapi (a self-hosted WhatsApp gateway built on whatsmeow; one user, i.e. one
 * WhatsApp session, per token). Every call carries the user's token in the `Token` header;
 * answers are `{code, data, success}` and failures `{code, error, success: false}`.
 *
 *   POST   /session/connect     {Subscribe: ['All'], Immediate: true}
 *   GET    /session/status      {data: {Connected, LoggedIn, jid?}} (newer: connected, loggedIn)
 *   GET    /session/qr          {data: {QRCode: 'data:image/png;base64,...'}}
 *   POST   /session/logout, /session/disconnect
 *   POST   /webhook             {webhookURL, events}; DELETE /webhook
 *   POST   /chat/send/text      {Phone, Body, ContextInfo?: {StanzaId, Participant}} -> {data: {Id, Timestamp}}
 *   POST   /chat/send/image|video|audio|document {Phone, Image|Video|Audio|Document: data URL, Caption?, FileName?}
 *   POST   /chat/react          {Phone, Body: emoji, Id}
 *   POST   /chat/downloadimage|downloadvideo|downloadaudio|downloaddocument {Url, DirectPath, MediaKey, Mimetype, FileEncSHA256, FileSHA256, FileLength} -> {data: {Data, Mimetype}}
 */

export interface WuzapiAnswer<T> {
  code?: number;
  data?: T;
  success?: boolean;
  error?: string;
}

export interface WuzapiStatus {
  connected: boolean;
  loggedIn: boolean;
  jid: string | null;
}

export interface WuzapiSent {
  Id?: string;
  Timestamp?: number | string;
  Details?: string;
}

export class WuzapiClient {
  readonly http: GatewayHttpClient;

  constructor(opts: { baseUrl: string; token: string; timeoutMs: number }) {
    this.http = new GatewayHttpClient({ baseUrl: opts.baseUrl, headers: { Token: opts.token }, timeoutMs: opts.timeoutMs, label: 'Wuzapi' });
  }

  async call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const answer = await this.http.request<WuzapiAnswer<T>>(method, path, body);
    if (answer && answer.success === false) throw new ChannelSendError(`Wuzapi: ${answer.error ?? 'falha'}`, false, answer.code);
    return (answer?.data ?? {}) as T;
  }

  /** Starts the WhatsApp connection; one already running is fine. */
  async connect(): Promise<void> {
    try {
      await this.call('POST', '/session/connect', { Subscribe: ['All'], Immediate: true });
    } catch (err) {
      if (err instanceof ChannelSendError && /already connected/i.test(err.message)) return;
      throw err;
    }
  }

  async status(): Promise<WuzapiStatus> {
    const data = await this.call<Record<string, unknown>>('GET', '/session/status');
    const flag = (a: string, b: string) => data[a] === true || data[b] === true;
    const jid = typeof data.jid === 'string' ? data.jid : typeof data.Jid === 'string' ? data.Jid : null;
    return { connected: flag('Connected', 'connected'), loggedIn: flag('LoggedIn', 'loggedIn'), jid: jid || null };
  }

  async qr(): Promise<string | null> {
    const data = await this.call<{ QRCode?: string; qrcode?: string }>('GET', '/session/qr');
    return data.QRCode || data.qrcode || null;
  }

  async setWebhook(url: string): Promise<void> {
    await this.call('POST', '/webhook', { webhookURL: url, events: ['All'] });
  }

  async removeWebhook(): Promise<void> {
    await this.call('DELETE', '/webhook');
  }

  async logout(): Promise<void> {
    await this.call('POST', '/session/logout');
  }

  async disconnect(): Promise<void> {
    await this.call('POST', '/session/disconnect');
  }

  send(path: string, body: unknown): Promise<WuzapiSent> {
    return this.call<WuzapiSent>('POST', path, body);
  }

  download(kind: 'image' | 'video' | 'audio' | 'document', body: unknown): Promise<{ Data?: string; Mimetype?: string }> {
    return this.call('POST', `/chat/download${kind}`, body);
  }
}
