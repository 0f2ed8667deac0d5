/** A template choice in a select: its name and language in one value (`name\u0001language`). */
const SEP = '\u0001';

export const templateKey = (name: string, language: string): string => `${name}${SEP}${language}`;

export function splitTemplateKey(key: string): { name: string; language: string } | null {
  const [name, language] = key.split(SEP);
  return key && name && language ? { name, language } : null;
}
