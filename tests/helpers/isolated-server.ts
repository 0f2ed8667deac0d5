import type { StartOptions } from '../../server/src/server';
import { isolatedDatabase } from '../../server/src/modules/messages/messages.test-support';
import { startTestServer, type TestServer } from './test-server';

/**
 * A test server on a database of its own (a fresh PostgreSQL database on the shared server, or
 * its own embedded one without it), dropped on close. For test files that change platform-wide
 * state (tenant 1's settings, the platform SMTP, payment provider, licence, branding, notifications
 * to every tenant): with one shared database, concurrent files would see each other's changes.
 */
export async function startIsolatedTestServer(env: Record<string, string> = {}, opts: StartOptions = {}): Promise<TestServer> {
  const db = await isolatedDatabase();
  const server = await startTestServer({ ...env, ...(db.url ? { DATABASE_URL: db.url } : {}) }, opts);
  const close = server.close;
  server.close = async () => {
    await close();
    await db.drop();
  };
  return server;
}
