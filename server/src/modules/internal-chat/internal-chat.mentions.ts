/**
 * `@Name` mentions in an internal-chat message. A candidate (a user of the conversation other
 * than the author) is mentioned when the text has `@` followed by their whole name, case and
 * accents aside, and then no further letter or digit ("@Ana" does not mention "Ana Paula" unless
 * the text goes on with " Paula"; "@Anabela" mentions neither). Longer names are tried first,
 * so "@Ana Paula" mentions "Ana Paula" and not also "Ana".
 */
const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('pt-BR');

const WORD_CHAR = /[\p{L}\p{N}_]/u;

export function mentionedUserIds(body: string, candidates: readonly { id: number; name: string }[]): number[] {
  if (!body.includes('@')) return [];
  const text = fold(body);
  const names = candidates
    .map((c) => ({ id: c.id, name: fold(c.name.trim()) }))
    .filter((c) => c.name.length > 0)
    .sort((a, b) => b.name.length - a.name.length);
  const found = new Set<number>();
  /** Text positions already taken by a longer name's mention. */
  const taken = new Set<number>();
  for (const candidate of names) {
    let from = 0;
    for (;;) {
      const at = text.indexOf(`@${candidate.name}`, from);
      if (at < 0) break;
      from = at + 1;
      if (taken.has(at)) continue;
      const after = text.charAt(at + 1 + candidate.name.length);
      if (after && WORD_CHAR.test(after)) continue;
      taken.add(at);
      found.add(candidate.id);
    }
  }
  return [...found];
}
