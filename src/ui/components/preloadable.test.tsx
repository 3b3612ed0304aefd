// preloadable: once its chunk is in, the component renders in the same pass as its parent (no fallback), the
// chunk is fetched once however many times it is preloaded or rendered, and a failed fetch can be retried.
import { Suspense } from 'react';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { preloadable } from './preloadable';

function Greeting({ name }: { name: string }) {
  return <p>hello {name}</p>;
}

const page = (View: ComponentType<{ name: string }>) =>
  renderToString(
    <main>
      <Suspense fallback={<p>loading</p>}>
        <View name="kubeplay" />
      </Suspense>
    </main>,
  );

describe('preloadable', () => {
  it('shows the fallback while the chunk is on the way, then renders synchronously once preloaded', async () => {
    const load = vi.fn(() => Promise.resolve(Greeting));
    const view = preloadable(load);
    expect(page(view.Component)).toContain('loading');
    await view.preload();
    const html = page(view.Component);
    expect(html).toContain('hello <!-- -->kubeplay');
    expect(html).not.toContain('loading');
    await view.preload();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('fetches once when preloaded several times before the chunk arrives', async () => {
    let resolve!: (c: typeof Greeting) => void;
    const load = vi.fn(() => new Promise<typeof Greeting>((r) => (resolve = r)));
    const view = preloadable(load);
    const first = view.preload();
    const second = view.preload();
    expect(page(view.Component)).toContain('loading');
    resolve(Greeting);
    await Promise.all([first, second]);
    expect(load).toHaveBeenCalledTimes(1);
    expect(page(view.Component)).toContain('hello');
  });

  it('lets a failed fetch be retried', async () => {
    const load = vi.fn<() => Promise<typeof Greeting>>().mockRejectedValueOnce(new Error('chunk missing')).mockResolvedValueOnce(Greeting);
    const view = preloadable(load);
    await expect(view.preload()).rejects.toThrow('chunk missing');
    await view.preload();
    expect(load).toHaveBeenCalledTimes(2);
    expect(page(view.Component)).toContain('hello');
  });
});
