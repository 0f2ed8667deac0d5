import { PLATFORM_TENANT_ID } from '../../server/src/core/platform';
import type { TestServer, TestTenant } from './test-server';

/**
 * The platform tenant (id 1) that platform-wide settings and the super administrator live in.
 * Test servers start unseeded: with the embedded database each file has its own, so the first
 * tenant a file creates is tenant 1; with DATABASE_URL the run shares one database, and tenant 1
 * is whichever tenant some file created first.
 */
export async function platformTenant(server: TestServer): Promise<TestTenant> {
  const find = async (): Promise<TestTenant | undefined> =>
    (await server.deps.dataSource.query(`SELECT id, name FROM tenants WHERE id = $1`, [PLATFORM_TENANT_ID]))[0];
  const existing = await find();
  if (existing) return existing;
  const created = await server.createTenant({ name: 'Plataforma' });
  if (created.id === PLATFORM_TENANT_ID) return created;
  // Another file's insert took id 1 and may not be committed yet.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const again = await find();
  if (!again)
    throw new Error(`tenant ${PLATFORM_TENANT_ID} does not exist and can no longer be created (sequence at ${created.id})`);
  return again;
}
