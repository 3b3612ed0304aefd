import { afterEach, describe, expect, it } from 'vitest';
import type { HeadlessCluster } from '../../worker/headless';
import { createHeadlessCluster } from '../../worker/headless';
import { pollComponents } from '../worker-client/cluster-sync';
import { createAppStore } from './store';

let h: HeadlessCluster | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const until = async (predicate: () => boolean) => {
  for (let i = 0; i < 200 && !predicate(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('components slice and its poller', () => {
  it("polls sim/components only while the Control plane view is shown, and keeps the worker's answer", async () => {
    h = await createHeadlessCluster({ seed: 5 });
    const store = createAppStore();
    store.getState().setView('objects');
    const stop = pollComponents(h.client, store, 5);
    try {
      await new Promise((r) => setTimeout(r, 40));
      expect(store.getState().components).toBeUndefined();
      store.getState().setView('control-plane');
      await until(() => store.getState().components !== undefined);
      const snapshot = store.getState().components!;
      expect(snapshot.etcd.revision).toBe(h.cluster.store.revision);
      expect(snapshot.kubelets.map((k) => k.node)).toEqual(['node-1', 'node-2', 'node-3']);
      expect(snapshot.controllerManager.controllers.map((c) => c.name)).toContain('deployment-controller');
    } finally {
      stop();
    }
  });

  it('shows the components as unknown, with the reason, when the worker cannot answer', () => {
    const store = createAppStore();
    store.getState().componentsUnavailable('sim/components is not available yet');
    expect(store.getState()).toMatchObject({ components: undefined, componentsError: 'sim/components is not available yet' });
  });
});
