import type { TestServer } from './test-server';

/** Domain events as stored, for asserting what a write recorded and for whom (audience). */
export interface StoredEvent {
  tenantId: number;
  seq: string;
  name: string;
  payload: any;
  audience: any;
}

/** The latest domain event of a tenant with that name, as stored (for audience assertions). */
export async function lastEvent(server: TestServer, tenantId: number, name: string): Promise<StoredEvent | undefined> {
  const rows = await server.deps.dataSource.query(
    `SELECT "tenantId", seq, name, payload, audience FROM domain_events WHERE "tenantId" = $1 AND name = $2 ORDER BY seq DESC LIMIT 1`,
    [tenantId, name],
  );
  return rows[0];
}

/** How many domain events a tenant has, to prove a refused call recorded nothing. */
export async function eventCount(server: TestServer, tenantId: number): Promise<number> {
  const rows = await server.deps.dataSource.query(`SELECT count(*)::int AS n FROM domain_events WHERE "tenantId" = $1`, [
    tenantId,
  ]);
  return rows[0].n;
}
