import type { EntityManager } from 'typeorm';
import type {
  AdminTenantDto,
  CreateTenantInput,
  TenantDeletionDto,
  TenantStatusInput,
  UpdateTenantInput,
} from '@shared/schemas/admin-tenants';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { hashPassword } from '../../core/passwords';
import { uniqueViolationOf } from '../../db/pg-errors';
import type { AppDeps } from '../../deps';
import { provisionTenant } from '../tenants/tenant-provisioning';
import { tenantAdminPolicy } from './admin-tenants.policy';
import { presentDeletion, presentTenant, type AdminTenantRow, type TenantDeletionRow } from './admin-tenants.presenter';
import { LIVE_CHANNEL_STATUSES, TENANT_DELETE_JOB } from './tenant-deletion';

const TENANT_SELECT = `
  SELECT t.id, t.name, t.status, t.identity, t."planId", p.name AS "planName", t."maxUsers", t."maxConnections",
         t."limitsOverride", t.trial, t."trialDays", t."createdAt",
         (SELECT count(*)::int FROM users u WHERE u."tenantId" = t.id) AS "userCount",
         (SELECT count(*)::int FROM channels c WHERE c."tenantId" = t.id) AS "connectionCount"
    FROM tenants t LEFT JOIN plans p ON p.id = t."planId"`;

const DELETION_SELECT = `SELECT id, "tenantId", "tenantName", status, progress, step, error, "createdAt", "finishedAt" FROM tenant_deletions`;

/**
 * The platform super administrator's tenants (spec sections 3, 4, 5, 6; anchor paths
 * /admin/tenants, /admin/empresa/:tenantId, /admin/status/tenant/:tenantId). Creation goes
 * through provisionTenant, the same as sign-up. Limits follow the plan unless overridden.
 */
export class AdminTenantsService {
  constructor(private readonly deps: AppDeps) {}

  async list(auth: AuthContext): Promise<AdminTenantDto[]> {
    tenantAdminPolicy.manage(auth);
    const rows: AdminTenantRow[] = await this.deps.dataSource.query(`${TENANT_SELECT} ORDER BY t.id`);
    const deletions = await this.latestDeletions();
    return rows.map((row) => presentTenant(row, deletions.get(row.id)));
  }

  async get(auth: AuthContext, tenantId: number): Promise<AdminTenantDto> {
    tenantAdminPolicy.manage(auth);
    return this.load(tenantId);
  }

  async create(auth: AuthContext, input: CreateTenantInput): Promise<AdminTenantDto> {
    tenantAdminPolicy.manage(auth);
    const passwordHash = await hashPassword(input.adminPassword);
    try {
      const { tenantId } = await this.deps.dataSource.transaction((tx) =>
        provisionTenant(tx, {
          name: input.name,
          planId: input.planId,
          identity: input.identity ?? null,
          status: input.status,
          ...(input.limitsOverride ? { maxUsers: input.maxUsers, maxConnections: input.maxConnections } : {}),
          trial: input.trial,
          trialDays: input.trialDays,
          admin: { name: input.adminName, email: input.adminEmail, passwordHash },
        }).then(async (created) => {
          if (input.limitsOverride) await tx.query(`UPDATE tenants SET "limitsOverride" = true WHERE id = $1`, [created.tenantId]);
          return created;
        }),
      );
      return this.load(tenantId);
    } catch (err) {
      if (uniqueViolationOf(err) === 'users_email_lower_uq') throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
      throw err;
    }
  }

  /**
   * PUT /admin/empresa/:tenantId. A new plan brings its limits (and, when the trial is not given,
   * its trial) unless the limits are overridden; turning the override off restores the plan's.
   */
  async update(auth: AuthContext, tenantId: number, input: UpdateTenantInput): Promise<AdminTenantDto> {
    tenantAdminPolicy.manage(auth);
    await this.deps.dataSource.transaction(async (tx) => {
      const current = await lockTenant(tx, tenantId);
      const planId = input.planId ?? current.planId;
      const plan = planId === null ? undefined : await loadPlan(tx, planId);
      const limitsOverride = input.limitsOverride ?? current.limitsOverride;
      let maxUsers = input.maxUsers ?? current.maxUsers;
      let maxConnections = input.maxConnections ?? current.maxConnections;
      if (!limitsOverride && plan) {
        maxUsers = plan.maxUsers;
        maxConnections = plan.maxConnections;
      }
      const planChanged = input.planId !== undefined && input.planId !== current.planId;
      const trial = input.trial ?? (planChanged && plan ? plan.trial : current.trial);
      const trialDays = input.trialDays ?? (planChanged && plan ? plan.trialDays : current.trialDays);
      await tx.query(
        `UPDATE tenants SET name = $2, identity = $3, "planId" = $4, "limitsOverride" = $5, "maxUsers" = $6,
                "maxConnections" = $7, trial = $8, "trialDays" = $9, "updatedAt" = now() WHERE id = $1`,
        [
          tenantId,
          input.name ?? current.name,
          input.identity !== undefined ? input.identity : current.identity,
          planId,
          limitsOverride,
          maxUsers,
          maxConnections,
          trial,
          trialDays,
        ],
      );
    });
    return this.load(tenantId);
  }

  /**
   * PUT /admin/status/tenant/:tenantId. Deactivating logs the tenant's users out at once: every
   * request is refused by require-auth (ERR_TENANT_INACTIVE) and their live sockets are told so
   * and cut here.
   */
  async setStatus(auth: AuthContext, tenantId: number, input: TenantStatusInput): Promise<AdminTenantDto> {
    tenantAdminPolicy.manage(auth);
    if (input.status === 'inactive') tenantAdminPolicy.assertNotPlatform(tenantId);
    await this.deps.dataSource.transaction(async (tx) => {
      await lockTenant(tx, tenantId);
      await tx.query(`UPDATE tenants SET status = $2, "updatedAt" = now() WHERE id = $1`, [tenantId, input.status]);
    });
    if (input.status === 'inactive') this.deps.sessions.endTenantSessions(tenantId);
    return this.load(tenantId);
  }

  /**
   * DELETE /admin/tenants/:tenantId: queues the deletion of the tenant's data and files (a
   * background job; progress in tenant_deletions). Refused while a channel is connected unless
   * `force`, which disconnects them first. The tenant is deactivated at once, so its users are out.
   */
  async requestDeletion(auth: AuthContext, tenantId: number, force: boolean): Promise<TenantDeletionDto> {
    tenantAdminPolicy.manage(auth);
    tenantAdminPolicy.assertNotPlatform(tenantId);
    const deletion = await this.deps.dataSource.transaction(async (tx) => {
      const tenant = await lockTenant(tx, tenantId);
      const live: { n: number }[] = await tx.query(
        `SELECT count(*)::int AS n FROM channels WHERE "tenantId" = $1 AND status = ANY($2)`,
        [tenantId, LIVE_CHANNEL_STATUSES],
      );
      if ((live[0]?.n ?? 0) > 0 && !force) throw new AppError('ERR_TENANT_CHANNELS_CONNECTED');
      await tx.query(`UPDATE tenants SET status = 'inactive', "updatedAt" = now() WHERE id = $1`, [tenantId]);
      try {
        const [row]: TenantDeletionRow[] = await tx.query(
          `INSERT INTO tenant_deletions ("tenantId", "tenantName", forced, "requestedBy") VALUES ($1, $2, $3, $4)
           RETURNING id, "tenantId", "tenantName", status, progress, step, error, "createdAt", "finishedAt"`,
          [tenantId, tenant.name, force, auth.userId],
        );
        return row!;
      } catch (err) {
        if (uniqueViolationOf(err) === 'tenant_deletions_one_active_uq') throw new AppError('ERR_TENANT_DELETION_RUNNING');
        throw err;
      }
    });
    this.deps.sessions.endTenantSessions(tenantId);
    await this.deps.jobs.enqueue(TENANT_DELETE_JOB, { deletionId: deletion.id }, { jobId: `tenant-delete-${deletion.id}` });
    return presentDeletion(deletion);
  }

  /** GET /admin/tenants/deletions/:deletionId: the progress of a deletion (it outlives the tenant). */
  async getDeletion(auth: AuthContext, deletionId: number): Promise<TenantDeletionDto> {
    tenantAdminPolicy.manage(auth);
    const rows: TenantDeletionRow[] = await this.deps.dataSource.query(`${DELETION_SELECT} WHERE id = $1`, [deletionId]);
    if (!rows[0]) throw new AppError('ERR_NOT_FOUND');
    return presentDeletion(rows[0]);
  }

  /** Recent deletions (the screen shows those running, failed, or finished in the last day). */
  async listDeletions(auth: AuthContext): Promise<TenantDeletionDto[]> {
    tenantAdminPolicy.manage(auth);
    const rows: TenantDeletionRow[] = await this.deps.dataSource.query(
      `${DELETION_SELECT} WHERE status IN ('queued','running','failed') OR "finishedAt" > now() - interval '1 day' ORDER BY id DESC LIMIT 50`,
    );
    return rows.map(presentDeletion);
  }

  private async load(tenantId: number): Promise<AdminTenantDto> {
    const rows: AdminTenantRow[] = await this.deps.dataSource.query(`${TENANT_SELECT} WHERE t.id = $1`, [tenantId]);
    if (!rows[0]) throw new AppError('ERR_NO_TENANT_FOUND');
    return presentTenant(rows[0], (await this.latestDeletions(tenantId)).get(tenantId));
  }

  private async latestDeletions(tenantId?: number): Promise<Map<number, TenantDeletionRow>> {
    const rows: TenantDeletionRow[] = await this.deps.dataSource.query(
      `SELECT DISTINCT ON ("tenantId") id, "tenantId", "tenantName", status, progress, step, error, "createdAt", "finishedAt"
         FROM tenant_deletions WHERE status <> 'done' ${tenantId ? 'AND "tenantId" = $1' : ''}
        ORDER BY "tenantId", id DESC`,
      tenantId ? [tenantId] : [],
    );
    return new Map(rows.map((r) => [r.tenantId, r]));
  }
}

interface LockedTenant {
  id: number;
  name: string;
  identity: string | null;
  planId: number | null;
  limitsOverride: boolean;
  maxUsers: number;
  maxConnections: number;
  trial: boolean;
  trialDays: number;
}

async function lockTenant(tx: EntityManager, tenantId: number): Promise<LockedTenant> {
  const rows: LockedTenant[] = await tx.query(
    `SELECT id, name, identity, "planId", "limitsOverride", "maxUsers", "maxConnections", trial, "trialDays"
       FROM tenants WHERE id = $1 FOR UPDATE`,
    [tenantId],
  );
  if (!rows[0]) throw new AppError('ERR_NO_TENANT_FOUND');
  return rows[0];
}

async function loadPlan(
  tx: EntityManager,
  planId: number,
): Promise<{ maxUsers: number; maxConnections: number; trial: boolean; trialDays: number }> {
  const rows = await tx.query(`SELECT "maxUsers", "maxConnections", trial, "trialDays" FROM plans WHERE id = $1`, [planId]);
  if (!rows[0]) throw new AppError('ERR_NO_PLAN_FOUND');
  return rows[0];
}
