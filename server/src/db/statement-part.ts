/**
 * A write that can run alone or as a data-modifying WITH part of another statement, so that
 * several writes of one transaction cost one round trip. It registers each value through
 * `param`, which answers the value's placeholder ($n) in the statement it ends up in.
 */
export type StatementPart = (param: (value: unknown) => string) => string;

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/** A placeholder allocator over `params` (values already in it keep $1..$k). */
export function paramsOf(params: unknown[]): (value: unknown) => string {
  return (value) => `$${params.push(value)}`;
}

/** The `p0 AS (...)`, `p1 AS (...)` items of a WITH for the given statement parts. */
export function withParts(parts: readonly StatementPart[], param: (value: unknown) => string, prefix = 'p'): string[] {
  return parts.map((part, i) => `${prefix}${i} AS (${part(param)})`);
}

/** Runs parts on their own: one statement for all of them. */
export async function runStatementParts(tx: Queryable, parts: readonly StatementPart[]): Promise<void> {
  if (parts.length === 0) return;
  const params: unknown[] = [];
  const param = paramsOf(params);
  if (parts.length === 1) {
    await tx.query(parts[0](param), params);
    return;
  }
  await tx.query(`WITH ${withParts(parts, param).join(', ')} SELECT 1`, params);
}
