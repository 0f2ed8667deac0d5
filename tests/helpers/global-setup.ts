import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { Client } from 'pg';
import { createDataSource } from '../../server/src/db/data-source';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseUrl: string | undefined;
  }
}

/**
 * With DATABASE_URL set, the suite runs against that PostgreSQL server in a fresh database made
 * for this run (migrated once here, dropped at the end). Without it, each test file starts its
 * own embedded in-memory PostgreSQL.
 */
export default async function setup(project: TestProject) {
  const base = process.env.DATABASE_URL;
  if (!base) {
    project.provide('testDatabaseUrl', undefined);
    return;
  }
  const name = `atende_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const ds = createDataSource({ url: url.toString() });
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
  project.provide('testDatabaseUrl', url.toString());

  return async () => {
    const c = new Client({ connectionString: base });
    await c.connect();
    await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name]);
    await c.query(`DROP DATABASE IF EXISTS ${name}`);
    await c.end();
  };
}
