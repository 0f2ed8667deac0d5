import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Presence (issue #18): `away` refines `isOnline`. A user is offline when not online, away when
 * online and every connected app of theirs reported idle, online otherwise (presenceOf in
 * server/src/modules/users/presence.ts). Every writer of `isOnline` writes `away` too.
 */
export class UserPresence1763908000000 implements MigrationInterface {
  name = 'UserPresence1763908000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN away boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN away`);
  }
}
