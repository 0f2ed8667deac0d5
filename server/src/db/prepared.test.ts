import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { QueryFailedError, type DataSource } from 'typeorm';
import { createDataSource } from './data-source';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { uniqueViolationOf } from './pg-errors';
import { enablePreparedStatements, preparedQuery, withPreparedStatements } from './prepared';

const TABLE = `prepared_probe_${process.pid}`;

async function setUpTable(ds: DataSource) {
  await ds.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await ds.query(`CREATE TABLE ${TABLE} (id int PRIMARY KEY, label text NOT NULL)`);
  await ds.query(`INSERT INTO ${TABLE} VALUES (1, 'one'), (2, 'two')`);
}

/** Names of the statements prepared on the connection that runs `run`. */
async function preparedNames(ds: DataSource, run: (tx: ReturnType<typeof withPreparedStatements>) => Promise<void>): Promise<string[]> {
  return ds.transaction(async (tx0) => {
    const tx = withPreparedStatements(tx0);
    await run(tx);
    const rows = (await tx0.query(`SELECT name FROM pg_prepared_statements ORDER BY name`)) as { name: string }[];
    return rows.map((r) => r.name);
  });
}

describe.runIf(Boolean(inject('testDatabaseUrl')))('named prepared statements on a PostgreSQL server', () => {
  let ds: DataSource;
  beforeAll(async () => {
    ds = createDataSource({ url: inject('testDatabaseUrl')!, maxConnections: 2 });
    await ds.initialize();
    enablePreparedStatements(ds);
    await setUpTable(ds);
  });
  afterAll(async () => {
    await ds.query(`DROP TABLE IF EXISTS ${TABLE}`);
    await ds.destroy();
  });

  it('prepares a statement once per connection and answers rows as tx.query does', async () => {
    const text = `SELECT id, label FROM ${TABLE} WHERE id = $1`;
    const names = await preparedNames(ds, async (tx) => {
      for (let i = 0; i < 7; i++) expect(await tx.query(text, [1 + (i % 2)])).toEqual([{ id: 1 + (i % 2), label: i % 2 ? 'two' : 'one' }]);
    });
    expect(names.filter((n) => n.startsWith('p_'))).toHaveLength(1);
    // The same text through the pool (no transaction) gives the same rows.
    expect(await preparedQuery(ds.manager, text, [2])).toEqual(await ds.query(text, [2]));
  });

  it('answers UPDATE and DELETE in TypeORM shape ([rows, count]) and runs in the caller transaction', async () => {
    await ds
      .transaction(async (tx0) => {
        const tx = withPreparedStatements(tx0);
        const updated = await tx.query(`UPDATE ${TABLE} SET label = $2 WHERE id = $1 RETURNING id, label`, [1, 'uno']);
        expect(updated).toEqual([[{ id: 1, label: 'uno' }], 1]);
        expect(updated).toEqual(await tx0.query(`UPDATE ${TABLE} SET label = $2 WHERE id = $1 RETURNING id, label`, [1, 'uno']));
        throw new Error('roll back');
      })
      .catch((err: Error) => expect(err.message).toBe('roll back'));
    // Rolled back with the transaction: the statement ran on its connection, not another one.
    expect(await ds.query(`SELECT label FROM ${TABLE} WHERE id = 1`)).toEqual([{ label: 'one' }]);
  });

  it('fails with QueryFailedError carrying the driver error, as tx.query does', async () => {
    const err = await preparedQuery(ds.manager, `INSERT INTO ${TABLE} VALUES ($1, $2)`, [1, 'again']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryFailedError);
    expect(uniqueViolationOf(err)).toBe(`${TABLE}_pkey`);
  });
});

describe('the embedded database keeps unnamed statements', () => {
  let pg: EmbeddedPostgres;
  let ds: DataSource;
  beforeAll(async () => {
    pg = await startEmbeddedPostgres();
    ds = createDataSource({ url: pg.url, maxConnections: 1 });
    await ds.initialize();
    await setUpTable(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await pg.stop();
  });

  it('answers through tx.query and prepares nothing (successive connections share its one backend, where a name would outlive its client)', async () => {
    const text = `SELECT label FROM ${TABLE} WHERE id = $1`;
    const names = await preparedNames(ds, async (tx) => {
      expect(await tx.query(text, [2])).toEqual([{ label: 'two' }]);
    });
    expect(names).toEqual([]);
    await ds.transaction(async (tx0) => expect(withPreparedStatements(tx0)).toBe(tx0));
  });
});
