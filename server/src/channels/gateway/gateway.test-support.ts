import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { AppError } from '../../core/app-error';
import type { Logger } from '../../core/logger';
import type { AdapterContext, SessionChange } from '../adapter-context';
import { ChannelSendError, type ChannelRecord, type ChannelType, type SessionStatus } from '../channel-adapter';
import { canTransition } from '../session-state';

/** Test support for the gateway adapters (Evolution, Wuzapi, Meow) run alone against their fakes. */

export const silentLogger = {
  warn: () => undefined,
  info: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as Logger;

export interface SessionRecorder {
  ctx: Pick<AdapterContext, 'record' | 'setStatus' | 'logger'>;
  /** Every stored change, in order. */
  changes: ({ next: SessionStatus } & SessionChange)[];
  current(): SessionStatus;
}

/**
 * An adapter context whose setStatus follows the registry's rules (session-state.ts): an
 * allowed transition is stored; staying put is a no-op (except qrcode -> qrcode); anything else
 * throws ERR_WAPP_SESSION_TRANSITION, as the real compare-and-set does.
 */
export function sessionRecorder(
  type: ChannelType,
  fields: { name?: string; providerConfig: Record<string, unknown>; secrets: Record<string, unknown>; status?: SessionStatus },
): SessionRecorder {
  let status: SessionStatus = fields.status ?? 'DISCONNECTED';
  const changes: SessionRecorder['changes'] = [];
  const record: ChannelRecord = {
    id: 42,
    tenantId: 7,
    type,
    name: fields.name ?? 'Loja',
    status,
    number: null,
    providerConfig: fields.providerConfig,
    secrets: fields.secrets,
  };
  return {
    changes,
    current: () => status,
    ctx: {
      record,
      logger: silentLogger,
      setStatus: async (next, change = {}) => {
        if (!canTransition(status, next)) {
          if (status === next) return status;
          throw new AppError('ERR_WAPP_SESSION_TRANSITION', { message: `${status} -> ${next}` });
        }
        status = next;
        changes.push({ next, ...change });
        return status;
      },
    },
  };
}

export async function sendError(p: Promise<unknown>): Promise<ChannelSendError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelSendError);
  return err as ChannelSendError;
}

export async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A file on disk, as the outbound machinery hands stored media to adapters. */
export function tempFile(name: string, bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'gateway-media-'));
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

/** A port nothing listens on (connection refused). */
export const CLOSED_URL = 'http://127.0.0.1:9';
