import { rm } from 'node:fs/promises';
import path from 'node:path';
import { toChannelRecord, type ChannelRow } from '../../channels/channel-row';
import type { AppDeps } from '../../deps';

export const TENANT_DELETE_JOB = 'tenant-delete';

/** Channels with a live provider session: a tenant with one is deleted only when forced. */
export const LIVE_CHANNEL_STATUSES = ['CONNECTED', 'OPENING', 'qrcode'];

/**
 * The biggest tables first, in an order their foreign keys allow (tickets RESTRICT their contact,
 * queue and auto-reply), deleted in batches so the progress moves and no transaction holds
 * millions of rows. What is left (settings, users, queues, tags ...) goes with the tenant row,
 * whose foreign keys cascade; tables keyed by "tenantId" without a foreign key are swept last.
 */
const BATCHED_TABLES = ['messages', 'tickets', 'contacts'] as const;
const BATCH_SIZE = 2000;

/** tenant_deletions' own rows report on deleted tenants: the sweep leaves them alone. */
const NOT_SWEPT = new Set(['tenant_deletions', 'tenants']);

export function tenantUploadsDir(dataDir: string, tenantId: number): string {
  return path.resolve(dataDir, 'uploads', String(tenantId));
}

/**
 * Runs one deletion (the TENANT_DELETE_JOB handler). Safe to run again after a crash: every
 * step deletes what is still there.
 */
export async function runTenantDeletion(deps: AppDeps, deletionId: number): Promise<void> {
  const ds = deps.dataSource;
  const rows: { tenantId: number; status: string }[] = await ds.query(
    `SELECT "tenantId", status FROM tenant_deletions WHERE id = $1`,
    [deletionId],
  );
  const deletion = rows[0];
  if (!deletion || deletion.status === 'done') return;
  const { tenantId } = deletion;
  const report = (progress: number, step: string | null) =>
    ds.query(
      `UPDATE tenant_deletions SET status = 'running', progress = $2, step = $3, error = NULL, "updatedAt" = now() WHERE id = $1`,
      [deletionId, Math.max(0, Math.min(99, Math.floor(progress))), step],
    );
  try {
    await report(0, 'channels');
    await disconnectChannels(deps, tenantId);

    const counts = new Map<string, number>();
    for (const table of BATCHED_TABLES) {
      const [c]: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE "tenantId" = $1`, [tenantId]);
      counts.set(table, c?.n ?? 0);
    }
    // Rows weigh 90%, the tenant row and the files the last 10%.
    const total = [...counts.values()].reduce((a, b) => a + b, 0) || 1;
    let done = 0;
    for (const table of BATCHED_TABLES) {
      await report((done / total) * 90, table);
      for (;;) {
        // A CTE makes it a SELECT for the driver, which then answers rows (a bare DELETE answers [rows, count]).
        const [deleted]: { n: number }[] = await ds.query(
          `WITH gone AS (DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE "tenantId" = $1 LIMIT ${BATCH_SIZE}) RETURNING 1)
           SELECT count(*)::int AS n FROM gone`,
          [tenantId],
        );
        if (!deleted || deleted.n === 0) break;
        done += deleted.n;
        await report((Math.min(done, total) / total) * 90, table);
      }
    }

    await report(90, 'tenant');
    await ds.query(`DELETE FROM tenants WHERE id = $1`, [tenantId]);
    const loose: { table_name: string }[] = await ds.query(
      `SELECT c.table_name FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND c.column_name = 'tenantId' AND t.table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of loose) {
      if (NOT_SWEPT.has(table_name)) continue;
      await ds.query(`DELETE FROM "${table_name.replace(/"/g, '""')}" WHERE "tenantId" = $1`, [tenantId]);
    }

    await report(95, 'files');
    await rm(tenantUploadsDir(deps.config.dataDir, tenantId), { recursive: true, force: true });

    await ds.query(
      `UPDATE tenant_deletions SET status = 'done', progress = 100, step = NULL, error = NULL, "updatedAt" = now(), "finishedAt" = now()
        WHERE id = $1`,
      [deletionId],
    );
    deps.logger.info({ tenantId, deletionId }, 'tenant deleted');
  } catch (err) {
    deps.logger.error({ err, tenantId, deletionId }, 'tenant deletion failed');
    await ds.query(`UPDATE tenant_deletions SET status = 'failed', error = $2, "updatedAt" = now() WHERE id = $1`, [
      deletionId,
      err instanceof Error ? err.message.slice(0, 500) : String(err),
    ]);
    throw err;
  }
}

/** Ends every provider session of the tenant (a forced deletion, or sessions that were idle). */
async function disconnectChannels(deps: AppDeps, tenantId: number): Promise<void> {
  const channels: ChannelRow[] = await deps.dataSource.query(`SELECT * FROM channels WHERE "tenantId" = $1`, [tenantId]);
  for (const row of channels) {
    try {
      await deps.channels.disconnect(toChannelRecord(row));
    } catch (err) {
      deps.logger.warn({ err, channelId: row.id }, 'channel disconnect failed during tenant deletion');
      deps.channels.forget(row.id);
    }
  }
}

/** Registers the job's handler (called once when the routes are built). */
export function registerTenantDeletionJob(deps: AppDeps): void {
  deps.jobs.process<{ deletionId: number }>(TENANT_DELETE_JOB, (data) => runTenantDeletion(deps, data.deletionId));
}
