/**
 * Black or white text for a chip of the given #rgb/#rrggbb background, by the WCAG relative
 * luminance: whichever contrasts more. Tenants pick any colour, including pale ones.
 */
export function readableTextColor(background: string): '#111418' | '#ffffff' {
  let hex = background.replace('#', '');
  if (hex.length === 3) hex = hex.replace(/./g, (c) => c + c);
  if (!/^[0-9a-f]{6}$/i.test(hex)) return '#111418';
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
  // Contrast with black (L + 0.05) / 0.05 against white 1.05 / (L + 0.05).
  return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) ? '#111418' : '#ffffff';
}
