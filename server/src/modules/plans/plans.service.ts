import type { CreatePlanInput, PlanDto, PublicPlan, UpdatePlanInput } from '@shared/schemas/plans';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { PlanEntity, type Plan } from '../../db/entities';
import type { AppDeps } from '../../deps';
import { planPolicy } from './plans.policy';
import { presentPlan, presentPublicPlan } from './plans.presenter';

const PLAN_COLUMNS = `p.id, p.name, p.value, p."maxConnections", p."maxUsers", p.trial, p."trialDays", p.active, p."createdAt", p."updatedAt",
  (SELECT count(*)::int FROM tenants t WHERE t."planId" = p.id) AS "tenantCount"`;

/**
 * Plans are platform-wide rows (no tenantId). The public list serves sign-up; managing them
 * (anchor paths /plans, /plans/list, /plans/:id) belongs to the platform's super administrator.
 * A tenant's limits come from its plan unless overridden (tenants."limitsOverride"): editing a
 * plan's limits moves every tenant that follows it.
 */
export class PlansService {
  constructor(private readonly deps: Pick<AppDeps, 'dataSource'>) {}

  /** Active plans for the sign-up page, cheapest first. No caller: the page is public. */
  async listPublic(): Promise<PublicPlan[]> {
    const plans = await this.deps.dataSource.getRepository(PlanEntity).find({
      where: { active: true },
      order: { value: 'ASC', id: 'ASC' },
    });
    return plans.map(presentPublicPlan);
  }

  async list(auth: AuthContext): Promise<PlanDto[]> {
    planPolicy.manage(auth);
    const rows: Plan[] = await this.deps.dataSource.query(`SELECT ${PLAN_COLUMNS} FROM plans p ORDER BY p.value, p.id`);
    return rows.map(presentPlan);
  }

  async create(auth: AuthContext, input: CreatePlanInput): Promise<PlanDto> {
    planPolicy.manage(auth);
    const [row]: { id: number }[] = await this.deps.dataSource.query(
      `INSERT INTO plans (name, value, "maxUsers", "maxConnections", trial, "trialDays", active)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [input.name, input.value.toFixed(2), input.maxUsers, input.maxConnections, input.trial, input.trialDays, input.active],
    );
    return this.get(row!.id);
  }

  async update(auth: AuthContext, id: number, input: UpdatePlanInput): Promise<PlanDto> {
    planPolicy.manage(auth);
    await this.deps.dataSource.transaction(async (tx) => {
      const current: Plan[] = await tx.query(`SELECT * FROM plans WHERE id = $1 FOR UPDATE`, [id]);
      const plan = current[0];
      if (!plan) throw new AppError('ERR_NO_PLAN_FOUND');
      const next = {
        name: input.name ?? plan.name,
        value: input.value !== undefined ? input.value.toFixed(2) : plan.value,
        maxUsers: input.maxUsers ?? plan.maxUsers,
        maxConnections: input.maxConnections ?? plan.maxConnections,
        trial: input.trial ?? plan.trial,
        trialDays: input.trialDays ?? plan.trialDays,
        active: input.active ?? plan.active,
      };
      if (next.trial && next.trialDays === 0) {
        throw new AppError('ERR_VALIDATION', {
          fields: [{ path: 'trialDays', message: 'Informe os dias de teste (no mínimo 1) quando o teste estiver ativo' }],
        });
      }
      await tx.query(
        `UPDATE plans SET name = $2, value = $3, "maxUsers" = $4, "maxConnections" = $5, trial = $6, "trialDays" = $7,
                active = $8, "updatedAt" = now() WHERE id = $1`,
        [id, next.name, next.value, next.maxUsers, next.maxConnections, next.trial, next.trialDays, next.active],
      );
      // Tenants that follow the plan take its new limits; hand-set limits stay.
      await tx.query(
        `UPDATE tenants SET "maxUsers" = $2, "maxConnections" = $3, "updatedAt" = now()
          WHERE "planId" = $1 AND NOT "limitsOverride" AND ("maxUsers" <> $2 OR "maxConnections" <> $3)`,
        [id, next.maxUsers, next.maxConnections],
      );
    });
    return this.get(id);
  }

  /** A plan some tenant is on cannot be deleted (its tenants would lose their plan): deactivate it. */
  async remove(auth: AuthContext, id: number): Promise<void> {
    planPolicy.manage(auth);
    await this.deps.dataSource.transaction(async (tx) => {
      const rows: { id: number }[] = await tx.query(`SELECT id FROM plans WHERE id = $1 FOR UPDATE`, [id]);
      if (!rows[0]) throw new AppError('ERR_NO_PLAN_FOUND');
      const used: { n: number }[] = await tx.query(`SELECT count(*)::int AS n FROM tenants WHERE "planId" = $1`, [id]);
      if ((used[0]?.n ?? 0) > 0) throw new AppError('ERR_PLAN_IN_USE');
      await tx.query(`DELETE FROM plans WHERE id = $1`, [id]);
    });
  }

  private async get(id: number): Promise<PlanDto> {
    const rows: Plan[] = await this.deps.dataSource.query(`SELECT ${PLAN_COLUMNS} FROM plans p WHERE p.id = $1`, [id]);
    if (!rows[0]) throw new AppError('ERR_NO_PLAN_FOUND');
    return presentPlan(rows[0]);
  }
}
