import { describe, expect, it } from 'vitest';
import { dragPosition, isComplete, keyboardPosition, percent } from './slider-captcha.logic';

describe('slider captcha logic', () => {
  it('follows the pointer within the track', () => {
    expect(dragPosition(0, 100, 160, 250)).toBe(60);
    expect(dragPosition(0, 100, 20, 250)).toBe(0);
    expect(dragPosition(0, 100, 900, 250)).toBe(250);
  });
  it('completes only at the end of the track', () => {
    expect(isComplete(250, 250)).toBe(true);
    expect(isComplete(247, 250)).toBe(true);
    expect(isComplete(240, 250)).toBe(false);
    expect(isComplete(0, 0)).toBe(false);
  });
  it('moves with the keyboard', () => {
    expect(keyboardPosition('ArrowRight', 0, 250)).toBe(25);
    expect(keyboardPosition('ArrowLeft', 10, 250)).toBe(0);
    expect(keyboardPosition('End', 0, 250)).toBe(250);
    expect(keyboardPosition('Home', 200, 250)).toBe(0);
    expect(keyboardPosition('a', 0, 250)).toBeNull();
  });
  it('reports a percentage', () => {
    expect(percent(125, 250)).toBe(50);
    expect(percent(5, 0)).toBe(0);
  });
});
