// The kubelet's own pod informer: list+watch of the pods bound to its node (fieldSelector spec.nodeName=<node>),
// through its own connection — each kubelet is its own process, so it does not share the controllers' cache.
// A relist after a partition or restart reports pods that vanished meanwhile as deletions.
import type { Pod } from 'kubernetes-types/core/v1';
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import { WatchEventType } from '../../shared/api/types';
import type { TraceSink } from '../../shared/protocol/trace';
import type { Client } from '../client/client';
import { metaNamespaceKeyFunc } from '../informers/keys';
import { Reflector } from '../informers/reflector';
import type { Clock } from '../sim/clock';

export interface PodSourceHandler {
  /** key: the pod's "namespace/name", as the source keys its cache. */
  onUpsert(pod: Pod, key: string): void;
  onDelete(pod: Pod): void;
  /** The first list is in. */
  onSynced(): void;
}

export class PodSource {
  private readonly cache = new Map<string, Pod>();
  private readonly reflector: Reflector;
  private synced = false;

  constructor(options: { client: Client; clock: Clock; nodeName: string; trace?: TraceSink; handler: PodSourceHandler }) {
    const fieldSelector = `spec.nodeName=${options.nodeName}`;
    const pods = options.client.pods;
    const handler = options.handler;
    this.reflector = new Reflector({
      name: `kubelet/${options.nodeName} pods`,
      clock: options.clock,
      trace: options.trace,
      listerWatcher: {
        list: () => pods.list({ fieldSelector }),
        watch: (resourceVersion, h) => pods.watch({ fieldSelector, resourceVersion, allowWatchBookmarks: true }, h),
      },
      store: {
        replace: (items: KubeObject[]) => {
          const seen = new Set<string>();
          for (const item of items) {
            const key = metaNamespaceKeyFunc(item);
            seen.add(key);
            this.cache.set(key, item as Pod);
            handler.onUpsert(item as Pod, key);
          }
          for (const [key, pod] of this.cache) {
            if (seen.has(key)) continue;
            this.cache.delete(key);
            handler.onDelete(pod);
          }
          if (!this.synced) {
            this.synced = true;
            handler.onSynced();
          }
        },
        applyEvents: (events: WatchEvent[]) => {
          for (const ev of events) {
            const pod = ev.object as Pod;
            const key = metaNamespaceKeyFunc(ev.object);
            if (ev.type === WatchEventType.Deleted) {
              this.cache.delete(key);
              handler.onDelete(pod);
            } else {
              this.cache.set(key, pod);
              handler.onUpsert(pod, key);
            }
          }
        },
      },
    });
  }

  get hasSynced(): boolean {
    return this.synced;
  }

  start(): void {
    this.reflector.run();
  }

  stop(): void {
    this.reflector.stop();
  }

  /** Lists again at once (the network came back). */
  relist(): void {
    this.reflector.stop();
    this.reflector.run();
  }

  get(key: string): Pod | undefined {
    return this.cache.get(key);
  }

  list(): Pod[] {
    return [...this.cache.values()];
  }
}
