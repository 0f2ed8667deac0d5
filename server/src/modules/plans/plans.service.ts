import type { PublicPlan } from '@shared/schemas/plans';
import { PlanEntity } from '../../db/entities';
import type { AppDeps } from '../../deps';
import { presentPublicPlan } from './plans.presenter';

/**
 * Plans are platform-wide rows (no tenantId). Managing them belongs to the super administrator
 * (anchor paths /plans, /plans/list, /plans/:id); this module so far serves the public list.
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
}
