import {
  templatePlaceholders,
  type StoredTemplateDto,
  type TemplateComponent,
  type TemplateSyncResult,
} from '@shared/schemas/templates';
import type { WabaMessageTemplate } from '../../channels/waba/waba-adapter';
import type { Queryable } from '../../core/tenant-catalog';

/** A message_templates row. */
export interface StoredTemplateRow {
  id: number;
  tenantId: number;
  channelId: number;
  providerId: string;
  name: string;
  language: string;
  status: string;
  category: string | null;
  components: TemplateComponent[];
  syncedAt: Date | string;
}

export function presentTemplate(row: StoredTemplateRow): StoredTemplateDto {
  const counts = templatePlaceholders(row.components);
  return {
    id: row.providerId,
    name: row.name,
    language: row.language,
    status: row.status,
    category: row.category,
    bodyVariables: counts.body,
    variables: { header: counts.header, body: counts.body, buttons: counts.buttons.length, headerMedia: counts.headerMedia },
    components: row.components,
    syncedAt: new Date(row.syncedAt).toISOString(),
  };
}

/** The channel's stored templates, by name then language. */
export async function storedTemplates(db: Queryable, tenantId: number, channelId: number): Promise<StoredTemplateRow[]> {
  return (await db.query(
    `SELECT * FROM message_templates WHERE "tenantId" = $1 AND "channelId" = $2 ORDER BY name, language`,
    [tenantId, channelId],
  )) as StoredTemplateRow[];
}

export async function findStoredTemplate(
  db: Queryable,
  tenantId: number,
  channelId: number,
  name: string,
  language: string,
): Promise<StoredTemplateRow | null> {
  const [row] = (await db.query(
    `SELECT * FROM message_templates WHERE "tenantId" = $1 AND "channelId" = $2 AND name = $3 AND language = $4`,
    [tenantId, channelId, name, language],
  )) as StoredTemplateRow[];
  return row ?? null;
}

/**
 * Replaces the channel's stored templates with the ones Meta listed: new ones inserted, known
 * ones (same name and language) updated, the ones Meta no longer lists removed. One statement
 * per template, in the caller's transaction.
 */
export async function saveSyncedTemplates(
  db: Queryable,
  tenantId: number,
  channelId: number,
  listed: readonly WabaMessageTemplate[],
  now: Date,
): Promise<TemplateSyncResult['counts']> {
  let created = 0;
  let updated = 0;
  const seen = new Map<string, WabaMessageTemplate>();
  for (const t of listed) if (t.name && t.language) seen.set(`${t.name}\u0000${t.language}`, t);
  for (const t of seen.values()) {
    const [row] = (await db.query(
      `INSERT INTO message_templates ("tenantId", "channelId", "providerId", name, language, status, category, components, "syncedAt")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)
       ON CONFLICT ("channelId", name, language) DO UPDATE
         SET "providerId" = EXCLUDED."providerId", status = EXCLUDED.status, category = EXCLUDED.category,
             components = EXCLUDED.components, "syncedAt" = EXCLUDED."syncedAt"
       RETURNING (xmax = 0) AS inserted`,
      [tenantId, channelId, t.id, t.name, t.language, t.status, t.category, JSON.stringify(t.components), now],
    )) as { inserted: boolean }[];
    if (row?.inserted) created++;
    else updated++;
  }
  const keys = [...seen.values()].map((t) => `${t.name}\u0001${t.language}`);
  const deleted: unknown = await db.query(
    `DELETE FROM message_templates
      WHERE "tenantId" = $1 AND "channelId" = $2 AND NOT (name || chr(1) || language = ANY($3::text[])) RETURNING id`,
    [tenantId, channelId, keys],
  );
  // TypeORM answers a DELETE as [rows, count].
  const removed = Array.isArray(deleted) && Array.isArray(deleted[0]) ? deleted[0].length : Array.isArray(deleted) ? deleted.length : 0;
  return { total: seen.size, created, updated, removed };
}
