import { CATALOG_NAME_MAX, CATALOG_TEXT_MAX, HEX_COLOR_PATTERN } from '@shared/schemas/catalog-fields';
import type { TFunction } from 'i18next';

/**
 * The field rules of the CRM catalog forms, checked before sending so the user reads them next
 * to the field and in their language. The limits come from the shared zod schemas the server
 * validates with (shared/schemas/catalog-fields.ts), so both sides agree.
 */
export type FieldFailure = { kind: 'required' } | { kind: 'tooLong'; max: number } | { kind: 'invalidColor' };

export function checkName(name: string): FieldFailure | null {
  const trimmed = name.trim();
  if (trimmed === '') return { kind: 'required' };
  if (trimmed.length > CATALOG_NAME_MAX) return { kind: 'tooLong', max: CATALOG_NAME_MAX };
  return null;
}

export function checkColor(color: string): FieldFailure | null {
  return HEX_COLOR_PATTERN.test(color.trim()) ? null : { kind: 'invalidColor' };
}

export function checkText(text: string, max: number = CATALOG_TEXT_MAX): FieldFailure | null {
  return text.trim().length > max ? { kind: 'tooLong', max } : null;
}

export function describeFieldFailure(failure: FieldFailure, t: TFunction): string {
  switch (failure.kind) {
    case 'required':
      return t('validation.required');
    case 'tooLong':
      return t('crud.validation.tooLong', { max: failure.max });
    case 'invalidColor':
      return t('crud.validation.invalidColor');
  }
}

/** Only the failures that exist, as field -> text, for the form's helper texts. */
export function fieldTexts<F extends string>(failures: Record<F, FieldFailure | null>, t: TFunction): Partial<Record<F, string>> {
  const texts: Partial<Record<F, string>> = {};
  for (const [field, failure] of Object.entries(failures) as [F, FieldFailure | null][]) {
    if (failure) texts[field] = describeFieldFailure(failure, t);
  }
  return texts;
}

/** A random pleasant colour for a new item, so two new tags do not look alike. */
export const DEFAULT_COLORS = ['#1c7ed6', '#2f9e44', '#e8590c', '#9c36b5', '#c2255c', '#0c8599', '#f08c00', '#5c7cfa'] as const;
export const pickDefaultColor = (index: number): string => DEFAULT_COLORS[Math.abs(index) % DEFAULT_COLORS.length];
