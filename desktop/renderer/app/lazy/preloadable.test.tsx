import { Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

const Hello = ({ name }: { name: string }) => <b>olá {name}</b>;
const page = (Component: ComponentType<{ name: string }>) =>
  renderToString(
    <Suspense fallback={<i>carregando</i>}>
      <Component name="Maria" />
    </Suspense>,
  );

describe('preloadable', () => {
  it('suspends before its chunk is in, and renders at once (no fallback) after preload', async () => {
    let loads = 0;
    const screen = preloadable(
      async () => {
        loads++;
        return { Hello };
      },
      (m) => m.Hello,
    );
    expect(page(screen.Component)).toContain('carregando');
    await screen.preload();
    await screen.preload();
    expect(loads).toBe(1);
    const html = page(screen.Component);
    expect(html).toContain('olá <!-- -->Maria');
    expect(html).not.toContain('carregando');
  });

  it('a failed load is tried again by the next preload', async () => {
    let attempt = 0;
    const screen = preloadable(
      async () => {
        attempt++;
        if (attempt === 1) throw new Error('chunk gone (a deploy)');
        return { Hello };
      },
      (m) => m.Hello,
    );
    await expect(screen.preload()).rejects.toThrow('chunk gone');
    await screen.preload();
    expect(attempt).toBe(2);
    expect(page(screen.Component)).toContain('Maria');
  });
});
