import type { PlanDto, PublicPlan } from '@shared/schemas/plans';
import type { Plan } from '../../db/entities';

/** What the public sign-up page may see of a plan: no status, no timestamps, nothing internal. */
export function presentPublicPlan(plan: Plan): PublicPlan {
  return {
    id: plan.id,
    name: plan.name,
    // numeric(12,2) arrives as a string from pg; two decimals are exact in a double.
    value: Number(plan.value),
    maxUsers: plan.maxUsers,
    maxConnections: plan.maxConnections,
    trial: plan.trial,
    trialDays: plan.trialDays,
  };
}

/** The super administrator's view of a plan. */
export function presentPlan(plan: Plan & { tenantCount?: number }): PlanDto {
  return {
    ...presentPublicPlan(plan),
    active: plan.active,
    tenantCount: Number(plan.tenantCount ?? 0),
    createdAt: new Date(plan.createdAt).toISOString(),
    updatedAt: new Date(plan.updatedAt).toISOString(),
  };
}
