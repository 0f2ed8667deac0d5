import type { ContactWriteBody } from '../../../api/contacts.api';

/** Contact fields the panel edits inline, one at a time (PUT /contacts/{id} with that field only). */
export const INLINE_FIELDS = ['name', 'number', 'email', 'cpfCnpj', 'birthday', 'firstName', 'lastName', 'businessName'] as const;
export type InlineField = (typeof INLINE_FIELDS)[number];

const digits = (text: string) => text.replace(/\D/g, '');

/**
 * The PUT body of one inline edit, or null when nothing changed. An emptied optional field is
 * cleared (`null`); the name cannot be emptied (the server answers the required error).
 * Numbers and CPF/CNPJ compare by their digits (the display adds punctuation).
 */
export function inlineFieldBody(field: InlineField, draft: string, stored: string | null): ContactWriteBody | null {
  const text = draft.trim();
  if (field === 'number' || field === 'cpfCnpj') {
    if (digits(text) === digits(stored ?? '')) return null;
    return { [field]: text ? digits(text) : null };
  }
  if (field === 'birthday') {
    // Stored yyyy-MM-dd, typed dd/MM/yyyy: the server reads both.
    const iso = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
    if (iso && `${iso[3]}-${iso[2]}-${iso[1]}` === stored) return null;
    if (!text && !stored) return null;
    return { birthday: text || null };
  }
  if (text === (stored ?? '')) return null;
  if (field === 'name') return { name: text };
  return { [field]: text || null };
}
