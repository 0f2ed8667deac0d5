/**
 * Arithmetic of the slider captcha: the handle must be dragged (or moved with the keyboard)
 * all the way to the end of the track. Positions are in pixels from the left edge, 0..max.
 */

/** How close to the end counts as the end: hands are not pixel-exact. */
export const COMPLETE_TOLERANCE_PX = 4;
/** A key press moves a tenth of the track. */
export const KEY_STEP_FRACTION = 0.1;

export const clamp = (value: number, max: number): number => Math.min(Math.max(value, 0), Math.max(max, 0));

/** Where the handle is while dragging: its start plus how far the pointer moved. */
export function dragPosition(startPosition: number, pointerStartX: number, pointerX: number, max: number): number {
  return clamp(startPosition + (pointerX - pointerStartX), max);
}

export function isComplete(position: number, max: number): boolean {
  return max > 0 && position >= max - COMPLETE_TOLERANCE_PX;
}

/** New position for a key, or null when the key does not move the slider. */
export function keyboardPosition(key: string, position: number, max: number): number | null {
  const step = Math.max(1, Math.round(max * KEY_STEP_FRACTION));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(position + step, max);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(position - step, max);
    case 'Home':
      return 0;
    case 'End':
      return max;
    default:
      return null;
  }
}

/** aria-valuenow as a percentage. */
export const percent = (position: number, max: number): number => (max > 0 ? Math.round((clamp(position, max) / max) * 100) : 0);
