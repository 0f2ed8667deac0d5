import { SOCKET_EVENTS } from '@shared/events';
import type { Queue } from '@shared/schemas/queues';
import { AppError } from '../../core/app-error';
import type { AuthContext } from '../../core/auth-context';
import { TenantCatalog } from '../../core/tenant-catalog';
import type { AppDeps } from '../../deps';
import { queuePolicy } from './queues.policy';
import { presentQueue, type QueueRow } from './queues.presenter';
import type { CreateQueueInput, UpdateQueueInput } from './queues.schema';

/** Queues (filas): the tenant's list, the caller's own queues, and their management. */
export class QueuesService {
  private readonly catalog: TenantCatalog<QueueRow, Queue>;

  constructor(private readonly deps: Pick<AppDeps, 'dataSource' | 'events'>) {
    this.catalog = new TenantCatalog(deps, {
      table: 'queues',
      writable: ['name', 'color', 'greetingMessage', 'active', 'businessHours'],
      orderBy: 'lower(name), id',
      policy: queuePolicy,
      uniqueIndexes: { queues_tenant_name_uq: { code: 'ERR_QUEUE_EXISTS', field: 'name' } },
      referencedBy: 'ERR_QUEUE_TICKET_EXISTS',
      events: { update: SOCKET_EVENTS.queueUpdate, delete: SOCKET_EVENTS.queueDelete, key: 'queue' },
      present: async (rows) => rows.map(presentQueue),
    });
  }

  list(auth: AuthContext): Promise<Queue[]> {
    return this.catalog.list(auth);
  }

  /**
   * The caller's queues (users.queues), as full rows. Ids of queues deleted since are skipped
   * by the join, so a stale id in a user's list is harmless.
   */
  async listMine(auth: AuthContext): Promise<Queue[]> {
    queuePolicy.authorize(auth, 'list');
    const rows: QueueRow[] = await this.deps.dataSource.query(
      `SELECT q.* FROM queues q
         JOIN users u ON u.id = $2 AND u."tenantId" = $1
        WHERE q."tenantId" = $1
          AND (u.queues @> jsonb_build_array(q.id) OR u.queues @> jsonb_build_array(q.id::text))
        ORDER BY lower(q.name), q.id`,
      [auth.tenantId, auth.userId],
    );
    return rows.map(presentQueue);
  }

  create(auth: AuthContext, input: CreateQueueInput): Promise<Queue> {
    return this.catalog.create(auth, asColumns(input));
  }

  update(auth: AuthContext, id: number, input: UpdateQueueInput): Promise<Queue> {
    return this.catalog.update(auth, id, asColumns(input));
  }

  /** Refused while any ticket (of any status) is in the queue: history keeps its queue. */
  async remove(auth: AuthContext, id: number): Promise<void> {
    await this.catalog.remove(auth, id, {
      beforeDelete: async (tx, queue) => {
        const used: unknown[] = await tx.query(`SELECT 1 FROM tickets WHERE "tenantId" = $1 AND "queueId" = $2 LIMIT 1`, [
          queue.tenantId,
          queue.id,
        ]);
        if (used.length > 0) throw new AppError('ERR_QUEUE_TICKET_EXISTS');
      },
    });
  }
}

/** The week goes to its jsonb column as JSON text (the driver would send an array as a PostgreSQL array). */
function asColumns(input: CreateQueueInput | UpdateQueueInput): Partial<QueueRow> {
  const { businessHours, ...rest } = input;
  if (businessHours === undefined) return rest as Partial<QueueRow>;
  return {
    ...rest,
    businessHours: (businessHours === null ? null : JSON.stringify(businessHours)) as unknown as QueueRow['businessHours'],
  } as Partial<QueueRow>;
}
