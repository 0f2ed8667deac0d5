import { Tag } from '@blueprintjs/core';
import { HEX_COLOR_PATTERN } from '@shared/schemas/catalog-fields';
import { readableTextColor } from './readable-text-color';

/** A tag as contacts show it: its name on its own colour, in a text colour that stays legible. */
export function TagColorChip({ name, color, muted }: { name: string; color: string; muted?: boolean }) {
  const valid = HEX_COLOR_PATTERN.test(color);
  return (
    <Tag
      round
      className="tag-color-chip"
      style={valid ? { background: color, color: readableTextColor(color), opacity: muted ? 0.55 : 1 } : undefined}
      data-testid="tag-chip"
    >
      {name}
    </Tag>
  );
}
