import { isDraft, original } from '@reduxjs/toolkit';

/**
 * The plain array behind an immer draft, for reading: scanning a draft array creates a proxy per
 * element (and finalising walks them all), which costs tens of milliseconds on a list of thousands
 * of tickets. Only valid before the draft is mutated (its indices are the draft's until then).
 */
export const unmodifiedRows = <T>(rows: T[]): readonly T[] => (isDraft(rows) ? ((original(rows as unknown as object) as T[] | undefined) ?? rows) : rows);
