// A lazily loaded component that renders in the same commit as its parent once its chunk is in. React.lazy
// suspends on its first render even when the module arrived long before (its status is learnt a microtask
// later), so a view shown by a click would flash its fallback and mount one commit late; a component that
// subscribes to events on mount (the Control plane's token feed) would miss what arrived in between. Here the
// chunk is fetched once (preload() right after the first paint, or the first render, whichever comes first) and
// kept: from then on the component is an ordinary synchronous one.
import { use } from 'react';
import type { ComponentType } from 'react';

export interface Preloadable<P extends object> {
  Component: ComponentType<P>;
  /** Starts fetching the chunk (once); resolves when it can render synchronously. */
  preload(): Promise<unknown>;
}

export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        // A failed fetch (offline, a deploy replaced the chunk) may be retried by the next render.
        pending = undefined;
        throw err;
      },
    ));
  function PreloadableComponent(props: P) {
    const Loaded = loaded ?? use(preload());
    return <Loaded {...props} />;
  }
  return { Component: PreloadableComponent, preload };
}
