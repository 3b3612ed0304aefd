import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KubeObject } from '../../shared/api/types';
import { VirtualClock } from '../sim/virtual-clock';
import { MvccStore, type MvccStoreWatch } from './mvcc-store';
import type { RevisionBatch, WatchIndex } from './types';
import { StoreEventType } from './types';

// The index must be invisible: a cluster of watchers in which the node watchers are indexed must see exactly
// what the same cluster sees with every watcher unindexed — the same events, in the same order across
// watchers, the same bookmarks, the same progress revisions. Each scenario runs twice (indexed / not) and the
// two global delivery logs are compared.

const podsDir = '/registry/core/pods/';
const podKey = (name: string): string => `${podsDir}ns/${name}`;
const BookmarkIntervalMs = 60_000;

function pod(name: string, nodeName: string, extra: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns' }, spec: { nodeName }, ...extra } as KubeObject;
}
const nodeOf = (o: KubeObject): string => ((o as { spec?: { nodeName?: string } }).spec?.nodeName ?? '');
const phaseOf = (o: KubeObject): string | undefined => (o as { status?: { phase?: string } }).status?.phase;

interface WatcherSpec {
  name: string;
  /** undefined: every pod (an informer); else the node it selects (a kubelet). */
  node?: string;
  bookmarks: boolean;
  afterRevision: number;
  /**
   * Writes from inside a delivery: a kubelet marks each pod newly bound to it Running; an informer (a
   * scheduler) binds each new unbound pod to node b.
   */
  writes?: boolean;
}

/** A cluster of watchers on one store; `indexed` decides whether node watchers use WatchOptions.index. */
class Sim {
  readonly clock = new VirtualClock();
  readonly store = new MvccStore({ clock: this.clock });
  readonly log: string[] = [];
  private readonly watches = new Map<string, { watch: MvccStoreWatch; lastRevision: () => number }>();

  constructor(private readonly indexed: boolean) {}

  put(name: string, node: string, extra: Record<string, unknown> = {}): void {
    this.store.txn([], [{ type: 'put', key: podKey(name), value: pod(name, node, extra) }]);
  }

  move(name: string, node: string): void {
    const kv = this.store.get(podKey(name));
    if (kv) this.store.txn([], [{ type: 'put', key: podKey(name), value: { ...kv.value, spec: { nodeName: node } } as KubeObject }]);
  }

  remove(name: string): void {
    this.store.txn([], [{ type: 'delete', key: podKey(name) }]);
  }

  /** One revision touching two pods and a key outside the pods directory. */
  txn(a: string, nodeA: string, b: string, nodeB: string): void {
    const ops = [
      { type: 'put' as const, key: '/registry/core/events/ns/e', value: pod('e', String(this.store.revision)) },
      { type: 'put' as const, key: podKey(a), value: pod(a, nodeA) },
    ];
    if (b !== a) ops.push({ type: 'put' as const, key: podKey(b), value: pod(b, nodeB) });
    this.store.txn([], ops);
  }

  other(): void {
    this.store.txn([], [{ type: 'put', key: '/registry/core/configmaps/ns/c', value: pod('c', String(this.store.revision)) }]);
  }

  watch(spec: WatcherSpec): void {
    const { clock, store, log } = this;
    let lastDelivery = clock.now();
    let lastRevision = spec.afterRevision;
    const matches = (o: KubeObject): boolean => spec.node === undefined || nodeOf(o) === spec.node;
    // What the API server's watch handler does with a batch: translate, or a bookmark on a quiet revision.
    const handler = (batch: RevisionBatch): void => {
      lastRevision = batch.revision;
      const out: string[] = [];
      for (const ev of batch.events) {
        const name = ev.kv.value.metadata!.name!;
        if (ev.type === StoreEventType.Delete) {
          if (matches(ev.kv.value)) out.push(`DELETED ${name}`);
          continue;
        }
        const now = matches(ev.kv.value);
        const was = ev.prevKv ? matches(ev.prevKv.value) : false;
        if (now && was) out.push(`MODIFIED ${name}`);
        else if (now) out.push(`ADDED ${name}`);
        else if (was) out.push(`DELETED ${name}`);
        if (spec.writes && spec.node === undefined && now && !was && nodeOf(ev.kv.value) === '' && ev.kv.key.startsWith(podsDir)) {
          const current = store.get(ev.kv.key);
          if (current && nodeOf(current.value) === '') {
            store.txn([], [{ type: 'put', key: ev.kv.key, value: { ...current.value, spec: { nodeName: 'b' } } as KubeObject }]);
          }
        }
        if (spec.writes && spec.node !== undefined && now && !was && phaseOf(ev.kv.value) === undefined && ev.kv.key.startsWith(podsDir)) {
          const current = store.get(ev.kv.key);
          if (current && nodeOf(current.value) === spec.node && phaseOf(current.value) === undefined) {
            store.txn([], [{ type: 'put', key: ev.kv.key, value: { ...current.value, status: { phase: 'Running' } } as KubeObject }]);
          }
        }
      }
      if (out.length > 0) {
        lastDelivery = clock.now();
        log.push(`${spec.name}@${batch.revision}: ${out.join(', ')}`);
      } else if (spec.bookmarks && clock.now() - lastDelivery >= BookmarkIntervalMs) {
        lastDelivery = clock.now();
        log.push(`${spec.name}@${batch.revision}: BOOKMARK`);
      }
    };
    const index: WatchIndex | undefined =
      this.indexed && spec.node !== undefined
        ? {
            name: 'spec.nodeName',
            value: spec.node,
            valueOf: nodeOf,
            quietBatchesFrom: () => (spec.bookmarks ? lastDelivery + BookmarkIntervalMs : Infinity),
          }
        : undefined;
    const watch = store.watch({ afterRevision: spec.afterRevision, prefix: podsDir, index }, handler);
    this.watches.set(spec.name, { watch, lastRevision: () => lastRevision });
  }

  cancel(name: string): void {
    this.watches.get(name)?.watch.cancel();
    this.watches.delete(name);
  }

  /** Logs every node watcher's last revision: the handler's own, or what the index says it would be. */
  progress(): void {
    for (const [name, w] of this.watches) {
      const revision = w.watch.progressRevision ? Math.max(w.lastRevision(), w.watch.progressRevision()) : w.lastRevision();
      this.log.push(`${name} progress ${revision}`);
    }
  }
}

const nodes = ['', 'a', 'b', 'c'];
const podNames = ['p0', 'p1', 'p2', 'p3', 'p4'];

type Op =
  | { t: 'put'; pod: string; node: string; running: boolean }
  | { t: 'move'; pod: string; node: string }
  | { t: 'remove'; pod: string }
  | { t: 'txn'; a: string; nodeA: string; b: string; nodeB: string }
  | { t: 'other' }
  | { t: 'watch'; node?: string; bookmarks: boolean; back: number; writes: boolean }
  | { t: 'cancel'; which: number }
  | { t: 'drain' }
  | { t: 'advance'; ms: number }
  | { t: 'progress' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ t: fc.constant('put' as const), pod: fc.constantFrom(...podNames), node: fc.constantFrom(...nodes), running: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ t: fc.constant('move' as const), pod: fc.constantFrom(...podNames), node: fc.constantFrom(...nodes) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('remove' as const), pod: fc.constantFrom(...podNames) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('txn' as const),
      a: fc.constantFrom(...podNames),
      nodeA: fc.constantFrom(...nodes),
      b: fc.constantFrom(...podNames),
      nodeB: fc.constantFrom(...nodes),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'other' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('watch' as const),
      node: fc.option(fc.constantFrom(...nodes), { nil: undefined, freq: 4 }),
      bookmarks: fc.boolean(),
      back: fc.nat(6),
      writes: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('cancel' as const), which: fc.nat(20) }) },
  { weight: 4, arbitrary: fc.constant({ t: 'drain' as const }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('advance' as const), ms: fc.constantFrom(1_000, 30_000, 61_000) }) },
  { weight: 2, arbitrary: fc.constant({ t: 'progress' as const }) },
);

function run(ops: Op[], indexed: boolean): string[] {
  const sim = new Sim(indexed);
  const names: string[] = [];
  for (const op of ops) {
    switch (op.t) {
      case 'put':
        sim.put(op.pod, op.node, op.running ? { status: { phase: 'Running' } } : {});
        break;
      case 'move':
        sim.move(op.pod, op.node);
        break;
      case 'remove':
        sim.remove(op.pod);
        break;
      case 'txn':
        sim.txn(op.a, op.nodeA, op.b, op.nodeB);
        break;
      case 'other':
        sim.other();
        break;
      case 'watch': {
        const name = `w${names.length}`;
        names.push(name);
        const afterRevision = Math.max(sim.store.compactRevision, sim.store.revision - op.back);
        sim.watch({ name, node: op.node, bookmarks: op.bookmarks, afterRevision, writes: op.writes });
        break;
      }
      case 'cancel':
        if (names.length > 0) sim.cancel(names[op.which % names.length]);
        break;
      case 'drain':
        sim.clock.runDeferred();
        break;
      case 'advance':
        sim.clock.advance(op.ms);
        break;
      case 'progress':
        sim.progress();
        break;
    }
  }
  sim.clock.runDeferred();
  sim.progress();
  return sim.log;
}

describe('store watcher index', () => {
  it('delivers exactly what unindexed watchers get, in the same order across watchers (random clusters)', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 120 }), (ops) => {
        expect(run(ops, true)).toEqual(run(ops, false));
      }),
      { numRuns: 1500, seed: 8 },
    );
  });

  it('gives a node watcher DELETED when its pod moves away and ADDED when one arrives, including from ""', () => {
    const script: Op[] = [
      { t: 'watch', node: 'a', bookmarks: false, back: 0, writes: false },
      { t: 'watch', node: 'b', bookmarks: false, back: 0, writes: false },
      { t: 'watch', bookmarks: false, back: 0, writes: false },
      { t: 'put', pod: 'p0', node: '', running: false },
      { t: 'move', pod: 'p0', node: 'a' },
      { t: 'move', pod: 'p0', node: 'b' },
      { t: 'remove', pod: 'p0' },
      { t: 'put', pod: 'p1', node: 'c', running: false },
    ];
    const log = run(script, true);
    // Nothing is drained before the end: each watcher's one drain hands over everything queued for it, in the
    // order the first write scheduled them (w0, w1, then the informer w2).
    expect(log.filter((l) => !l.includes('progress'))).toEqual([
      'w0@2: ADDED p0',
      'w0@3: DELETED p0',
      'w1@3: ADDED p0',
      'w1@4: DELETED p0',
      'w2@1: ADDED p0',
      'w2@2: MODIFIED p0',
      'w2@3: MODIFIED p0',
      'w2@4: DELETED p0',
      'w2@5: ADDED p1',
    ]);
    // Node a's watcher was handed nothing after revision 3, yet it has seen up to 5, as an unindexed one had.
    expect(log).toContain('w0 progress 5');
    expect(log).toEqual(run(script, false));
  });

  it('hands a node watcher only its own writes, and quiet revisions again once a bookmark may be due', () => {
    const clock = new VirtualClock();
    const store = new MvccStore({ clock });
    let lastDelivery = clock.now();
    const seen: number[] = [];
    const index: WatchIndex = {
      name: 'spec.nodeName',
      value: 'a',
      valueOf: nodeOf,
      quietBatchesFrom: () => lastDelivery + BookmarkIntervalMs,
    };
    store.watch({ afterRevision: 0, prefix: podsDir, index }, (b) => {
      seen.push(b.revision);
      lastDelivery = clock.now();
    });
    for (let i = 0; i < 20; i++) store.txn([], [{ type: 'put', key: podKey(`x${i}`), value: pod(`x${i}`, 'b') }]);
    store.txn([], [{ type: 'put', key: podKey('mine'), value: pod('mine', 'a') }]);
    clock.runDeferred();
    expect(seen).toEqual([21]);
    clock.advance(BookmarkIntervalMs);
    store.txn([], [{ type: 'put', key: podKey('x0'), value: pod('x0', 'c') }]);
    clock.runDeferred();
    store.txn([], [{ type: 'put', key: podKey('x1'), value: pod('x1', 'c') }]);
    clock.runDeferred();
    // The first quiet revision after a minute is handed over (the handler bookmarks it); once it has delivered,
    // the next quiet one is not.
    expect(seen).toEqual([21, 22]);
  });

  it('resumes from a revision: replays the history for its value, then continues live', () => {
    const script: Op[] = [
      { t: 'put', pod: 'p0', node: 'a', running: false },
      { t: 'put', pod: 'p1', node: 'b', running: false },
      { t: 'move', pod: 'p0', node: 'b' },
      { t: 'put', pod: 'p2', node: 'a', running: false },
      { t: 'watch', node: 'a', bookmarks: true, back: 3, writes: false },
      { t: 'watch', node: 'b', bookmarks: true, back: 2, writes: false },
      { t: 'move', pod: 'p1', node: 'a' },
      { t: 'drain' },
    ];
    const log = run(script, true);
    // Each replay is one drain deferred at watch time; the live revision 5 joins the queues behind it.
    expect(log).toEqual([
      'w0@3: DELETED p0',
      'w0@4: ADDED p2',
      'w0@5: ADDED p1',
      'w1@3: ADDED p0',
      'w1@5: DELETED p1',
      'w0 progress 5',
      'w1 progress 5',
    ]);
    expect(log).toEqual(run(script, false));
  });

  it('drops the index of a directory when its last indexed watcher goes, and serves watchers unindexed again', () => {
    const clock = new VirtualClock();
    const store = new MvccStore({ clock });
    const index: WatchIndex = { name: 'spec.nodeName', value: 'a', valueOf: nodeOf };
    const w = store.watch({ afterRevision: 0, prefix: podsDir, index }, () => undefined);
    const all: number[] = [];
    store.watch({ afterRevision: 0, prefix: podsDir }, (b) => all.push(b.revision));
    expect(store.watcherCount).toBe(2);
    w.cancel();
    expect(store.watcherCount).toBe(1);
    store.txn([], [{ type: 'put', key: podKey('p'), value: pod('p', 'a') }]);
    clock.runDeferred();
    expect(all).toEqual([1]);
  });
});
