/**
 * A customer's text as keyword rules compare it (closing keyword, auto-reply words): trimmed,
 * lower case, accents removed, inner spaces collapsed. "  Encerrar " and "ENCERRÁR" are one word.
 */
export function foldForMatch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase().replace(/\s+/g, ' ');
}
