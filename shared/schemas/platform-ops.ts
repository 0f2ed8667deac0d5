import { z } from 'zod';
import { recordIdSchema } from './record-id';

/**
 * The super administrator's platform operations (issue #17): job queues (/tenantsQueue),
 * internal data (/tenantsPk), update (/atualizar), terminal (/terminal). One schema per body,
 * used by the server's validate() and by the screens' forms.
 */

/** The terminal's fixed command list: each is implemented in Node, never a shell (spec section 6). */
export const TERMINAL_COMMANDS = ['uptime', 'disk', 'memory', 'db-status', 'redis-ping', 'queues', 'version'] as const;
export type TerminalCommand = (typeof TERMINAL_COMMANDS)[number];

export const RunTerminalCommandSchema = z.object({
  command: z.enum(TERMINAL_COMMANDS, { error: `comando não permitido; use um de: ${TERMINAL_COMMANDS.join(', ')}` }),
});
export type RunTerminalCommandInput = z.infer<typeof RunTerminalCommandSchema>;

export const CLEANABLE_JOB_STATES = ['completed', 'failed'] as const;
export const CleanJobQueueSchema = z.object({
  state: z.enum(CLEANABLE_JOB_STATES, { error: 'informe completed ou failed' }),
});
export type CleanJobQueueInput = z.infer<typeof CleanJobQueueSchema>;

/** Multipart fields of POST /platform/updates: the package and its detached Ed25519 signature. */
export const UPDATE_FILE_FIELD = 'file';
export const UPDATE_SIGNATURE_FIELD = 'signature';
export const UPDATE_MAX_BYTES = 100 * 1024 * 1024;
/** An Ed25519 signature: 64 bytes, sent raw or as base64 text. */
export const UPDATE_SIGNATURE_MAX_BYTES = 1024;

export interface JobQueueSummary {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

export interface JobQueueBoardView {
  driver: 'bull' | 'memory';
  queues: JobQueueSummary[];
  /** Restarts still allowed before the backend is restarted (QUEUE_RESTART_MAX per run). */
  restartsLeft: number;
  generatedAt: string;
}

export interface FailedJobView {
  id: string;
  reason: string;
  attempts: number;
  failedAt: string | null;
}

export interface InternalDataView {
  app: { name: string; version: string };
  runtime: { node: string; platform: string; arch: string; uptimeSeconds: number; pid: number };
  memory: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number; systemTotalBytes: number; systemFreeBytes: number };
  database: { kind: 'PGlite' | 'PostgreSQL'; version: string };
  redis: { enabled: boolean };
  queueDriver: 'bull' | 'memory';
  updatePublicKey: { configured: boolean; fingerprint: string | null };
  dependencies: { name: string; declared: string; installed: string | null }[];
  /** Allow-listed variables: a secret one shows only whether it is set, never its value. */
  environment: { name: string; set: boolean; secret: boolean; value: string | null }[];
}

export type UpdateStepName = 'file' | 'signature' | 'stage' | 'migrations' | 'clean';

export interface UpdateStepView {
  step: UpdateStepName;
  status: 'ok' | 'failed';
  detail: string;
  durationMs: number;
}

export interface PlatformUpdateView {
  id: number;
  fileName: string;
  size: number;
  sha256: string;
  status: 'refused' | 'applied' | 'failed';
  stagedPath: string | null;
  steps: UpdateStepView[];
  userName: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface TerminalResultView {
  command: TerminalCommand;
  outcome: 'ok' | 'error';
  output: string;
  at: string;
}

export interface TerminalAuditRow {
  id: number;
  userName: string;
  tenantId: number | null;
  command: string;
  outcome: 'ok' | 'error' | 'refused';
  createdAt: string;
}

// Tenant API tokens (/tenantApi, spec section 3 "Tenant API: id, API token").

export const TENANT_API_TOKEN_NAME_MAX = 100;

export const CreateTenantApiTokenSchema = z.object({
  tenantId: recordIdSchema('informe a empresa'),
  name: z
    .string({ error: 'é obrigatório' })
    .trim()
    .min(1, { error: 'é obrigatório' })
    .max(TENANT_API_TOKEN_NAME_MAX, { error: `no máximo ${TENANT_API_TOKEN_NAME_MAX} caracteres` }),
});
export type CreateTenantApiTokenInput = z.infer<typeof CreateTenantApiTokenSchema>;

export interface TenantApiTokenView {
  id: number;
  tenantId: number;
  tenantName: string;
  name: string;
  /** The first characters of the token, to tell tokens apart; the token itself is never shown again. */
  tokenPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export interface CreatedTenantApiTokenView extends TenantApiTokenView {
  /** The token, answered once, at creation. */
  token: string;
}

export interface TenantOptionView {
  id: number;
  name: string;
}
