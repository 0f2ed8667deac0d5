/**
 * White-label colours (GET /publicSystemColors, spec section 3 "System colours"): a list of
 * `{ colourName: cssValue }` objects, applied as CSS variables `--<colourName>` on the document.
 * Names and values come from the network, so both are checked before they reach the style sheet.
 */
const NAME = /^[a-zA-Z][\w-]{0,63}$/;
// Colours only: hex, rgb()/hsl() and friends, or a named colour. No url(), no expressions.
const VALUE = /^(#[0-9a-fA-F]{3,8}|(rgb|rgba|hsl|hsla|oklch|oklab|lab|lch)\([\d\s.,%/+-]+\)|[a-zA-Z]{3,30})$/;

export function toCssVariables(colors: unknown): Record<string, string> {
  const list = Array.isArray(colors) ? colors : colors && typeof colors === 'object' ? [colors] : [];
  const out: Record<string, string> = {};
  for (const entry of list) {
    if (!entry || typeof entry !== 'object') continue;
    for (const [name, value] of Object.entries(entry as Record<string, unknown>)) {
      if (typeof value !== 'string' || !NAME.test(name)) continue;
      const css = value.trim();
      if (VALUE.test(css)) out[`--${name}`] = css;
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
