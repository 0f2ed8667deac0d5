import { CONTACT_SEARCH_MIN_CHARS } from '@shared/limits';
import type { ContactDto, ContactListResponse } from '@shared/schemas/contacts';

/**
 * How a `contact:update` event changes one cached page of GET /contacts, as a pure function.
 * A contact edited in place (same name, still matching the page's filters) is patched; anything
 * that can move rows between pages or change the count (a create, a delete, a rename, a contact
 * entering or leaving the filters, an import) refetches the page instead of guessing.
 */

export interface ContactListArgs {
  searchParam?: string;
  tags?: number[];
  wallets?: number[];
  kanbanId?: number | null;
  pageNumber: number;
  pageSize: number;
}

export type ContactPageChange = { kind: 'keep' } | { kind: 'patch'; contact: ContactDto } | { kind: 'refetch' };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isContact = (value: unknown): value is ContactDto =>
  isRecord(value) && typeof value.id === 'number' && typeof value.name === 'string' && Array.isArray(value.tags);

/**
 * Lower case without accents, like the server's lower(immutable_unaccent(...)) for the letters
 * people type (unaccent also spells out a few ligatures such as ß and æ; those differ here, and at
 * worst a page is kept when it should be refetched).
 */
const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A fragment of a phone number as people type it (the server's NUMBER_LIKE). */
const NUMBER_LIKE = /^\+?[\d\s().\-/]+$/;

/** The server's filter (server/src/modules/contacts/contact-list.query.ts), read in the browser. */
export function contactMatchesFilters(contact: ContactDto, args: ContactListArgs): boolean {
  if (args.tags?.length && !contact.tags.some((tag) => args.tags!.includes(tag.id))) return false;
  if (args.wallets?.length && !contact.wallets.some((wallet) => args.wallets!.includes(wallet.id))) return false;
  if (args.kanbanId && contact.kanbanId !== args.kanbanId) return false;
  const term = args.searchParam?.trim() ?? '';
  if (term.length >= CONTACT_SEARCH_MIN_CHARS) {
    const needle = fold(term);
    const digits = term.replace(/\D/g, '');
    const hit =
      fold(contact.name).includes(needle) ||
      fold(contact.email ?? '').includes(needle) ||
      (NUMBER_LIKE.test(term) &&
        digits.length >= CONTACT_SEARCH_MIN_CHARS &&
        (contact.number ?? '').replace(/\D/g, '').includes(digits));
    if (!hit) return false;
  }
  return true;
}

export function planContactPageChange(page: ContactListResponse, args: ContactListArgs, payload: unknown): ContactPageChange {
  if (!isRecord(payload)) return { kind: 'refetch' };
  switch (payload.action) {
    case 'update': {
      if (!isContact(payload.contact)) return { kind: 'refetch' };
      const contact = payload.contact;
      const cached = page.contacts.find((row) => row.id === contact.id);
      const matches = contactMatchesFilters(contact, args);
      if (!cached) return matches ? { kind: 'refetch' } : { kind: 'keep' };
      // Same place in the name order and still in the filter: patch it where it is.
      return matches && cached.name === contact.name ? { kind: 'patch', contact } : { kind: 'refetch' };
    }
    case 'create':
      return isContact(payload.contact) && !contactMatchesFilters(payload.contact, args) ? { kind: 'keep' } : { kind: 'refetch' };
    // A delete shifts the following pages and changes the count of every page.
    case 'delete':
    case 'bulk':
    default:
      return { kind: 'refetch' };
  }
}

/** The page with one contact replaced (same position). */
export const patchContactInPage = (page: ContactListResponse, contact: ContactDto): ContactListResponse => ({
  ...page,
  contacts: page.contacts.map((row) => (row.id === contact.id ? contact : row)),
});
