import { CONTACT_SEARCH_MIN_CHARS } from '@shared/limits';
import type { ContactFilters } from '@shared/schemas/contacts';

/**
 * The SQL of a contact as the presenter wants it, with its tags and wallets aggregated by
 * correlated subqueries, so a page of contacts is one query (LESSONS item 4) whatever its size.
 * `birthday` is read as text: a `date` has no time zone and must not become a JS Date.
 */
export const CONTACT_SELECT = `
  SELECT c.id, c."tenantId", c.name, c.number, c.email, c."cpfCnpj", to_char(c.birthday, 'YYYY-MM-DD') AS birthday,
         c."firstName", c."lastName", c."businessName", c."messengerId", c."instagramId", c."hubWhatsappId",
         c."telegramId", c."profilePicUrl", c."isGroup", c."kanbanId", c."extraInfo", c."blockContact",
         c."blockChatbot", c."createdAt", c."updatedAt",
         COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) ORDER BY lower(t.name), t.id)
                     FROM contact_tags ct JOIN tags t ON t.id = ct."tagId"
                    WHERE ct."contactId" = c.id), '[]'::json) AS tags,
         COALESCE((SELECT json_agg(json_build_object('id', u.id, 'name', u.name) ORDER BY lower(u.name), u.id)
                     FROM contact_wallets cw JOIN users u ON u.id = cw."userId"
                    WHERE cw."contactId" = c.id), '[]'::json) AS wallets
    FROM contacts c`;

/** List and export order; served by the index contacts_tenant_name_idx ("tenantId", lower(name), id). */
export const CONTACT_ORDER = `ORDER BY lower(c.name), c.id`;

/** `%` and `_` typed by the user are literal characters, not wildcards. */
const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * The searched expressions, textually equal to the trigram indexes of migration
 * 1763760000000-contact-search (the planner matches index expressions by their text):
 * name and e-mail without accents in lower case, the number's digits only.
 */
export const SEARCH_NAME = `lower(public.immutable_unaccent(c.name))`;
export const SEARCH_EMAIL = `lower(public.immutable_unaccent(c.email))`;
export const SEARCH_NUMBER = `regexp_replace(c.number, '\\D', '', 'g')`;

/** A fragment of a phone number as people type it: digits and the usual separators only. */
const NUMBER_LIKE = /^\+?[\d\s().\-/]+$/;

/**
 * WHERE clause of the list, the count and the export. Starts from the caller's tenant
 * (ARCHITECTURE: Tenancy); every value is a bind parameter appended to `params`.
 * - searchParam (from CONTACT_SEARCH_MIN_CHARS characters): the name or the e-mail contains it,
 *   ignoring case and accents ("joao" finds "João"); a fragment of a phone number ("(11) 9876")
 *   also matches the numbers that contain its digits. The term is folded by the same SQL
 *   functions as the indexed columns, so both sides always agree. From 3 characters the
 *   trigram indexes answer; a 2-character fragment has no trigram, and the planner reads the
 *   tenant's contacts in name order until the page is full (such fragments are common).
 * - tags / wallets: the contact has any of the given tags / responsible users.
 * - kanbanId: the contact is in that kanban column.
 */
export function contactFilterSql(tenantId: number, filters: ContactFilters, params: unknown[]): string {
  const bind = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [`c."tenantId" = ${bind(tenantId)}`];
  const term = filters.searchParam?.trim() ?? '';
  if (term.length >= CONTACT_SEARCH_MIN_CHARS) {
    const like = `'%' || lower(public.immutable_unaccent(${bind(escapeLike(term))}::text)) || '%'`;
    const matches = [`${SEARCH_NAME} LIKE ${like}`, `${SEARCH_EMAIL} LIKE ${like}`];
    const digits = term.replace(/\D/g, '');
    if (NUMBER_LIKE.test(term) && digits.length >= CONTACT_SEARCH_MIN_CHARS) {
      matches.push(`${SEARCH_NUMBER} LIKE ${bind(`%${digits}%`)}`);
    }
    where.push(`(${matches.join(' OR ')})`);
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
  return `WHERE ${where.join(' AND ')}`;
}
