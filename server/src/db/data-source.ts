import 'reflect-metadata';
import { DataSource, type EntitySchema } from 'typeorm';
import { migrations } from '../../../migrations';
import { allEntities } from './registry';

export interface DataSourceOptions {
  url: string;
  /** Embedded PGlite accepts one connection at a time. */
  maxConnections?: number;
  logging?: boolean;
}

export function createDataSource(opts: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: opts.url,
    entities: allEntities as EntitySchema[],
    migrations,
    migrationsRun: false,
    synchronize: false,
    logging: opts.logging ?? false,
    extra: { max: opts.maxConnections ?? 10 },
  });
}
