import type { EntityManager } from 'typeorm';
import type { ErrorCode } from '@shared/errors';
import type { DataSource } from 'typeorm';
import type { DomainEvents, Emit } from '../realtime/domain-events';
import { foreignKeyViolationOf, uniqueViolationOf } from '../db/pg-errors';
import { AppError } from './app-error';
import type { AuthContext } from './auth-context';
import type { CatalogPolicy } from './catalog-policy';

export type Queryable = Pick<EntityManager, 'query'>;

export interface CatalogRow {
  id: number;
  tenantId: number;
}

/** What one kind of tenant-owned catalog row is: its table, rules, events and answer shape. */
export interface CatalogDefinition<Row extends CatalogRow, Dto> {
  /** SQL table; a constant of the module, never input. */
  table: string;
  /** Columns a create or update may set (keys of the validated input with the same names). */
  writable: readonly (keyof Row & string)[];
  /** ORDER BY of lists; constant SQL. */
  orderBy: string;
  /** Rows carry `position`: new rows go last and `reorder` rewrites the positions 0..n-1. */
  positioned?: boolean;
  policy: CatalogPolicy;
  /** Unique index name -> the answer when a write violates it (e.g. a duplicate name). */
  uniqueIndexes?: Record<string, { code: ErrorCode; field: string }>;
  /** Answer when a delete is refused because other rows still reference this one. */
  referencedBy?: ErrorCode;
  /** Socket events and the payload key of the row: `{ action, [key]: dto }`, `{ action: 'delete', id }`. */
  events: { update: string; delete: string; key: string };
  /** Rows to their answer shape; in batches, so lists cost one extra query at most. */
  present(rows: Row[], db: Queryable): Promise<Dto[]>;
}

export interface WriteHooks<Row> {
  /** In the transaction, after the row is written and before the event: dependent rows. */
  afterWrite?(tx: EntityManager, row: Row): Promise<void>;
}

export interface DeleteHooks<Row> {
  /** In the transaction, with the row locked, before the DELETE: refusals and cleanup. */
  beforeDelete?(tx: EntityManager, row: Row): Promise<void>;
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * The create / list / update / delete / reorder flow that the small CRM catalogs share (queues,
 * tags, teams, kanban columns, lanes, reasons, quick messages). Every query starts from the
 * caller's tenant; every write runs in one transaction with its domain event.
 *
 * Lock order: a write first locks the tenant row (the same lock `emit` takes for the event
 * sequence), then the catalog row. Taking them in one order everywhere means a reorder and a
 * concurrent update of the same table cannot deadlock, and "new rows go last" cannot give two
 * rows the same position.
 */
export class TenantCatalog<Row extends CatalogRow, Dto> {
  constructor(
    private readonly deps: { dataSource: DataSource; events: DomainEvents },
    readonly def: CatalogDefinition<Row, Dto>,
  ) {}

  private get table(): string {
    return quoteIdent(this.def.table);
  }

  async list(auth: AuthContext): Promise<Dto[]> {
    this.def.policy.authorize(auth, 'list');
    return this.def.present(await this.rowsOf(this.deps.dataSource, auth.tenantId), this.deps.dataSource);
  }

  /** One row for reading (e.g. a download), checked by the policy. */
  async get(auth: AuthContext, id: number): Promise<Row> {
    return this.def.policy.authorizeRow(auth, 'read', await this.find(this.deps.dataSource, auth, id));
  }

  async present(row: Row, db: Queryable = this.deps.dataSource): Promise<Dto> {
    return (await this.def.present([row], db))[0];
  }

  async create(auth: AuthContext, values: Partial<Row>, hooks: WriteHooks<Row> = {}): Promise<Dto> {
    this.def.policy.authorize(auth, 'create');
    return this.write(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const columns = this.columnsOf(values);
      const params: unknown[] = [auth.tenantId, ...columns.map((c) => values[c])];
      const names = ['"tenantId"', ...columns.map(quoteIdent)];
      const placeholders = names.map((_, i) => `$${i + 1}`);
      if (this.def.positioned) {
        names.push('position');
        placeholders.push(`(SELECT COALESCE(MAX(position) + 1, 0) FROM ${this.table} WHERE "tenantId" = $1)`);
      }
      const [row]: Row[] = await tx.query(
        `INSERT INTO ${this.table} (${names.join(', ')}) VALUES (${placeholders.join(', ')}) RETURNING *`,
        params,
      );
      await hooks.afterWrite?.(tx, row);
      const dto = await this.present(row, tx);
      await emit(auth.tenantId, this.def.events.update, { action: 'create', [this.def.events.key]: dto });
      return dto;
    });
  }

  /**
   * Updates the given columns of one row of the caller's tenant. `prepare` runs once the row is
   * loaded, locked and authorised: it may refuse (rules on the stored state) or answer more
   * values to write (e.g. a file it stored only after the caller proved allowed).
   */
  async update(
    auth: AuthContext,
    id: number,
    input: Partial<Row>,
    hooks: WriteHooks<Row> & { prepare?(tx: EntityManager, current: Row): Promise<Partial<Row> | void> } = {},
  ): Promise<Dto> {
    return this.write(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const current = this.def.policy.authorizeRow(auth, 'update', await this.find(tx, auth, id, true));
      const values: Partial<Row> = { ...input, ...((await hooks.prepare?.(tx, current)) ?? {}) };
      const columns = this.columnsOf(values);
      const sets = columns.map((c, i) => `${quoteIdent(c)} = $${i + 3}`);
      const [row] = await updateReturning<Row>(
        tx,
        `UPDATE ${this.table} SET ${[...sets, '"updatedAt" = now()'].join(', ')}
          WHERE id = $1 AND "tenantId" = $2 RETURNING *`,
        [current.id, current.tenantId, ...columns.map((c) => values[c])],
      );
      await hooks.afterWrite?.(tx, row);
      const dto = await this.present(row, tx);
      await emit(auth.tenantId, this.def.events.update, { action: 'update', [this.def.events.key]: dto });
      return dto;
    });
  }

  /** Deletes one row of the caller's tenant; answers the deleted row (files to clean after commit). */
  async remove(auth: AuthContext, id: number, hooks: DeleteHooks<Row> = {}): Promise<Row> {
    return this.write(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const row = this.def.policy.authorizeRow(auth, 'delete', await this.find(tx, auth, id, true));
      await hooks.beforeDelete?.(tx, row);
      await tx.query(`DELETE FROM ${this.table} WHERE id = $1 AND "tenantId" = $2`, [row.id, row.tenantId]);
      await emit(auth.tenantId, this.def.events.delete, { action: 'delete', id: row.id });
      return row;
    });
  }

  /**
   * Drag and drop: `ids` is the whole list in its new order. An id of another tenant (or none)
   * is "not found"; a list that misses or repeats one of the tenant's rows is a validation error.
   */
  async reorder(auth: AuthContext, ids: number[]): Promise<Dto[]> {
    if (!this.def.positioned) throw new Error(`${this.def.table} has no position`);
    this.def.policy.authorize(auth, 'reorder');
    return this.write(async (tx, emit) => {
      await lockTenant(tx, auth.tenantId);
      const own: { id: number }[] = await tx.query(`SELECT id FROM ${this.table} WHERE "tenantId" = $1`, [auth.tenantId]);
      const ownIds = new Set(own.map((r) => Number(r.id)));
      if (ids.some((id) => !ownIds.has(id))) throw new AppError(this.def.policy.notFound);
      if (new Set(ids).size !== ids.length || ids.length !== ownIds.size) {
        throw new AppError('ERR_VALIDATION', {
          fields: [{ path: 'ids', message: `deve conter cada um dos ${ownIds.size} itens exatamente uma vez` }],
        });
      }
      await tx.query(
        `UPDATE ${this.table} AS t SET position = v.ord - 1, "updatedAt" = now()
           FROM unnest($2::int[]) WITH ORDINALITY AS v(id, ord)
          WHERE t.id = v.id AND t."tenantId" = $1 AND t.position IS DISTINCT FROM v.ord - 1`,
        [auth.tenantId, ids],
      );
      await emit(auth.tenantId, this.def.events.update, { action: 'reorder', ids });
      return this.def.present(await this.rowsOf(tx, auth.tenantId), tx);
    });
  }

  private rowsOf(db: Queryable, tenantId: number): Promise<Row[]> {
    return db.query(`SELECT * FROM ${this.table} WHERE "tenantId" = $1 ORDER BY ${this.def.orderBy}`, [tenantId]);
  }

  /**
   * Scoped to the caller's tenant, so a write never locks another tenant's row; the policy then
   * answers "not found" for a missing row exactly as for a foreign one.
   */
  private async find(db: Queryable, auth: AuthContext, id: number, forUpdate = false): Promise<Row | null> {
    const rows: Row[] = await db.query(
      `SELECT * FROM ${this.table} WHERE id = $1 AND "tenantId" = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [id, auth.tenantId],
    );
    return rows[0] ?? null;
  }

  private columnsOf(values: Partial<Row>): (keyof Row & string)[] {
    return this.def.writable.filter((c) => values[c] !== undefined);
  }

  /** One transaction with its events; constraint failures become this catalog's answers. */
  private async write<T>(work: (tx: EntityManager, emit: Emit) => Promise<T>): Promise<T> {
    try {
      return await this.deps.events.transaction(work);
    } catch (err) {
      const unique = uniqueViolationOf(err);
      const rule = unique !== undefined ? this.def.uniqueIndexes?.[unique] : undefined;
      if (rule) throw new AppError(rule.code, { fields: [{ path: rule.field, message: 'já está em uso' }] });
      if (this.def.referencedBy && foreignKeyViolationOf(err) !== undefined) throw new AppError(this.def.referencedBy);
      throw err;
    }
  }
}

/**
 * Serialises the catalog writes of one tenant. It is the row `emit` updates for the event
 * sequence anyway, so taking it first adds no new contention, only a fixed lock order.
 */
export async function lockTenant(tx: Queryable, tenantId: number): Promise<void> {
  await tx.query(`SELECT id FROM tenants WHERE id = $1 FOR UPDATE`, [tenantId]);
}

/**
 * The rows of an `UPDATE ... RETURNING`. TypeORM's PostgreSQL driver answers UPDATE and DELETE
 * statements as `[rows, affectedCount]` (other statements as `rows`), so read both shapes.
 */
export async function updateReturning<T>(db: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  const result: unknown = await db.query(sql, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
    return result[0] as T[];
  return result as T[];
}

/** Timestamps leave the server as ISO-8601 text. */
export const isoDate = (value: Date | string): string => new Date(value).toISOString();
