// client-go's SharedInformerFactory: one informer per resource, shared by every controller that asks for it.
//
//   const factory = new SharedInformerFactory({ client, clock, trace });
//   const pods = factory.pods;                 // or factory.forResource({ group: '', version: 'v1', resource: 'pods' })
//   pods.addEventHandler({ onAdd: (pod) => queue.add(metaNamespaceKeyFunc(pod)) });
//   factory.start();
//   clock.runUntil(() => factory.hasSynced());   // waitForCacheSync on virtual time
import type { GroupVersionResource, KubeObject } from '../../shared/api/types';
import type { TraceSink } from '../../shared/protocol/trace';
import type { Client } from '../client/client';
import { typedResources, type ObjectOf, type TypedResourceName } from '../client/resources';
import type { Clock } from '../sim/clock';
import { defaultIndexers, type IndexFunc } from './indexer';
import { SharedInformer } from './shared-informer';

export interface SharedInformerFactoryOptions {
  client: Client;
  clock: Clock;
  trace?: TraceSink;
  /**
   * The indexers every informer starts with: by default namespace, ownerUid and nodeName, what the controllers
   * look pods and ReplicaSets up by. A component that only lists by namespace passes namespaceIndexers: each
   * index costs a bucket entry per object.
   */
  baseIndexers?: Readonly<Record<string, IndexFunc>>;
  /** Extra indexers every informer gets, besides the base ones. */
  indexers?: Readonly<Record<string, IndexFunc>>;
  onHandlerError?: (err: unknown) => void;
}

/** What the UI shows per informer. */
export interface InformerStatus {
  resource: string;
  synced: boolean;
  objects: number;
  resourceVersion: string;
  lists: number;
}

type TypedInformers = { readonly [K in TypedResourceName]: SharedInformer<ObjectOf<K> & object> };

// The typed accessors (factory.pods, …) are getters added to the prototype below, from the client's table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface SharedInformerFactory extends TypedInformers {}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class SharedInformerFactory {
  private readonly options: SharedInformerFactoryOptions;
  private readonly informerMap = new Map<string, SharedInformer<never>>();
  /**
   * @internal The typed accessors' informers by accessor name (factory.pods…), which some handlers read on
   * every event: a constant name finds the informer without building an id string.
   */
  readonly typedInformers = new Map<string, SharedInformer<never>>();
  private started = false;

  constructor(options: SharedInformerFactoryOptions) {
    this.options = options;
  }

  /** The shared informer for a resource, created on first use. Once the factory has started, it starts at once. */
  forResource<T extends object = KubeObject>(gvr: GroupVersionResource): SharedInformer<T> {
    const id = `${gvr.group}/${gvr.version}/${gvr.resource}`;
    let informer = this.informerMap.get(id);
    if (!informer) {
      const { client, clock, trace, indexers, onHandlerError } = this.options;
      const base = this.options.baseIndexers ?? defaultIndexers;
      informer = new SharedInformer<never>({
        gvr: { group: gvr.group, version: gvr.version, resource: gvr.resource },
        client,
        clock,
        trace,
        onHandlerError,
        indexers: indexers ? { ...base, ...indexers } : base,
      });
      this.informerMap.set(id, informer);
      if (this.started) informer.start();
    }
    return informer as unknown as SharedInformer<T>;
  }

  /** Starts every informer requested so far, and any requested later. */
  start(): void {
    this.started = true;
    for (const i of this.informerMap.values()) i.start();
  }

  /** Whether every informer requested so far has synced (WaitForCacheSync's condition). */
  hasSynced(): boolean {
    for (const i of this.informerMap.values()) if (!i.hasSynced()) return false;
    return true;
  }

  /**
   * Runs the virtual clock until every informer has synced (or maxMs passes); returns whether they did. With a
   * reachable server this takes no virtual time: the lists run as deferred work.
   */
  waitForCacheSync(clock: { runUntil(predicate: () => boolean, maxTimeMs?: number): boolean }, maxMs = 60_000): boolean {
    return clock.runUntil(() => this.hasSynced(), maxMs);
  }

  shutdown(): void {
    for (const i of this.informerMap.values()) i.stop();
  }

  informers(): SharedInformer<KubeObject>[] {
    return [...this.informerMap.values()] as unknown as SharedInformer<KubeObject>[];
  }

  status(): InformerStatus[] {
    return this.informers().map((i) => ({
      resource: i.name,
      synced: i.hasSynced(),
      objects: i.indexer.size,
      resourceVersion: i.lastSyncResourceVersion,
      lists: i.listCount,
    }));
  }
}

for (const [name, gvr] of Object.entries(typedResources)) {
  Object.defineProperty(SharedInformerFactory.prototype, name, {
    get(this: SharedInformerFactory) {
      let informer = this.typedInformers.get(name);
      if (!informer) this.typedInformers.set(name, (informer = this.forResource(gvr) as SharedInformer<never>));
      return informer;
    },
  });
}
