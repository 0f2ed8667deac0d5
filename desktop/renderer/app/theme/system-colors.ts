/**
 * White-label colours (GET /publicSystemColors, spec section 3 "System colours"): a list of
 * `{ colourName: cssValue }` objects, applied as CSS variables `--<colourName>` on the document.
 * Names and values come from the network, so both are checked before they reach the style sheet.
 */
const NAME = /^[a-zA-Z][\w-]{0,63}$/;
// Colours only: hex, rgb()/hsl() and friends, or a named colour. No url(), no expressions.
const VALUE = /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla|oklch|oklab|lab|lch)\([\d\s.,%/+-]+\)|[a-zA-Z]{3,30})$/;

/** Keys that describe an entry rather than name a colour ({ label: 'Primary', primary: '#3b5bdb' }). */
const DESCRIPTIVE_KEYS = new Set(['label', 'name', 'id', 'description']);

/**
 * `isColor` lets the browser decide (CSS.supports('color', v)); the default pattern is what the
 * unit tests and non-browser callers use.
 */
export function toCssVariables(
  colors: unknown,
  isColor: (value: string) => boolean = (value) => VALUE.test(value),
): Record<string, string> {
  const list = Array.isArray(colors) ? colors : colors && typeof colors === 'object' ? [colors] : [];
  const out: Record<string, string> = {};
  for (const entry of list) {
    if (!entry || typeof entry !== 'object') continue;
    for (const [name, value] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof value !== 'string' || !NAME.test(name) || DESCRIPTIVE_KEYS.has(name)) continue;
      const css = value.trim();
      // The pattern always applies (no url(), no ';'); the browser check narrows it to real colours.
      if (VALUE.test(css) && isColor(css)) out[`--${name}`] = css;
    }
  }
  return out;
}

export function applyCssVariables(
  variables: Record<string, string>,
  root: { style: { setProperty(name: string, value: string): void } },
): void {
  for (const [name, value] of Object.entries(variables)) root.style.setProperty(name, value);
}

/** The browser's own judgement of a colour value. */
export const isCssColor = (value: string): boolean => typeof CSS !== 'undefined' && CSS.supports('color', value);
