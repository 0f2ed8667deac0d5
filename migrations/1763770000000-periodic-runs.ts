import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Periodic work (sweeps, schedules, retention) claims and records its runs here instead of in
 * Redis, so a Redis loss never stops it (server/src/jobs/periodic.ts). Not tenant data: one row
 * per (deployment scope, task).
 */
export class PeriodicRuns1763770000000 implements MigrationInterface {
  name = 'PeriodicRuns1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE periodic_runs (
        scope text NOT NULL,
        name text NOT NULL,
        "intervalMs" int NOT NULL,
        "leaseUntil" timestamptz,
        "leaseOwner" text,
        "lastStartedAt" timestamptz,
        "lastFinishedAt" timestamptz,
        "lastDurationMs" int,
        "lastError" text,
        PRIMARY KEY (scope, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE periodic_runs`);
  }
}
