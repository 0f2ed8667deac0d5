/**
 * The composer's quick-message rule (spec section 5): a text that starts with a slash names a
 * quick message by its key. No match is an error, several matches require choosing one, and an
 * empty message is an error. Pure, so the desktop and web composers behave the same.
 */

export interface QuickMessageCandidate {
  key: string;
  active?: boolean;
}

export type QuickMessageCommand<T extends QuickMessageCandidate> =
  /** Nothing to send. */
  | { kind: 'empty' }
  /** Ordinary text: send as typed. */
  | { kind: 'text'; text: string }
  /** `/key` matched no active quick message. */
  | { kind: 'noMatch'; query: string }
  /** Exactly one quick message: use it. */
  | { kind: 'match'; quickMessage: T }
  /** Several quick messages start with what was typed: the agent picks one. */
  | { kind: 'choose'; query: string; options: T[] };

/**
 * Reads what the agent typed. `/` alone lists every active quick message; `/ab` matches keys
 * starting with `ab` (case-insensitive), and a key equal to the query wins over longer ones. A
 * slash followed by spaces is ordinary text (keys never contain spaces).
 */
export function resolveQuickMessageCommand<T extends QuickMessageCandidate>(
  input: string,
  quickMessages: readonly T[],
): QuickMessageCommand<T> {
  const text = input.trim();
  if (text.length === 0) return { kind: 'empty' };
  if (!text.startsWith('/') || /\s/.test(text)) return { kind: 'text', text: input };
  const query = text.slice(1).toLowerCase();
  const active = quickMessages.filter((q) => q.active !== false);
  const exact = active.find((q) => q.key.toLowerCase() === query);
  if (exact && query.length > 0) return { kind: 'match', quickMessage: exact };
  const options = active
    .filter((q) => q.key.toLowerCase().startsWith(query))
    .sort((a, b) => a.key.localeCompare(b.key, 'pt-BR', { sensitivity: 'base' }));
  if (options.length === 0) return { kind: 'noMatch', query: text.slice(1) };
  if (options.length === 1) return { kind: 'match', quickMessage: options[0] };
  return { kind: 'choose', query: text.slice(1), options };
}

/** A quick message with neither text nor file would send nothing (spec section 5: empty is an error). */
export const isSendableQuickMessage = (q: { message?: string | null; mediaName?: string | null }): boolean =>
  (q.message ?? '').trim().length > 0 || Boolean(q.mediaName);
