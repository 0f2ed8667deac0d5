/** The download name of an exported chatbot flow: `fluxo-<letters, digits and dashes of its name>.json`. */
export function chatFlowFileName(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `fluxo-${slug || 'chatbot'}.json`;
}
