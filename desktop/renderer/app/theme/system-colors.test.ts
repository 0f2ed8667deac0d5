import { describe, expect, it } from 'vitest';
import { applyCssVariables, toCssVariables } from './system-colors';

describe('toCssVariables', () => {
  it('turns the colour list into CSS variables', () => {
    expect(toCssVariables([{ primary: '#1976D2' }, { secondary: 'rgb(38, 166, 154)', dark: 'black' }])).toEqual({
      '--primary': '#1976D2',
      '--secondary': 'rgb(38, 166, 154)',
      '--dark': 'black',
    });
  });
  it('skips the descriptive keys of an entry', () => {
    expect(toCssVariables([{ label: 'Primary', primary: '#3b5bdb' }])).toEqual({ '--primary': '#3b5bdb' });
  });
  it('lets the browser reject what is not a colour', () => {
    expect(toCssVariables([{ primary: 'Primary', accent: 'red' }], (value) => value === 'red')).toEqual({ '--accent': 'red' });
  });
  it('accepts a single object', () => {
    expect(toCssVariables({ accent: '#9C27B0' })).toEqual({ '--accent': '#9C27B0' });
  });
  it('drops anything that is not a plain colour', () => {
    expect(
      toCssVariables([
        { primary: 'url(javascript:alert(1))' },
        { 'bad name': '#fff' },
        { x: 'red; background: url(x)' },
        { n: 5 },
        null,
        'str',
      ]),
    ).toEqual({});
    expect(toCssVariables(null)).toEqual({});
  });
  it('writes them on the root element', () => {
    const set: [string, string][] = [];
    applyCssVariables({ '--primary': '#000' }, { style: { setProperty: (n, v) => set.push([n, v]) } });
    expect(set).toEqual([['--primary', '#000']]);
  });
});
