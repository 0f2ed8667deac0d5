import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * The default store: PGlite (PostgreSQL compiled to WASM) served on a loopback port, so the
 * server talks the same wire protocol through `pg` as it does to a real PostgreSQL server.
 * PGlite is single-connection: the pool in front of it must hold one connection.
 * `dataDir` undefined means an in-memory database (tests).
 * The contrib extensions the migrations create (pg_trgm, unaccent: contact search) are loaded
 * here, so the embedded database runs the same migrations as a PostgreSQL server.
 */
export async function startEmbeddedPostgres(opts: { dataDir?: string; port?: number } = {}): Promise<EmbeddedPostgres> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const db = await PGlite.create(opts.dataDir ?? 'memory://', { extensions: { pg_trgm, unaccent } });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: opts.port ?? 0 });
  await server.start();
  const port = resolvePort(server, opts.port ?? 0);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}

function resolvePort(server: PGLiteSocketServer, requested: number): number {
  // The socket server keeps its net.Server privately; read the bound port from it when we
  // asked for an ephemeral one.
  const inner = (server as unknown as { server?: { address(): AddressInfo | string | null } }).server;
  const addr = inner?.address();
  if (addr && typeof addr === 'object') return addr.port;
  if (requested) return requested;
  throw new Error('Embedded PostgreSQL did not report its port');
}
