/**
 * PostgreSQL constraint failures, read the same way whether TypeORM wrapped them
 * (QueryFailedError with `driverError`) or not. Services turn them into their own error codes,
 * so a race between two writers ends in the same answer as the checked path.
 */
interface PgErrorFields {
  code?: string;
  constraint?: string;
}

function fieldsOf(err: unknown): PgErrorFields {
  if (!err || typeof err !== 'object') return {};
  const e = err as PgErrorFields & { driverError?: PgErrorFields };
  return { code: e.code ?? e.driverError?.code, constraint: e.constraint ?? e.driverError?.constraint };
}

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';

/** The unique index or constraint that was violated, if this is a unique violation. */
export function uniqueViolationOf(err: unknown): string | undefined {
  const f = fieldsOf(err);
  return f.code === PG_UNIQUE_VIOLATION ? (f.constraint ?? '') : undefined;
}

/** The foreign key that was violated, if this is a foreign-key violation. */
export function foreignKeyViolationOf(err: unknown): string | undefined {
  const f = fieldsOf(err);
  return f.code === PG_FOREIGN_KEY_VIOLATION ? (f.constraint ?? '') : undefined;
}
