import { SOCKET_EVENTS } from '@shared/events';
import type { Kanban, Lane } from '@shared/schemas/kanban';
import type { AuthContext } from '../../core/auth-context';
import { TenantCatalog } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { kanbanPolicy, lanePolicy } from './kanban.policy';
import { presentKanban, presentLane, type KanbanRow, type LaneRow } from './kanban.presenter';
import type { CreateKanbanInput, CreateLaneInput, UpdateKanbanInput, UpdateLaneInput } from './kanban.schema';

type CatalogDeps = Pick<AppDeps, 'dataSource' | 'events'>;

/**
 * Kanban columns, ordered by position. Deleting a column leaves its contacts without a column
 * (contacts.kanbanId is ON DELETE SET NULL), so nothing blocks the delete.
 */
export class KanbansService {
  private readonly catalog: TenantCatalog<KanbanRow, Kanban>;

  constructor(deps: CatalogDeps) {
    this.catalog = new TenantCatalog(deps, {
      table: 'kanbans',
      writable: ['name', 'color', 'active'],
      orderBy: 'position, id',
      positioned: true,
      policy: kanbanPolicy,
      events: { update: SOCKET_EVENTS.kanbanUpdate, delete: SOCKET_EVENTS.kanbanDelete, key: 'kanban' },
      present: async (rows) => rows.map(presentKanban),
    });
  }

  list(auth: AuthContext): Promise<Kanban[]> {
    return this.catalog.list(auth);
  }

  create(auth: AuthContext, input: CreateKanbanInput): Promise<Kanban> {
    return this.catalog.create(auth, input);
  }

  update(auth: AuthContext, id: number, input: UpdateKanbanInput): Promise<Kanban> {
    return this.catalog.update(auth, id, input);
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.catalog.remove(auth, id);
  }

  reorder(auth: AuthContext, ids: number[]): Promise<Kanban[]> {
    return this.catalog.reorder(auth, ids);
  }
}

/** Lanes (configurações > lanes), ordered by position like the kanban columns. */
export class LanesService {
  private readonly catalog: TenantCatalog<LaneRow, Lane>;

  constructor(deps: CatalogDeps) {
    this.catalog = new TenantCatalog(deps, {
      table: 'lanes',
      writable: ['name', 'color'],
      orderBy: 'position, id',
      positioned: true,
      policy: lanePolicy,
      events: { update: SOCKET_EVENTS.laneUpdate, delete: SOCKET_EVENTS.laneDelete, key: 'lane' },
      present: async (rows) => rows.map(presentLane),
    });
  }

  list(auth: AuthContext): Promise<Lane[]> {
    return this.catalog.list(auth);
  }

  create(auth: AuthContext, input: CreateLaneInput): Promise<Lane> {
    return this.catalog.create(auth, input);
  }

  update(auth: AuthContext, id: number, input: UpdateLaneInput): Promise<Lane> {
    return this.catalog.update(auth, id, input);
  }

  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.catalog.remove(auth, id);
  }

  reorder(auth: AuthContext, ids: number[]): Promise<Lane[]> {
    return this.catalog.reorder(auth, ids);
  }
}
