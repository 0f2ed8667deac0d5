import { z } from 'zod';
import { isValidCpfOrCnpj, normalizeTaxId } from '../validation/cpf-cnpj';
import { emailSchema, passwordPolicySchema } from './auth';
import { recordIdSchema, RECORD_ID_MAX } from './record-id';
import { limitNumber, PLAN_LIMIT_MAX, PLAN_TRIAL_DAYS_MAX } from './plans';

/**
 * The super administrator's tenants (spec sections 3 "Tenant", 4, 5 "Tenant", 6): anchor paths
 * /admin/tenants, /admin/empresa/{tenantId}, /admin/status/tenant/{tenantId}, support access.
 */

export const TENANT_NAME_MAX = 120;
/** How long a support access lasts (issue #17, part 10). */
export const SUPPORT_ACCESS_MINUTES = 30;
export const SUPPORT_REASON_MAX = 500;

const BODY_ERROR = { error: 'O corpo da requisição deve ser um objeto JSON' };

const tenantName = z
  .string({ error: (issue) => (issue.input === undefined ? 'Nome é obrigatório' : 'Nome deve ser um texto') })
  .trim()
  .min(1, { error: 'Nome é obrigatório' })
  .max(TENANT_NAME_MAX, { error: `no máximo ${TENANT_NAME_MAX} caracteres` });

/** CPF/CNPJ, typed with or without punctuation and stored as digits; empty means none. */
const identity = z
  .string({ error: 'CPF/CNPJ deve ser um texto' })
  .trim()
  .max(32, { error: 'CPF/CNPJ inválido' })
  .refine((v) => v === '' || isValidCpfOrCnpj(v), { error: 'CPF/CNPJ inválido' })
  .transform((v) => (v === '' ? null : normalizeTaxId(v)))
  .nullable();

const planId = recordIdSchema(`Plano deve ser um id entre 1 e ${RECORD_ID_MAX}`, 'Plano é obrigatório');
const flag = z.boolean({ error: 'deve ser verdadeiro ou falso' });
const maxUsers = limitNumber('Usuários', 1, PLAN_LIMIT_MAX);
const maxConnections = limitNumber('Conexões', 1, PLAN_LIMIT_MAX);
const trialDays = limitNumber('Dias de teste', 0, PLAN_TRIAL_DAYS_MAX);

const adminName = z
  .string({ error: (issue) => (issue.input === undefined ? 'Nome do administrador é obrigatório' : 'Nome deve ser um texto') })
  .trim()
  .min(1, { error: 'Nome do administrador é obrigatório' })
  .max(120, { error: 'no máximo 120 caracteres' });

/** Overridden limits come as a pair with the override switch on; off means "the plan's". */
const overrideNeedsLimits = (v: { limitsOverride?: boolean; maxUsers?: number; maxConnections?: number }) =>
  v.limitsOverride !== true || (v.maxUsers !== undefined && v.maxConnections !== undefined);
const OVERRIDE_ERROR = { error: 'Informe os limites de usuários e conexões da empresa', path: ['maxUsers'] };

/** POST /admin/tenants body: the tenant and its first administrator. */
export const CreateTenantSchema = z
  .object(
    {
      name: tenantName,
      identity: identity.optional(),
      planId,
      status: z.enum(['active', 'inactive'], { error: 'deve ser active ou inactive' }).default('active'),
      limitsOverride: flag.default(false),
      maxUsers: maxUsers.optional(),
      maxConnections: maxConnections.optional(),
      /** Absent: the plan's trial. */
      trial: flag.optional(),
      trialDays: trialDays.optional(),
      adminName,
      adminEmail: emailSchema.max(254, { error: 'no máximo 254 caracteres' }),
      adminPassword: passwordPolicySchema,
    },
    BODY_ERROR,
  )
  .refine(overrideNeedsLimits, OVERRIDE_ERROR);
export type CreateTenantInput = z.output<typeof CreateTenantSchema>;
export type CreateTenantForm = z.input<typeof CreateTenantSchema>;

/** PUT /admin/empresa/{tenantId} body: any subset. Changing the plan takes its limits unless overridden. */
export const UpdateTenantSchema = z
  .object(
    {
      name: tenantName.optional(),
      identity: identity.optional(),
      planId: planId.optional(),
      limitsOverride: flag.optional(),
      maxUsers: maxUsers.optional(),
      maxConnections: maxConnections.optional(),
      trial: flag.optional(),
      trialDays: trialDays.optional(),
    },
    BODY_ERROR,
  )
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'informe ao menos um campo para alterar' })
  .refine(overrideNeedsLimits, OVERRIDE_ERROR);
export type UpdateTenantInput = z.output<typeof UpdateTenantSchema>;

/** PUT /admin/status/tenant/{tenantId} body. */
export const TenantStatusSchema = z.object(
  { status: z.enum(['active', 'inactive'], { error: 'Status deve ser active ou inactive' }) },
  BODY_ERROR,
);
export type TenantStatusInput = z.output<typeof TenantStatusSchema>;

/** DELETE /admin/tenants/{tenantId} query: force=true disconnects its connected channels first. */
export const DeleteTenantQuerySchema = z.object({
  force: z
    .enum(['true', 'false', '1', '0'], { error: 'force deve ser true ou false' })
    .optional()
    .transform((v) => v === 'true' || v === '1'),
});

/** POST /admin/tenants/{tenantId}/support body. */
export const StartSupportSchema = z.object(
  {
    reason: z
      .string({ error: (issue) => (issue.input === undefined ? 'Motivo é obrigatório' : 'Motivo deve ser um texto') })
      .trim()
      .min(3, { error: 'Motivo é obrigatório (no mínimo 3 caracteres)' })
      .max(SUPPORT_REASON_MAX, { error: `no máximo ${SUPPORT_REASON_MAX} caracteres` }),
  },
  BODY_ERROR,
);
export type StartSupportInput = z.output<typeof StartSupportSchema>;

/** GET /admin/users query (users of every tenant). */
export const AdminUserListQuerySchema = z.object({
  tenantId: recordIdSchema().optional(),
  searchParam: z.string({ error: 'deve ser um texto' }).trim().max(200, { error: 'no máximo 200 caracteres' }).optional(),
  pageNumber: z.coerce.number({ error: 'deve ser um número' }).int().min(1, { error: 'deve ser no mínimo 1' }).max(100_000).default(1),
});
export type AdminUserListQuery = z.output<typeof AdminUserListQuerySchema>;

export type TenantDeletionStatus = 'queued' | 'running' | 'done' | 'failed';

export interface TenantDeletionDto {
  id: number;
  tenantId: number;
  tenantName: string;
  status: TenantDeletionStatus;
  /** 0 to 100. */
  progress: number;
  /** What it is doing (table name, "files"); null when done. */
  step: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface AdminTenantDto {
  id: number;
  name: string;
  status: 'active' | 'inactive';
  identity: string | null;
  planId: number | null;
  planName: string | null;
  /** The tenant's limits: its plan's unless limitsOverride. */
  maxUsers: number;
  maxConnections: number;
  limitsOverride: boolean;
  trial: boolean;
  trialDays: number;
  /** createdAt + trialDays when the trial is on; null otherwise. */
  trialEndsAt: string | null;
  userCount: number;
  connectionCount: number;
  createdAt: string;
  /** A deletion under way (or failed), shown with its progress. */
  deletion: TenantDeletionDto | null;
}

export interface SupportSessionDto {
  id: number;
  tenantId: number;
  tenantName: string;
  superadminId: number | null;
  superadminName: string;
  actingUserId: number | null;
  reason: string;
  startedAt: string;
  expiresAt: string;
  endedAt: string | null;
  endReason: string | null;
}

/** POST /admin/tenants/{tenantId}/support answer: a login of the tenant's admin, marked as support. */
export interface SupportAccessResponse {
  token: string;
  username: string;
  profile: 'admin';
  userId: number;
  tenantId: number;
  email: string;
  queues: number[];
  blockWavoip: boolean;
  whatsappAllowed: number[];
  configs: { filtrosAtendimento: unknown; isDark: boolean };
  support: SupportSessionDto;
}

export interface AdminUserDto {
  id: number;
  name: string;
  email: string;
  profile: string;
  tenantId: number;
  tenantName: string;
  /** Tenants the user is linked to (user_tenants), own tenant included. */
  linkedTenants: { linkId: number; tenantId: number; tenantName: string }[];
}

export interface AdminUserListResponse {
  users: AdminUserDto[];
  count: number;
  hasMore: boolean;
}
