import { lazy, useState, type ComponentType } from 'react';

type AnyComponent = ComponentType<any>;

export interface Preloadable<P> {
  /** Renders the component: at once when its chunk is already loaded, else through React.lazy (suspends). */
  Component: ComponentType<P>;
  /** Starts loading the chunk (once; a failed load is tried again next time). */
  preload(): Promise<unknown>;
}

/**
 * A code-split component that does not suspend once its chunk is in (issue #13, start-up).
 *
 * React.lazy suspends on its first render even when the import it wraps has already resolved (it
 * learns the result from a `then` callback), so a screen preloaded during start-up still threw
 * its first render away and rendered again; in a transition, everything above it too. Here an
 * instance whose chunk is loaded renders the component itself; one that mounts earlier goes
 * through React.lazy, and keeps that choice for its lifetime (switching would remount it).
 */
export function preloadable<M, P = any>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): Preloadable<P> {
  let pending: Promise<M> | null = null;
  let loaded: ComponentType<P> | null = null;
  const preload = () =>
    (pending ??= load().then(
      (module) => {
        loaded = pick(module);
        return module;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    ));
  const Lazy = lazy(() => preload().then((module) => ({ default: pick(module) as AnyComponent })));
  function Component(props: P) {
    const [Chosen] = useState<AnyComponent>(() => loaded ?? Lazy);
    return <Chosen {...(props as object)} />;
  }
  return { Component, preload };
}
