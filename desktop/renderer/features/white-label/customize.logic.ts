/** One colour of the palette as the screen edits it (spec section 3: { colourName: value }, with an optional label). */
export interface ColorEntry {
  name: string;
  value: string;
  label?: string;
}

const DESCRIPTIVE_KEYS = new Set(['label', 'name', 'id', 'description']);

/** The palette's entries, one per colour ({ label: 'Primary', primary: '#3b5bdb' } -> primary). */
export function colorEntriesOf(colors: Record<string, string>[]): ColorEntry[] {
  const out: ColorEntry[] = [];
  for (const entry of colors) {
    const label = typeof entry.label === 'string' ? entry.label : undefined;
    for (const [name, value] of Object.entries(entry)) {
      if (DESCRIPTIVE_KEYS.has(name) || typeof value !== 'string') continue;
      out.push({ name, value, ...(label ? { label } : {}) });
    }
  }
  return out;
}

/** Back to the stored form, one object per colour, keeping its label. */
export function colorsFromEntries(entries: ColorEntry[]): Record<string, string>[] {
  return entries.map((e) => (e.label ? { label: e.label, [e.name]: e.value } : { [e.name]: e.value }));
}
