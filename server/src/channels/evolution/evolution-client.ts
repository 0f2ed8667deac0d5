import { ChannelSendError } from '../channel-adapter';
import { GatewayHttpClient } from '../gateway/gateway-http';

/**
 * A client of the Evolution API v2 (a self-hosted WhatsApp gateway built on Baileys), the calls
 * the evo adapter makes. Every call carries the global API key in the `apikey` header; the
 * instance name is the channel's name (spaces and special characters stripped on create).
 *
 *   GET    /                                      {status, message, version}
 *   POST   /instance/create                       {instanceName, integration, qrcode} -> {instance, hash, qrcode?}
 *   GET    /instance/connect/{instance}?number=   {pairingCode, code, base64, count} | {instance: {state}}
 *   GET    /instance/connectionState/{instance}   {instance: {instanceName, state: open|connecting|close}}
 *   GET    /instance/fetchInstances?instanceName= [{name, connectionStatus, ownerJid, profileName}]
 *   DELETE /instance/logout/{instance}, /instance/delete/{instance}
 *   POST   /webhook/set/{instance}                {webhook: {enabled, url, byEvents, base64, events}}
 *   POST   /message/sendText|sendMedia|sendWhatsAppAudio|sendReaction/{instance} -> {key: {id, remoteJid, fromMe}, messageTimestamp}
 *   POST   /chat/updateMessage/{instance}, DELETE /chat/deleteMessageForEveryone/{instance}
 *   POST   /chat/getBase64FromMediaMessage/{instance} {message: {key: {id}}} -> {base64, mimetype, fileName}
 */

/** Spec sections 5 and 9: the Evolution API version must be 2.20.0 or later. */
export const EVOLUTION_MIN_VERSION = '2.20.0';

/** The events our webhook handles (byEvents off: one URL for all). */
export const EVOLUTION_WEBHOOK_EVENTS = ['QRCODE_UPDATED', 'CONNECTION_UPDATE', 'MESSAGES_UPSERT', 'MESSAGES_UPDATE', 'LOGOUT_INSTANCE', 'REMOVE_INSTANCE'];

/** Numeric parts of a version ('v2.20.1-beta' -> [2, 20, 1]); null when there are none. */
export function parseVersion(version: unknown): number[] | null {
  if (typeof version !== 'string') return null;
  const match = /(\d+(?:\.\d+)*)/.exec(version);
  return match ? match[1].split('.').map(Number) : null;
}

/** Compares versions numerically, part by part (2.3.0 < 2.20.0; 2.20 = 2.20.0). */
export function compareVersions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** The refusal of an older (or unknown) Evolution API; null when the version is accepted. */
export function evolutionVersionProblem(version: unknown): string | null {
  const parts = parseVersion(version);
  if (!parts) return `Não foi possível ler a versão da Evolution API; é necessária a ${EVOLUTION_MIN_VERSION} ou superior.`;
  if (compareVersions(parts, parseVersion(EVOLUTION_MIN_VERSION)!) < 0) {
    return `A versão da Evolution API deve ser ${EVOLUTION_MIN_VERSION} ou superior (encontrada: ${String(version)}).`;
  }
  return null;
}

export interface EvolutionQr {
  pairingCode?: string | null;
  code?: string;
  base64?: string;
  count?: number;
}

export type EvolutionState = 'open' | 'connecting' | 'close';

export interface EvolutionKey {
  id?: string;
  remoteJid?: string;
  fromMe?: boolean;
  participant?: string;
}

export interface EvolutionSent {
  key?: EvolutionKey;
  messageTimestamp?: number | string;
  status?: string;
}

export class EvolutionClient {
  readonly http: GatewayHttpClient;

  constructor(opts: { baseUrl: string; apiKey: string; timeoutMs: number }) {
    this.http = new GatewayHttpClient({
      baseUrl: opts.baseUrl,
      headers: { apikey: opts.apiKey },
      timeoutMs: opts.timeoutMs,
      label: 'Evolution API',
    });
  }

  async version(): Promise<unknown> {
    const info = await this.http.request<{ version?: unknown }>('GET', '/');
    return info?.version;
  }

  /** The instance's state, or null when the instance does not exist (404). */
  async connectionState(instance: string): Promise<EvolutionState | null> {
    try {
      const answer = await this.http.request<{ instance?: { state?: EvolutionState }; state?: EvolutionState }>(
        'GET',
        `/instance/connectionState/${encodeURIComponent(instance)}`,
      );
      return answer?.instance?.state ?? answer?.state ?? 'close';
    } catch (err) {
      if (err instanceof ChannelSendError && err.providerStatus === 404) return null;
      throw err;
    }
  }

  create(instance: string, options: Record<string, unknown> = {}): Promise<{ qrcode?: EvolutionQr }> {
    return this.http.request('POST', '/instance/create', {
      ...options,
      instanceName: instance,
      integration: 'WHATSAPP-BAILEYS',
      qrcode: true,
    });
  }

  connect(instance: string, number?: string): Promise<EvolutionQr & { instance?: { state?: EvolutionState } }> {
    return this.http.request('GET', `/instance/connect/${encodeURIComponent(instance)}`, undefined, { number });
  }

  /** The paired phone's JID (ownerJid in 2.2+, owner before). */
  async ownerJid(instance: string): Promise<string | null> {
    const list = await this.http.request<unknown>('GET', '/instance/fetchInstances', undefined, { instanceName: instance });
    const items = Array.isArray(list) ? list : [list];
    for (const item of items as Record<string, any>[]) {
      const name = item?.name ?? item?.instanceName ?? item?.instance?.instanceName;
      if (name !== undefined && name !== instance) continue;
      const jid = item?.ownerJid ?? item?.owner ?? item?.instance?.owner;
      if (typeof jid === 'string' && jid) return jid;
    }
    return null;
  }

  setWebhook(instance: string, url: string): Promise<unknown> {
    return this.http.request('POST', `/webhook/set/${encodeURIComponent(instance)}`, {
      // Media goes by reference (getBase64FromMediaMessage): webhook bodies stay small.
      webhook: { enabled: true, url, byEvents: false, base64: false, events: EVOLUTION_WEBHOOK_EVENTS },
    });
  }

  logout(instance: string): Promise<unknown> {
    return this.http.request('DELETE', `/instance/logout/${encodeURIComponent(instance)}`);
  }

  delete(instance: string): Promise<unknown> {
    return this.http.request('DELETE', `/instance/delete/${encodeURIComponent(instance)}`);
  }

  send(instance: string, what: 'sendText' | 'sendMedia' | 'sendWhatsAppAudio' | 'sendReaction', body: unknown): Promise<EvolutionSent> {
    return this.http.request('POST', `/message/${what}/${encodeURIComponent(instance)}`, body);
  }

  updateMessage(instance: string, body: unknown): Promise<EvolutionSent> {
    return this.http.request('POST', `/chat/updateMessage/${encodeURIComponent(instance)}`, body);
  }

  deleteForEveryone(instance: string, key: EvolutionKey): Promise<unknown> {
    return this.http.request('DELETE', `/chat/deleteMessageForEveryone/${encodeURIComponent(instance)}`, key);
  }

  mediaOf(instance: string, messageId: string): Promise<{ base64?: string; mimetype?: string; fileName?: string }> {
    return this.http.request('POST', `/chat/getBase64FromMediaMessage/${encodeURIComponent(instance)}`, {
      message: { key: { id: messageId } },
      convertToMp4: false,
    });
  }
}
