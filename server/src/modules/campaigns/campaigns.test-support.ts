import type { TestServer } from '../../../../tests/helpers/test-server';

/** Test support for the campaign suites (not a test file itself). */

/** `count` contacts of the tenant with distinct numbers, inserted in one statement; answers their ids in order. */
export async function insertContacts(
  server: TestServer,
  tenantId: number,
  count: number,
  prefix = `5511${String(Math.floor(Math.random() * 900) + 100)}`,
): Promise<{ id: number; number: string; name: string }[]> {
  const rows = (await server.deps.dataSource.query(
    `INSERT INTO contacts ("tenantId", name, number)
     SELECT $1, 'Cliente ' || g, $2 || lpad(g::text, 6, '0') FROM generate_series(1, $3) g
     RETURNING id, number, name`,
    [tenantId, prefix, count],
  )) as { id: number; number: string; name: string }[];
  return rows.sort((a, b) => a.id - b.id);
}

export const inAnHour = (): string => new Date(Date.now() + 3600_000).toISOString();

export function campaignBody(channelId: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Campanha de teste',
    start: inAnHour(),
    message1: 'Olá {{firstName}}, mensagem 1',
    message2: 'Olá {{name}}, mensagem 2',
    message3: null,
    delay: 0,
    channelId,
    ...fields,
  };
}

export async function campaignRow(server: TestServer, id: number): Promise<{ status: string }> {
  const [row] = await server.deps.dataSource.query(`SELECT * FROM campaigns WHERE id = $1`, [id]);
  return row;
}

export async function contactStatusCounts(server: TestServer, campaignId: number): Promise<Record<string, number>> {
  const rows = (await server.deps.dataSource.query(
    `SELECT status, count(*)::int AS n FROM campaign_contacts WHERE "campaignId" = $1 GROUP BY status`,
    [campaignId],
  )) as { status: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}
