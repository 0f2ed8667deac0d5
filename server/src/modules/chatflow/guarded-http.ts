import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Outgoing HTTP for the chatbot (webhook GET, media by URL, generative chat): URLs come from
 * tenants, so every call is bounded and guarded.
 *
 * - SSRF: the address the connection actually uses (checked inside the socket's `lookup`, so a
 *   DNS answer cannot change between the check and the connect) must not be loopback, private,
 *   link-local, unique-local, CGNAT or unspecified, unless the host is in the allow-list
 *   (config CHATFLOW_HTTP_ALLOW_HOSTS; tests use it for their local fakes).
 * - A deadline for the whole call, a cap on the answer's size, no redirects followed (a redirect
 *   could point anywhere; it is answered as an error).
 */

export class GuardedHttpError extends Error {
  constructor(
    message: string,
    readonly reason: 'blocked' | 'timeout' | 'tooLarge' | 'status' | 'network' | 'url',
    readonly status?: number,
  ) {
    super(message);
  }
}

const blocked = new BlockList();
blocked.addSubnet('0.0.0.0', 8, 'ipv4');
blocked.addSubnet('10.0.0.0', 8, 'ipv4');
blocked.addSubnet('100.64.0.0', 10, 'ipv4');
blocked.addSubnet('127.0.0.0', 8, 'ipv4');
blocked.addSubnet('169.254.0.0', 16, 'ipv4');
blocked.addSubnet('172.16.0.0', 12, 'ipv4');
blocked.addSubnet('192.168.0.0', 16, 'ipv4');
blocked.addSubnet('224.0.0.0', 4, 'ipv4');
blocked.addSubnet('240.0.0.0', 4, 'ipv4');
blocked.addAddress('::', 'ipv6');
blocked.addAddress('::1', 'ipv6');
blocked.addSubnet('fc00::', 7, 'ipv6');
blocked.addSubnet('fe80::', 10, 'ipv6');
blocked.addSubnet('ff00::', 8, 'ipv6');

/** Whether an IP address is one the guard refuses (IPv4-mapped IPv6 is read as IPv4). */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
}

export interface GuardedRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  /** Lowercase `host` or `host:port` entries allowed even on private addresses. */
  allowHosts: readonly string[];
}

export interface GuardedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export function guardedRequest(req: GuardedRequest): Promise<GuardedResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.reject(new GuardedHttpError(`URL inválida: ${req.url}`, 'url'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new GuardedHttpError(`Protocolo não permitido: ${url.protocol}`, 'url'));
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const allowed = req.allowHosts.includes(host) || req.allowHosts.includes(`${host}:${port}`);
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as LookupAddress[];
      const bad = list.find((a) => isBlockedAddress(a.address));
      if (!allowed && bad) {
        return callback(new GuardedHttpError(`Endereço não permitido (${bad.address}) para ${hostname}`, 'blocked'), '', 0);
      }
      const first = list[0];
      if (!first) return callback(new Error(`no address for ${hostname}`), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, first.address, first.family);
    });
  };
  // A literal IP never goes through lookup: check it here.
  if (isIP(host) && !allowed && isBlockedAddress(host)) {
    return Promise.reject(new GuardedHttpError(`Endereço não permitido (${host})`, 'blocked'));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<GuardedResponse>((resolve, reject) => {
    const request = client.request(
      url,
      { method: req.method ?? 'GET', headers: req.headers, lookup: guardedLookup, timeout: req.timeoutMs },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          res.resume();
          reject(new GuardedHttpError(`Redirecionamento não seguido (HTTP ${status})`, 'status', status));
          return;
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > req.maxBytes) {
          res.destroy();
          reject(new GuardedHttpError(`Resposta grande demais (${declared} bytes)`, 'tooLarge'));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > req.maxBytes) {
            res.destroy();
            reject(new GuardedHttpError(`Resposta grande demais (mais de ${req.maxBytes} bytes)`, 'tooLarge'));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          if (status < 200 || status >= 300) {
            reject(new GuardedHttpError(`HTTP ${status}`, 'status', status));
            return;
          }
          resolve({ status, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) });
        });
        res.on('error', (err) => reject(new GuardedHttpError(err.message, 'network')));
      },
    );
    const deadline = setTimeout(() => {
      request.destroy(new GuardedHttpError(`Tempo esgotado (${req.timeoutMs} ms)`, 'timeout'));
    }, req.timeoutMs);
    request.on('timeout', () => request.destroy(new GuardedHttpError(`Tempo esgotado (${req.timeoutMs} ms)`, 'timeout')));
    request.on('error', (err) => reject(err instanceof GuardedHttpError ? err : new GuardedHttpError(err.message, 'network')));
    request.on('close', () => clearTimeout(deadline));
    if (req.body !== undefined) request.write(req.body);
    request.end();
  });
}
