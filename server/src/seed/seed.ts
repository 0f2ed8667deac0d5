import { randomBytes } from 'node:crypto';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import type { Profile } from '@shared/profiles';
import { DEFAULT_SETTINGS } from '@shared/settings';
import type { Config } from '../config';
import { hashPassword } from '../core/passwords';
import type { Logger } from '../core/logger';

export interface SeedResult {
  created: boolean;
  accounts: { email: string; profile: Profile; tenantId: number; password?: string }[];
}

/** Creates a tenant's default settings (visibility keys of spec section 6 and their defaults). */
export async function seedTenantSettings(tx: EntityManager, tenantId: number): Promise<void> {
  for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
    await tx.query(
      `INSERT INTO settings ("tenantId", key, value) VALUES ($1, $2, $3) ON CONFLICT ("tenantId", key) DO NOTHING`,
      [tenantId, key, value],
    );
  }
}

/**
 * First start: tenant 1 with the super administrator, and "Empresa Demo" with an admin, a
 * supervisor and an agent. Passwords come from SEED_PASSWORD, else are generated, printed once
 * and written to DATA_DIR/initial-credentials.txt. Later starts change nothing.
 */
export async function seedDatabase(dataSource: DataSource, config: Config, logger: Logger): Promise<SeedResult> {
  const existing: { count: string }[] = await dataSource.query(`SELECT count(*)::text AS count FROM tenants`);
  if (Number(existing[0].count) > 0) return { created: false, accounts: [] };

  const accounts: SeedResult['accounts'] = [];
  const passwordFor = () => config.seedPassword ?? randomBytes(9).toString('base64url') + '!1';

  await dataSource.transaction(async (tx) => {
    const [plan] = await tx.query(
      `INSERT INTO plans (name, value, "maxConnections", "maxUsers", trial, "trialDays") VALUES ('Padrão', 0, 3, 10, false, 0) RETURNING id`,
    );
    const [platform] = await tx.query(
      `INSERT INTO tenants (id, name, status, "maxUsers", "maxConnections", "planId") VALUES (1, 'Plataforma', 'active', 10, 10, $1) RETURNING id`,
      [plan.id],
    );
    // Tenant 1 was inserted with an explicit id: move the sequence past it before the next
    // insert draws from it (else "Empresa Demo" would draw id 1 too).
    await tx.query(`SELECT setval(pg_get_serial_sequence('tenants','id'), (SELECT max(id) FROM tenants))`);
    const [demo] = await tx.query(
      `INSERT INTO tenants (name, status, "maxUsers", "maxConnections", "planId") VALUES ('Empresa Demo', 'active', 10, 3, $1) RETURNING id`,
      [plan.id],
    );

    const people: { tenantId: number; name: string; email: string; profile: Profile }[] = [
      { tenantId: platform.id, name: 'Super Administrador', email: config.seedSuperadminEmail, profile: 'superadmin' },
      { tenantId: demo.id, name: 'Administrador Demo', email: 'admin@demo.example.com', profile: 'admin' },
      { tenantId: demo.id, name: 'Supervisor Demo', email: 'supervisor@demo.example.com', profile: 'super' },
      { tenantId: demo.id, name: 'Agente Demo', email: 'agent@demo.example.com', profile: 'user' },
    ];
    for (const tenantId of [platform.id, demo.id]) await seedTenantSettings(tx, tenantId);
    for (const p of people) {
      const password = passwordFor();
      const [user] = await tx.query(
        `INSERT INTO users ("tenantId", name, email, "passwordHash", profile) VALUES ($1, $2, lower($3), $4, $5) RETURNING id`,
        [p.tenantId, p.name, p.email, await hashPassword(password), p.profile],
      );
      await tx.query(`INSERT INTO user_tenants ("userId", "tenantId") VALUES ($1, $2)`, [user.id, p.tenantId]);
      accounts.push({ email: p.email.toLowerCase(), profile: p.profile, tenantId: p.tenantId, password: config.seedPassword ? undefined : password });
    }
  });

  if (!config.seedPassword) {
    mkdirSync(config.dataDir, { recursive: true });
    const file = path.join(config.dataDir, 'initial-credentials.txt');
    const lines = accounts.map((a) => `${a.profile.padEnd(10)} ${a.email}  ${a.password}`);
    writeFileSync(file, `# Initial accounts (change these passwords)\n${lines.join('\n')}\n`, { mode: 0o600 });
    // Printed once, on the first start only.
    console.log(`\nInitial accounts (also in ${file}):\n${lines.map((l) => '  ' + l).join('\n')}\n`);
  }
  logger.info({ accounts: accounts.map((a) => a.email) }, 'seeded first start');
  return { created: true, accounts };
}
