import 'reflect-metadata';
import { DataSource, type EntitySchema } from 'typeorm';
import { migrations } from '../../../migrations';
import { allEntities } from './registry';

export interface DataSourceOptions {
  url: string;
  /** Embedded PGlite accepts one connection at a time. */
  maxConnections?: number;
  logging?: boolean;
  /** The embedded database (PGlite), which has no JIT compiler to turn off. */
  embedded?: boolean;
}

/**
 * Session settings of every pooled connection to a PostgreSQL server. JIT off: PostgreSQL
 * compiles a statement whose estimated cost passes jit_above_cost (100,000), and an estimate
 * that is wrong by orders of magnitude (a lateral walk per ticket planned for thousands of rows
 * and finding none) paid 340 ms of compilation for 10 ms of execution (the ticket panel's waiting
 * times, console benchmark). The statistics benchmark (100,000 tickets, a year) measured the
 * reports with and without it on the same database: the differences were within run-to-run noise.
 */
export const SERVER_SESSION_OPTIONS = '-c jit=off';

export function createDataSource(opts: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    entities: allEntities as EntitySchema[],
    migrations,
    migrationsRun: false,
    synchronize: false,
    logging: opts.logging ?? false,
    extra: { max: opts.maxConnections ?? 10, ...(opts.embedded ? {} : { options: SERVER_SESSION_OPTIONS }) },
  });
}
