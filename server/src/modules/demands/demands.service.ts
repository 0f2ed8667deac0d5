import { SOCKET_EVENTS } from '@shared/events';
import type { Demand } from '@shared/schemas/demands';
import type { AuthContext } from '../../core/auth-context';
import { TenantCatalog } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { demandPolicy } from './demands.policy';
import { presentDemand, type DemandRow } from './demands.presenter';
import type { CreateDemandInput, UpdateDemandInput } from './demands.schema';

/** Demands (motivos): the reasons a ticket is classified with. Names are unique per tenant. */
export class DemandsService {
  private readonly catalog: TenantCatalog<DemandRow, Demand>;

  constructor(deps: Pick<AppDeps, 'dataSource' | 'events'>) {
    this.catalog = new TenantCatalog(deps, {
      table: 'demands',
      writable: ['name', 'active'],
      orderBy: 'lower(name), id',
      policy: demandPolicy,
      uniqueIndexes: { demands_tenant_name_uq: { code: 'ERR_DEMAND_EXISTS', field: 'name' } },
      events: { update: SOCKET_EVENTS.demandUpdate, delete: SOCKET_EVENTS.demandDelete, key: 'demand' },
      present: async (rows) => rows.map(presentDemand),
    });
  }

  list(auth: AuthContext): Promise<Demand[]> {
    return this.catalog.list(auth);
  }

  create(auth: AuthContext, input: CreateDemandInput): Promise<Demand> {
    return this.catalog.create(auth, input);
  }

  update(auth: AuthContext, id: number, input: UpdateDemandInput): Promise<Demand> {
    return this.catalog.update(auth, id, input);
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.catalog.remove(auth, id);
  }
}
