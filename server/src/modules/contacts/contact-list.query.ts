import { CONTACT_SEARCH_MIN_CHARS } from '@shared/limits';
import type { ContactFilters } from '@shared/schemas/contacts';

/**
 * The SQL of a contact as the presenter wants it, with its tags and wallets aggregated by
 * correlated subqueries, so a page of contacts is one query (LESSONS item 4) whatever its size.
 * `birthday` is read as text: a `date` has no time zone and must not become a JS Date.
 */
export const CONTACT_COLUMNS = `
         c.id, c."tenantId", c.name, c.number, c.email, c."cpfCnpj", to_char(c.birthday, 'YYYY-MM-DD') AS birthday,
         c."firstName", c."lastName", c."businessName", c."messengerId", c."instagramId", c."hubWhatsappId",
         c."telegramId", c."profilePicUrl", c."isGroup", c."kanbanId", c."extraInfo", c."blockContact",
         c."blockChatbot", c."createdAt", c."updatedAt",
         COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) ORDER BY lower(t.name), t.id)
                     FROM contact_tags ct JOIN tags t ON t.id = ct."tagId"
                    WHERE ct."contactId" = c.id), '[]'::json) AS tags,
         COALESCE((SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY lower(u.name), u.id)
                     FROM contact_wallets cw JOIN users u ON u.id = cw."userId"
                    WHERE cw."contactId" = c.id), '[]'::json) AS wallets`;
export const CONTACT_SELECT = `SELECT ${CONTACT_COLUMNS} FROM contacts c`;

/** List and export order; served by the index contacts_tenant_name_idx ("tenantId", lower(name), id). */
export const CONTACT_ORDER = `ORDER BY lower(c.name), c.id`;

/** `%` and `_` typed by the user are literal characters, not wildcards. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A fragment of a phone number as people type it: digits and the usual separators only. */
const NUMBER_LIKE = /^\+?[\d\s().\-/]+$/;

/**
 * WHERE clause of the list, the count and the export. Starts from the caller's tenant
 * (ARCHITECTURE: Tenancy); every value is a bind parameter appended to `params`.
 */
export function contactFilterSql(tenantId: number, filters: ContactFilters, params: unknown[]): string {
  const { tenant, rest } = contactFilterConditions(tenantId, filters, params);
  return `WHERE ${[tenant, ...rest].join(' AND ')}`;
}

/**
 * The conditions of contactFilterSql: the tenant's, and the filters' (which read only c.id,
 * c."kanbanId", c."searchText" and c."searchDigits", so they also apply to a subquery named c).
 * - searchParam (from CONTACT_SEARCH_MIN_CHARS characters): the name or the e-mail contains it,
 *   ignoring case and accents ("joao" finds "João"); a fragment of a phone number ("(11) 9876")
 *   also matches the numbers that contain its digits. The term is folded by the same SQL
 *   functions as the generated columns (migration 1763760000000), so both sides always agree.
 *   From 3 characters the trigram indexes find the rows; a 2-character fragment has no trigram
 *   and is answered by reading the tenant's contacts in name order (see ContactsService.list).
 * - tags / wallets: the contact has any of the given tags / responsible users.
 * - kanbanId: the contact is in that kanban column.
 */
export function contactFilterConditions(
  tenantId: number,
  filters: ContactFilters,
  params: unknown[],
): { tenant: string; rest: string[] } {
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const tenant = `c."tenantId" = ${bind(tenantId)}`;
  const where: string[] = [];
  const term = filters.searchParam?.trim() ?? '';
  if (term.length >= CONTACT_SEARCH_MIN_CHARS) {
    const matches = [`c."searchText" LIKE '%' || lower(public.immutable_unaccent(${bind(escapeLike(term))}::text)) || '%'`];
    const digits = term.replace(/\D/g, '');
    if (NUMBER_LIKE.test(term) && digits.length >= CONTACT_SEARCH_MIN_CHARS) {
      matches.push(`c."searchDigits" LIKE ${bind(`%${digits}%`)}`);
    }
    where.push(matches.length > 1 ? `(${matches.join(' OR ')})` : matches[0]);
  }
  if (filters.tags?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM contact_tags ft WHERE ft."contactId" = c.id AND ft."tagId" = ANY(${bind(filters.tags)}::int[]))`,
    );
  }
  if (filters.wallets?.length) {
    where.push(
      `EXISTS (SELECT 1 FROM contact_wallets fw WHERE fw."contactId" = c.id AND fw."userId" = ANY(${bind(filters.wallets)}::int[]))`,
    );
  }
  if (filters.kanbanId) where.push(`c."kanbanId" = ${bind(filters.kanbanId)}`);
  return { tenant, rest: where };
}
