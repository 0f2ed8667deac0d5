import { findMessageVariables, greetingForHour, renderMessageVariables, type MessageVariable } from '@shared/message-variables';
import { BUSINESS_TIME_ZONE, hourInTimeZone } from '@shared/schemas/messages';
import { isIanaTimeZone } from '@shared/schemas/settings';
import type { Queryable } from '../../core/tenant-catalog';

interface VariableSource {
  contactName: string | null;
  contactFirstName: string | null;
  contactLastName: string | null;
  email: string | null;
  number: string | null;
  businessName: string | null;
  protocol: string | null;
  kanban: string | null;
  userName: string | null;
  userEmail: string | null;
  timeZone: string | null;
}

/**
 * Fills the message variables of spec section 2 (`{{name}}`, `{{greeting}}`, ...) when a message
 * is sent: the contact and ticket of the message, the sending agent, and the greeting by the
 * hour in the tenant's time zone (setting `timeZone`). A text without variables costs no query.
 * Agents' messages, schedules, birthday, farewell and rating messages all go through here.
 */
export async function renderForTicket(
  db: Queryable,
  text: string,
  ctx: { tenantId: number; ticketId: number; userId: number | null; now: Date },
): Promise<string> {
  if (findMessageVariables(text).length === 0) return text;
  const [src] = (await db.query(
    `SELECT c.name AS "contactName", c."firstName" AS "contactFirstName", c."lastName" AS "contactLastName",
            c.email, c.number, c."businessName", t.protocol, k.name AS kanban,
            u.name AS "userName", u.email AS "userEmail",
            (SELECT s.value FROM settings s WHERE s."tenantId" = t."tenantId" AND s.key = 'timeZone') AS "timeZone"
       FROM tickets t
       JOIN contacts c ON c.id = t."contactId"
       LEFT JOIN kanbans k ON k.id = COALESCE(t."kanbanId", c."kanbanId") AND k."tenantId" = t."tenantId"
       LEFT JOIN users u ON u.id = $3 AND u."tenantId" = t."tenantId"
      WHERE t.id = $1 AND t."tenantId" = $2`,
    [ctx.ticketId, ctx.tenantId, ctx.userId],
  )) as VariableSource[];
  return renderMessageVariables(text, variableValues(src ?? null, ctx.now));
}

export function variableValues(
  src: (Omit<VariableSource, 'timeZone'> & { timeZone?: string | null }) | null,
  now: Date,
): Partial<Record<MessageVariable, string | null>> {
  const name = src?.contactName?.trim() ?? '';
  const words = name.split(/\s+/).filter(Boolean);
  const zone = src?.timeZone && isIanaTimeZone(src.timeZone) ? src.timeZone : BUSINESS_TIME_ZONE;
  return {
    name,
    greeting: greetingForHour(hourInTimeZone(now, zone)),
    protocol: src?.protocol ?? null,
    email: src?.email ?? null,
    phoneNumber: src?.number ?? null,
    kanban: src?.kanban ?? null,
    user: src?.userName ?? null,
    userEmail: src?.userEmail ?? null,
    firstName: src?.contactFirstName?.trim() || words[0] || '',
    lastName: src?.contactLastName?.trim() || (words.length > 1 ? words[words.length - 1] : ''),
    businessName: src?.businessName ?? null,
  };
}
