import { createHash } from 'node:crypto';
import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';

/**
 * Named prepared statements for hot paths whose statements are few and fixed (the chatbot
 * engine's read and write).
 *
 * An unnamed statement (what TypeORM's `query` sends) is parsed and planned on every call. For
 * a statement with several joins that planning costs more than running it: the ticket row the
 * engine locks plans in ~0.65 ms and executes in ~0.1 ms. A named statement is parsed once per
 * connection, and after five executions PostgreSQL keeps a generic plan when it is as good as
 * the custom ones (a primary-key lookup always is), so planning drops to ~0.01 ms.
 *
 * Only for statement texts from a fixed set (no values inlined into the text): each name lives
 * as long as its connection. Past MAX_NAMES distinct texts, new ones run unnamed. Enabled per
 * DataSource (a PostgreSQL server); the embedded PGlite serves successive connections from one
 * backend, where a name outlives the client that prepared it, so it keeps unnamed statements.
 */

const MAX_NAMES = 256;
const names = new Map<string, string>();
const enabled = new WeakSet<DataSource>();

interface PgResult {
  command: string;
  rows: unknown[];
  rowCount: number | null;
}
interface PgQueryable {
  query(config: { name: string; text: string; values: unknown[] }): Promise<PgResult>;
}

export function enablePreparedStatements(dataSource: DataSource): void {
  enabled.add(dataSource);
}

function nameOf(text: string): string | null {
  const known = names.get(text);
  if (known) return known;
  if (names.size >= MAX_NAMES) return null;
  const name = `p_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  names.set(text, name);
  return name;
}

/**
 * `em.query(text, values)` as a named prepared statement, answered in TypeORM's shape (the rows;
 * `[rows, count]` for UPDATE and DELETE) and failing with TypeORM's QueryFailedError, so it
 * replaces `em.query` as is. In a transaction it runs on the transaction's connection.
 */
export async function preparedQuery<T = any>(em: EntityManager, text: string, values: unknown[] = []): Promise<T> {
  const name = enabled.has(em.connection) ? nameOf(text) : null;
  if (!name) return em.query(text, values);
  const runner = em.queryRunner;
  let res: PgResult;
  try {
    const client: PgQueryable = runner
      ? ((await runner.connect()) as PgQueryable)
      : ((em.connection.driver as unknown as { master: PgQueryable }).master);
    res = await client.query({ name, text, values });
  } catch (err) {
    throw new QueryFailedError(text, values, err as Error);
  }
  return (res.command === 'UPDATE' || res.command === 'DELETE' ? [res.rows, res.rowCount] : res.rows) as T;
}

/** The same manager, its `query` running named prepared statements (for code written against `tx.query`). */
export function withPreparedStatements(em: EntityManager): EntityManager {
  if (!enabled.has(em.connection)) return em;
  return new Proxy(em, {
    get(target, key, receiver) {
      if (key === 'query') return (text: string, values?: unknown[]) => preparedQuery(target, text, values);
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
