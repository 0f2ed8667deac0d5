import type { Queryable } from '../../core/tenant-catalog';

/** The stored SMTP settings of the platform (table platform_mail_settings, one row). */
export interface StoredMailSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  password: string | null;
  from: string;
}

export async function readPlatformMailSettings(db: Queryable): Promise<StoredMailSettings | null> {
  const rows: StoredMailSettings[] = await db.query(
    `SELECT host, port, secure, "user", password, "from" FROM platform_mail_settings WHERE id = 1`,
  );
  return rows[0] ?? null;
}
