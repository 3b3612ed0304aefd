// Test hooks for the crash and storage specs, injected before the page's own scripts (page.addInitScript): wraps
// Worker so a spec can reach the cluster worker (__workers: every cluster worker the page started, oldest first) (to terminate it, as the browser would) and send protocol calls of
// its own beside the page's client (ids far above the page's and below its heartbeat's, which the page ignores).
// Self-contained: it is serialised into the page, so it may use nothing from outside its body.
import type { Page } from '@playwright/test';

export interface Reply {
  ok: boolean;
  result?: { body?: { metadata?: { uid?: string; resourceVersion?: string; name?: string }; items?: { metadata: { name: string; uid: string; resourceVersion: string } }[] } } & Record<string, unknown>;
  status?: { code: number; message: string };
}

export interface HookOptions {
  /**
   * Start the cluster worker through a wrapper that can make its IndexedDB puts throw QuotaExceededError, the way
   * a full disk does (__setDiskFull(true)). Chromium ignores CDP Storage.overrideQuotaForOrigin in Playwright's
   * (incognito) contexts, so this is how a spec fills the disk. The wrapper is a blob: worker: the spec needs bypassCSP.
   */
  diskFullSwitch?: boolean;
}

export function installWorkerHooks(options: HookOptions = {}): void {
  type Hooked = Worker & { ready: Promise<void> };
  const w = window as unknown as Record<string, unknown>;
  const workers: Hooked[] = [];
  const pending = new Map<number, (reply: unknown) => void>();
  let nextId = 1_000_000_000;
  const Original = window.Worker;
  class HookedWorker extends Original {
    ready: Promise<void>;
    constructor(url: string | URL, workerOptions?: WorkerOptions) {
      super(options.diskFullSwitch && workerOptions?.name === 'kubeplay-cluster' ? diskFullWrapper(url) : url, workerOptions);
      const options_ = workerOptions;
      // Monaco and the YAML parser start workers too; only the cluster's is named.
      if (options_?.name === 'kubeplay-cluster') workers.push(this as unknown as Hooked);
      let markReady!: () => void;
      this.ready = new Promise((r) => (markReady = r));
      this.addEventListener('message', (e: MessageEvent) => {
        const m = e.data as { type?: string; id?: number };
        if (m?.type === 'ready') markReady();
        if (m?.type === 'reply' && typeof m.id === 'number' && pending.has(m.id)) {
          const resolve = pending.get(m.id)!;
          pending.delete(m.id);
          resolve(m);
        }
      });
    }
  }
  /** A module worker that installs the disk-full switch, then runs the real worker script. */
  function diskFullWrapper(url: string | URL): string {
    const real = new URL(String(url), location.href).href;
    const source = `
      let full = false;
      self.addEventListener('message', (e) => {
        if (e.data && e.data.type === '__test/disk-full') { full = e.data.full; e.stopImmediatePropagation(); }
      });
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (...args) {
        if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return put.apply(this, args);
      };
      await import(${JSON.stringify(real)});
    `;
    return URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  }
  w.Worker = HookedWorker;
  w.__setDiskFull = (full: boolean) => workers[workers.length - 1].postMessage({ type: '__test/disk-full', full });
  w.__workers = workers;
  /** A call to the newest worker, once it said ready; resolves with the raw reply. */
  w.__call = async (method: string, params: unknown) => {
    const worker = workers[workers.length - 1];
    await worker.ready;
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      worker.postMessage({ type: 'call', id, method, params });
    });
  };
}

export function configMap(name: string): unknown {
  return {
    verb: 'create',
    group: '',
    version: 'v1',
    resource: 'configmaps',
    namespace: 'default',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { payload: name } },
  };
}

export async function call(page: Page, method: string, params?: unknown): Promise<Reply> {
  return (await page.evaluate(([m, p]) => (window as unknown as { __call(m: string, p: unknown): Promise<unknown> }).__call(m as string, p), [method, params] as const)) as Reply;
}

export async function listConfigMaps(page: Page): Promise<{ revision: number; items: Map<string, { uid: string; resourceVersion: string }> }> {
  const reply = await call(page, 'api/request', { verb: 'list', group: '', version: 'v1', resource: 'configmaps', namespace: 'default' });
  const body = reply.result!.body as { metadata: { resourceVersion: string }; items: { metadata: { name: string; uid: string; resourceVersion: string } }[] };
  return {
    revision: Number(body.metadata.resourceVersion),
    items: new Map(body.items.map((o) => [o.metadata.name, { uid: o.metadata.uid, resourceVersion: o.metadata.resourceVersion }])),
  };
}
