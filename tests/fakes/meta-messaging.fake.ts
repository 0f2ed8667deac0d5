import { createHmac, randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, postJson, sendBytes, sendJson, type RecordedFile, type RecordedRequest } from './fake-http-server';

/**
 * A local stand-in for the Graph API as the Messenger Platform uses it (Messenger and Instagram
 * messaging through a Facebook page), written for the tests from Meta's public documentation:
 * real HTTP on 127.0.0.1, every request recorded, failures on demand (FakeHttpServer), media on
 * a fake CDN, and signed webhooks posted to our server as Meta would.
 *
 *   GET  /{v}/{page-id}?fields=id,name              -> {id, name}
 *   GET  /{v}/{ig-user-id}?fields=id,username,name  -> {id, username, name}
 *   GET  /{v}/{psid|igsid}?fields=...               -> the person's profile, or 400 code 100
 *   POST /{v}/{page-id}/subscribed_apps              -> {success: true} (subscribed_fields recorded)
 *   POST /{v}/{page-id}/message_attachments (multipart: message, filedata[, platform]) -> {attachment_id}
 *   POST /{v}/{page-id}/messages (JSON)              -> {recipient_id, message_id}
 *        {recipient:{id}, messaging_type, message:{text|attachment:{type,payload:{attachment_id}}, quick_replies?, reply_to?}}
 *        or {recipient:{id}, sender_action:'react'|'unreact', payload:{message_id, reaction?}}
 *   GET  /cdn/{name}                                 -> attachment bytes (no token: Meta's CDN is public)
 * Every Graph call needs `Authorization: Bearer <token>` with the page token, else 401 with
 * Graph's OAuthException (code 190).
 */

export interface MetaProfile {
  first_name?: string;
  last_name?: string;
  name?: string;
  username?: string;
  profile_pic?: string;
}

export function graphError(
  message: string,
  code: number,
  extra: Record<string, unknown> = {},
): { error: Record<string, unknown> } {
  return {
    error: { message, type: code === 190 ? 'OAuthException' : 'GraphMethodException', code, fbtrace_id: 'Afake', ...extra },
  };
}

export class FakeMetaMessaging extends FakeHttpServer {
  token: string;
  readonly pageId: string;
  readonly instagramId: string;
  pageName = 'Loja Exemplo';
  instagramUsername = 'loja.exemplo';
  readonly profiles = new Map<string, MetaProfile>();
  private readonly attachments = new Map<string, { name: string; type: string; size: number; platform: string }>();
  private readonly cdn = new Map<string, { bytes: Buffer; mimeType: string }>();
  private sentCount = 0;

  constructor(opts: { token?: string } = {}) {
    super();
    this.token = opts.token ?? `EAAP${randomBytes(16).toString('hex')}`;
    this.pageId = String(100_000_000_000_000 + Math.floor(Math.random() * 1e12));
    this.instagramId = String(17_841_400_000_000_000 + Math.floor(Math.random() * 1e9));
  }

  /** A file served by the fake CDN; answers its URL (as an attachment's payload.url). */
  addCdnFile(bytes: Buffer, mimeType: string, name = `${randomBytes(6).toString('hex')}.jpg`): string {
    this.cdn.set(name, { bytes, mimeType });
    return `${this.url}/cdn/${name}?_nc_cat=1&oh=${randomBytes(4).toString('hex')}`;
  }

  /** Accepted or refused POST /{page-id}/messages bodies, in order. */
  messageCalls(): RecordedRequest[] {
    return this.requestsTo(`/v21.0/${this.pageId}/messages`, 'POST');
  }

  /** Bodies of the sends to one person. */
  sentTo(recipientId: string): any[] {
    return this.messageCalls()
      .map((r) => r.json)
      .filter((j) => j?.recipient?.id === recipientId);
  }

  uploads(): RecordedRequest[] {
    return this.requestsTo(`/v21.0/${this.pageId}/message_attachments`, 'POST');
  }

  protected override failureBody(status: number): unknown {
    return status >= 500
      ? graphError('An unexpected error has occurred. Please retry your request later.', 2, { is_transient: true })
      : graphError('(#100) Invalid parameter', 100);
  }

  protected route(req: RecordedRequest, res: ServerResponse): void {
    const cdn = /^\/cdn\/([^/]+)$/.exec(req.path);
    if (cdn && req.method === 'GET') {
      const file = this.cdn.get(decodeURIComponent(cdn[1]));
      if (!file) return sendJson(res, 404, { error: 'URL signature expired' });
      return sendBytes(res, file.bytes, file.mimeType);
    }
    const m = /^\/(v\d+\.\d+)\/([^/]+)(?:\/([a-z_]+))?$/.exec(req.path);
    if (!m) return sendJson(res, 404, graphError('Unknown path components', 2500));
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      return sendJson(res, 401, graphError('Invalid OAuth access token - Cannot parse access token', 190));
    }
    const [, , id, edge] = m;
    if (!edge && req.method === 'GET') {
      if (id === this.pageId) return sendJson(res, 200, { id, name: this.pageName });
      if (id === this.instagramId) return sendJson(res, 200, { id, username: this.instagramUsername, name: 'Loja Exemplo IG' });
      const profile = this.profiles.get(id);
      if (profile) return sendJson(res, 200, { id, ...profile });
      return sendJson(
        res,
        400,
        graphError(`Unsupported get request. Object with ID '${id}' does not exist`, 100, { error_subcode: 33 }),
      );
    }
    if (id !== this.pageId) return sendJson(res, 400, graphError('(#100) Page ID is not valid', 100));
    if (edge === 'subscribed_apps' && req.method === 'POST') {
      if (!req.query.get('subscribed_fields')) return sendJson(res, 400, graphError('(#100) subscribed_fields is required', 100));
      return sendJson(res, 200, { success: true });
    }
    if (edge === 'message_attachments' && req.method === 'POST') {
      const file = req.form?.filedata as RecordedFile | undefined;
      let message: any;
      try {
        message = JSON.parse(String(req.form?.message ?? ''));
      } catch {
        message = undefined;
      }
      if (!file || typeof file === 'string' || !message?.attachment?.type) {
        return sendJson(res, 400, graphError('(#100) Upload attachment failure.', 100));
      }
      const attachmentId = String(1_000_000_000 + this.attachments.size);
      this.attachments.set(attachmentId, {
        name: file.name,
        type: message.attachment.type,
        size: file.size,
        platform: String(req.form?.platform ?? 'messenger'),
      });
      return sendJson(res, 200, { attachment_id: attachmentId });
    }
    if (edge === 'messages' && req.method === 'POST') {
      const body = req.json;
      const recipient = body?.recipient?.id;
      if (!recipient) return sendJson(res, 400, graphError('(#100) param recipient must be non-empty.', 100));
      if (body.sender_action) {
        if (!['react', 'unreact', 'typing_on', 'typing_off', 'mark_seen'].includes(body.sender_action))
          return sendJson(res, 400, graphError('(#100) Invalid sender_action', 100));
        if ((body.sender_action === 'react' || body.sender_action === 'unreact') && !body.payload?.message_id)
          return sendJson(res, 400, graphError('(#100) payload.message_id is required', 100));
        return sendJson(res, 200, { recipient_id: recipient });
      }
      const message = body.message;
      if (!message || (!message.text && !message.attachment))
        return sendJson(res, 400, graphError('(#100) Must send either message or state', 100));
      const attachmentId = message.attachment?.payload?.attachment_id;
      if (message.attachment && !message.attachment.payload?.url && !this.attachments.has(String(attachmentId)))
        return sendJson(res, 400, graphError('(#100) Invalid attachment_id', 100));
      return sendJson(res, 200, {
        recipient_id: recipient,
        message_id: `m_${randomBytes(12).toString('base64url')}_${++this.sentCount}`,
      });
    }
    return sendJson(res, 400, graphError(`Unsupported ${req.method} request`, 100));
  }

  /** What the fake knows of an uploaded attachment. */
  attachment(id: string): { name: string; type: string; size: number; platform: string } | undefined {
    return this.attachments.get(id);
  }
}

// ---------- Webhooks, as Meta posts them ----------

export const newPsid = (): string => String(7_000_000_000_000_000 + Math.floor(Math.random() * 1e15));
export const newMid = (): string => `m_${randomBytes(18).toString('base64url')}`;

/** An envelope: Messenger `object: 'page'` (entry id = page id), Instagram `object: 'instagram'` (entry id = IG account id). */
export function metaPayload(type: 'instagram' | 'messenger', accountId: string, events: unknown[]): unknown {
  return {
    object: type === 'instagram' ? 'instagram' : 'page',
    entry: [{ id: accountId, time: Date.now(), messaging: events }],
  };
}

export function messageEvent(
  sender: string,
  recipient: string,
  message: Record<string, unknown>,
  timestamp = Date.now(),
): Record<string, unknown> {
  return { sender: { id: sender }, recipient: { id: recipient }, timestamp, message: { mid: newMid(), ...message } };
}

export function textEvent(sender: string, recipient: string, text: string, mid = newMid()): Record<string, unknown> {
  return messageEvent(sender, recipient, { mid, text });
}

export function attachmentEvent(
  sender: string,
  recipient: string,
  attachments: { type: string; url?: string; sticker_id?: number; title?: string }[],
  mid = newMid(),
): Record<string, unknown> {
  return messageEvent(sender, recipient, {
    mid,
    attachments: attachments.map((a) => ({
      type: a.type,
      ...(a.title ? { title: a.title } : {}),
      payload: { ...(a.url ? { url: a.url } : {}), ...(a.sticker_id ? { sticker_id: a.sticker_id } : {}) },
    })),
  });
}

export function deliveryEvent(
  sender: string,
  recipient: string,
  mids: string[],
  watermark = Date.now(),
): Record<string, unknown> {
  return { sender: { id: sender }, recipient: { id: recipient }, timestamp: Date.now(), delivery: { mids, watermark } };
}

/** Messenger: a watermark; Instagram: the seen message id. */
export function readEvent(
  sender: string,
  recipient: string,
  read: { watermark?: number; mid?: string },
): Record<string, unknown> {
  return { sender: { id: sender }, recipient: { id: recipient }, timestamp: Date.now(), read };
}

export function reactionEvent(
  sender: string,
  recipient: string,
  mid: string,
  action: 'react' | 'unreact' = 'react',
  emoji = '❤️',
): Record<string, unknown> {
  return {
    sender: { id: sender },
    recipient: { id: recipient },
    timestamp: Date.now(),
    reaction: { mid, action, ...(action === 'react' ? { reaction: 'love', emoji } : {}) },
  };
}

export function signMetaWebhook(body: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/**
 * POSTs a webhook to our server signed with `appSecret` as Meta does (X-Hub-Signature-256 over
 * the exact body bytes); null sends it unsigned, `{signature}` sends that header as is.
 */
export async function deliverMetaWebhook(
  url: string,
  payload: unknown,
  appSecret: string | null | { signature: string },
): Promise<{ status: number; body: any }> {
  const raw = JSON.stringify(payload);
  const headers: Record<string, string> = {};
  if (typeof appSecret === 'string') headers['x-hub-signature-256'] = signMetaWebhook(raw, appSecret);
  else if (appSecret) headers['x-hub-signature-256'] = appSecret.signature;
  return postJson(url, raw, headers);
}
