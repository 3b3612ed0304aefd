// Model-based property tests: random sequences of transactions, compactions, watch starts/cancels and deliveries,
// checked against a per-revision Map model. Watch histories must be ordered, gap-free and exactly once (etcd's
// Ordered / Unique / Reliable / Atomic), and every read at a kept revision must equal the model at that revision.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KubeObject } from '../../shared/api/types';
import { isStatusError } from '../../shared/api/status';
import { VirtualClock } from '../sim/virtual-clock';
import { MvccStore } from './mvcc-store';
import type { Compare, KeyValue, RevisionBatch, StoreWatch, TxnOp } from './types';

const KEYS = [
  '/registry/core/configmaps/a/x',
  '/registry/core/configmaps/a/y',
  '/registry/core/configmaps/b/x',
  '/registry/core/configmaps/b/z',
  '/registry/core/configmapsx/a/x',
  '/registry/apps/deployments/a/x',
  '/registry/core/nodes/n1',
  '/registry/core/nodes/n2',
];
const PREFIXES = [
  '',
  '/registry/',
  '/registry/core/',
  '/registry/core/configmaps/',
  '/registry/core/configmaps/a/',
  '/registry/core/configmaps/a/x',
  '/registry/core/config',
  '/registry/apps/',
  '/registry/core/nodes/n',
];

type ModelKv = Omit<KeyValue, 'key'>;
type ModelState = Map<string, ModelKv>;

const value = (v: number): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'o' }, data: { v: String(v) } });

const opArb = fc.record({ key: fc.integer({ min: 0, max: KEYS.length - 1 }), del: fc.boolean(), v: fc.integer({ min: 0, max: 2 }) });
const commandArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('txn' as const),
      ops: fc.uniqueArray(opArb, { minLength: 1, maxLength: 3, selector: (o) => o.key }),
      // Each compare names a key and whether to compare against its true modRevision or a wrong one.
      compares: fc.array(fc.record({ key: fc.integer({ min: 0, max: KEYS.length - 1 }), correct: fc.oneof(fc.constant(true), fc.constant(true), fc.constant(false)) }), { maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('compact' as const), frac: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('watch' as const),
      prefix: fc.integer({ min: 0, max: PREFIXES.length - 1 }),
      frac: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), idx: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drain' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('read' as const),
      prefix: fc.integer({ min: 0, max: PREFIXES.length - 1 }),
      frac: fc.double({ min: 0, max: 1, noNaN: true }),
    }),
  },
);

interface WatchRecord {
  prefix: string;
  start: number;
  batches: RevisionBatch[];
  handle: StoreWatch;
  cancelled: boolean;
}

function filtered(state: ModelState, prefix: string): [string, ModelKv][] {
  return [...state].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : 1));
}

function asModel(kvs: KeyValue[]): [string, ModelKv][] {
  return kvs.map(({ key, ...rest }) => [key, rest]);
}

describe('MvccStore properties', () => {
  it('watch histories are ordered, gap-free, exactly once and reproduce the model; reads match the model', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 40 }), fc.array(commandArb, { minLength: 20, maxLength: 200, size: "large" }), (historyRevisions, commands) => {
        const clock = new VirtualClock();
        const store = new MvccStore({ clock, historyRevisions });
        const states: ModelState[] = [new Map()];
        /** Keys each revision touched, with the event type. */
        const touched: { key: string; type: 'PUT' | 'DELETE' }[][] = [[]];
        const watches: WatchRecord[] = [];
        const rev = () => states.length - 1;

        for (const cmd of commands) {
          switch (cmd.kind) {
            case 'txn': {
              const cur = states[rev()];
              const compares: Compare[] = cmd.compares.map((c) => {
                const mod = cur.get(KEYS[c.key])?.modRevision ?? 0;
                return { key: KEYS[c.key], modRevision: c.correct ? mod : mod + 1 };
              });
              const ops: TxnOp[] = cmd.ops.map((o) => (o.del ? { type: 'delete', key: KEYS[o.key] } : { type: 'put', key: KEYS[o.key], value: value(o.v) }));
              const result = store.txn(compares, ops);
              const shouldSucceed = cmd.compares.every((c) => c.correct);
              expect(result.succeeded).toBe(shouldSucceed);
              if (!shouldSucceed) {
                expect(result.revision).toBe(rev());
                break;
              }
              const next = new Map(cur);
              const events: { key: string; type: 'PUT' | 'DELETE' }[] = [];
              const r = rev() + 1;
              for (const op of ops) {
                const prev = cur.get(op.key);
                if (op.type === 'delete') {
                  if (!prev) continue;
                  next.delete(op.key);
                  events.push({ key: op.key, type: 'DELETE' });
                } else {
                  if (prev && prev.value.data && (prev.value.data as { v: string }).v === (op.value.data as { v: string }).v) continue;
                  next.set(op.key, {
                    value: op.value,
                    createRevision: prev ? prev.createRevision : r,
                    modRevision: r,
                    version: prev ? prev.version + 1 : 1,
                  });
                  events.push({ key: op.key, type: 'PUT' });
                }
              }
              if (events.length > 0) {
                states.push(next);
                touched.push(events);
              }
              expect(result.revision).toBe(rev());
              expect(store.revision).toBe(rev());
              break;
            }
            case 'compact': {
              const target = store.compactRevision + Math.floor(cmd.frac * (rev() - store.compactRevision));
              store.compact(target);
              expect(store.compactRevision).toBe(Math.max(target, store.compactRevision));
              break;
            }
            case 'watch': {
              const lo = store.compactRevision;
              if (lo > 0) {
                try {
                  store.watch({ afterRevision: lo - 1 }, () => {});
                  expect.unreachable('watch below the compaction point must fail');
                } catch (e) {
                  expect(isStatusError(e) && e.status.code === 410 && e.message === `too old resource version: ${lo - 1} (${lo})`).toBe(true);
                }
              }
              const start = lo + Math.floor(cmd.frac * (rev() - lo));
              const rec: WatchRecord = { prefix: PREFIXES[cmd.prefix], start, batches: [], cancelled: false, handle: { cancel() {} } };
              rec.handle = store.watch({ afterRevision: start, prefix: rec.prefix }, (b) => {
                expect(rec.cancelled).toBe(false);
                rec.batches.push(b);
              });
              watches.push(rec);
              break;
            }
            case 'cancel': {
              if (watches.length === 0) break;
              const rec = watches[cmd.idx % watches.length];
              rec.cancelled = true;
              rec.handle.cancel();
              break;
            }
            case 'drain':
              clock.runDeferred();
              break;
            case 'read': {
              const lo = Math.max(store.compactRevision, 1);
              if (lo > rev()) break;
              const at = lo + Math.floor(cmd.frac * (rev() - lo));
              const prefix = PREFIXES[cmd.prefix];
              const res = store.range(prefix, at);
              expect(res.revision).toBe(at);
              expect(asModel(res.kvs)).toEqual(filtered(states[at], prefix));
              for (const k of KEYS) {
                const kv = store.get(k, at);
                const m = states[at].get(k);
                expect(kv ? asModel([kv])[0][1] : undefined).toEqual(m);
              }
              break;
            }
          }
        }

        clock.runDeferred();
        expect(store.range('').kvs.length).toBe(states[rev()].size);
        for (const prefix of PREFIXES) expect(store.count(prefix)).toBe(filtered(states[rev()], prefix).length);

        for (const w of watches) {
          const expectedRevs: number[] = [];
          for (let r = w.start + 1; r <= rev(); r++) if (touched[r].some((e) => e.key.startsWith(w.prefix))) expectedRevs.push(r);
          const got = w.batches.map((b) => b.revision);
          if (w.cancelled) {
            expect(got).toEqual(expectedRevs.slice(0, got.length));
            continue;
          }
          expect(got).toEqual(expectedRevs);
          // Each batch is whole: exactly the revision's events under the prefix, in txn order, with correct kvs.
          const state = new Map(filtered(states[w.start], w.prefix));
          for (const b of w.batches) {
            expect(b.events.map((e) => `${e.type} ${e.kv.key}`)).toEqual(
              touched[b.revision].filter((e) => e.key.startsWith(w.prefix)).map((e) => `${e.type} ${e.key}`),
            );
            for (const e of b.events) {
              expect(e.kv.modRevision).toBe(b.revision);
              expect(e.prevKv ? asModel([e.prevKv])[0][1] : undefined).toEqual(state.get(e.kv.key));
              if (e.type === 'DELETE') state.delete(e.kv.key);
              else state.set(e.kv.key, asModel([e.kv])[0][1]);
            }
          }
          expect(filtered(state, '')).toEqual(filtered(states[rev()], w.prefix));
        }
      }),
      { numRuns: 200 },
    );
  });
});
