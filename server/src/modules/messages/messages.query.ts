import type { Queryable } from '../../core/tenant-catalog';
import type { MessageRow } from './messages.presenter';

/**
 * The columns of a message as presented, with the quoted message's summary joined in (one query
 * per page, never one per message). Only the parts of `dataJson` the presenter needs are read:
 * inbound payloads kept there can be large. `source` is the table, or a CTE of rows just written
 * by the same statement (INSERT ... RETURNING *). The quoted message is looked up by its key for
 * each row (LIMIT 1 keeps the planner from turning it into a join): a plan kept for a named
 * statement, made while the table looked small, must not scan every message.
 */
export const messageSelectFrom = (source: string) => `
  SELECT m.id, m."tenantId", m."messageId", m."clientId", m."ticketId", m."contactId", m."userId", m."whatsappId",
         m.body, m."fromMe", m."mediaType", m."mediaName", m."mimeType", (m."mediaPath" IS NOT NULL) AS "hasMedia",
         m."quotedMsgId", m.status, m.ack, m.read, m.reactions, m."isEdited", m."isDeleted", m."isSync", m."isPrivate",
         m."scheduleDate", m."sendAttempts", m."nextRetryAt", m."lastError", m.unconfirmed,
         m."dataJson"->'buttons' AS buttons, m."dataJson"->'schedule' AS schedule,
         m.timestamp, m."createdAt", m."updatedAt",
         q.id AS q_id, q.body AS q_body, q."fromMe" AS "q_fromMe", q."mediaType" AS "q_mediaType",
         q."mediaName" AS "q_mediaName", q."isDeleted" AS "q_isDeleted"
    FROM ${source} m
    LEFT JOIN LATERAL (
      SELECT q.id, q.body, q."fromMe", q."mediaType", q."mediaName", q."isDeleted"
        FROM messages q WHERE q.id = m."quotedMsgId" AND q."tenantId" = m."tenantId" LIMIT 1
    ) q ON true`;

export const MESSAGE_SELECT = messageSelectFrom('messages');

/** Messages by id, in the order of `ids`. */
export async function selectMessagesByIds(db: Queryable, ids: readonly number[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  const rows: MessageRow[] = await db.query(`${MESSAGE_SELECT} WHERE m.id = ANY($1::bigint[])`, [[...ids]]);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.map((id) => byId.get(id)).filter((r): r is MessageRow => r !== undefined);
}

export async function selectMessage(db: Queryable, id: number): Promise<MessageRow | null> {
  const [row] = await selectMessagesByIds(db, [id]);
  return row ?? null;
}

/**
 * Rows of an UPDATE/DELETE ... RETURNING: TypeORM answers those statements with
 * [rows, affected], and SELECT/INSERT with the rows alone.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
