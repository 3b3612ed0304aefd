import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../sim/virtual-clock';
import { TraceKind, nullTraceSink } from '../../shared/protocol/trace';
import { TraceBus, currentCause, wantsEvent, withCause } from './trace-bus';

const ev = (component: string) => ({ kind: TraceKind.Custom, component, data: {} });

describe('TraceBus', () => {
  it('stamps seq and simulated time', () => {
    const clock = new VirtualClock({ startTime: 1000 });
    const bus = new TraceBus({ clock });
    expect(bus.emit(ev('a'))).toBe(1);
    clock.advance(250);
    expect(bus.emit(ev('b'))).toBe(2);
    expect(bus.recent().map((e) => [e.seq, e.time, e.component])).toEqual([
      [1, 1000, 'a'],
      [2, 1250, 'b'],
    ]);
    expect(bus.lastSeq).toBe(2);
  });

  it('keeps only the newest events in the ring buffer', () => {
    const bus = new TraceBus({ clock: new VirtualClock(), capacity: 3 });
    for (let i = 0; i < 5; i++) bus.emit(ev(`c${i}`));
    expect(bus.recent().map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(bus.recent(4).map((e) => e.seq)).toEqual([5]);
    expect(bus.get(2)).toBeUndefined();
    expect(bus.get(4)?.component).toBe('c3');
    expect(bus.get(6)).toBeUndefined();
  });

  it("delivers the API server's stage and response events but keeps them out of the ring", () => {
    const bus = new TraceBus({ clock: new VirtualClock(), capacity: 3 });
    const seen: number[] = [];
    bus.subscribe((e) => seen.push(e.seq));
    const request = bus.emit({ kind: TraceKind.ApiRequest, component: 'apiserver', requestId: 'r1', data: {} });
    bus.emit({ kind: TraceKind.ApiStage, component: 'apiserver', requestId: 'r1', cause: request, data: { stage: 'authentication', decision: 'pass' } });
    const commit = bus.emit({ kind: TraceKind.StoreCommit, component: 'etcd', cause: request, data: {} });
    bus.emit({ kind: TraceKind.ApiResponse, component: 'apiserver', requestId: 'r1', cause: request, data: { code: 201 } });
    const later = bus.emit(ev('later'));
    expect(seen).toEqual([1, 2, 3, 4, 5]);
    expect(bus.recent().map((e) => e.seq)).toEqual([request, commit, later]);
    expect(bus.get(2)).toBeUndefined();
    expect(bus.get(commit)?.kind).toBe(TraceKind.StoreCommit);
    expect(bus.causeChain(commit).map((e) => e.seq)).toEqual([commit, request]);
    // The ring holds 3: one more buffered event pushes the request out, whatever the gaps in seq.
    bus.emit(ev('newest'));
    expect(bus.get(request)).toBeUndefined();
    expect(bus.recent().map((e) => e.component)).toEqual(['etcd', 'later', 'newest']);
  });

  it('wants an unbuffered kind only while someone subscribes', () => {
    const bus = new TraceBus({ clock: new VirtualClock() });
    expect(bus.wants(TraceKind.ApiStage)).toBe(false);
    expect(bus.wants(TraceKind.StoreCommit)).toBe(true);
    const off = bus.subscribe(() => {});
    expect(bus.wants(TraceKind.ApiStage)).toBe(true);
    off();
    expect(bus.wants(TraceKind.ApiResponse)).toBe(false);
    // Through wantsEvent, as emitters ask: a leaf of a buffered kind is not wanted either; a sink without wants
    // (a plain one) wants everything.
    expect(wantsEvent(bus, TraceKind.Custom)).toBe(true);
    expect(wantsEvent(bus, TraceKind.Custom, true)).toBe(false);
    expect(wantsEvent(nullTraceSink, TraceKind.ApiStage, true)).toBe(true);
  });

  it('buffers every kind when told no kind is unbuffered', () => {
    const bus = new TraceBus({ clock: new VirtualClock(), unbufferedKinds: [] });
    bus.emit({ kind: TraceKind.ApiStage, component: 'apiserver', data: {} });
    expect(bus.recent()).toHaveLength(1);
  });

  it('fills the cause from the innermost causeScope, unless the event names one', () => {
    const bus = new TraceBus({ clock: new VirtualClock() });
    const root = bus.emit(ev('watch'));
    const inner = bus.causeScope(root, () => {
      const r = bus.emit(ev('reconcile'));
      bus.causeScope(r, () => bus.emit(ev('api')));
      bus.emit({ ...ev('explicit'), cause: 99 });
      return r;
    });
    const outside = bus.emit(ev('later'));
    const byComponent = Object.fromEntries(bus.recent().map((e) => [e.component, e.cause]));
    expect(byComponent).toEqual({ watch: undefined, reconcile: root, api: inner, explicit: 99, later: undefined });
    expect(bus.get(outside)).not.toHaveProperty('cause');
    expect(bus.causeChain(inner + 1).map((e) => e.component)).toEqual(['api', 'reconcile', 'watch']);
  });

  it('drops an explicitly undefined cause outside any scope, and fills it inside one', () => {
    const bus = new TraceBus({ clock: new VirtualClock() });
    const a = bus.emit({ ...ev('a'), cause: undefined, requestId: 'r1' });
    expect(bus.get(a)).not.toHaveProperty('cause');
    expect(bus.get(a)).toMatchObject({ seq: a, component: 'a', requestId: 'r1' });
    const b = bus.causeScope(a, () => bus.emit({ ...ev('b'), cause: undefined }));
    expect(bus.get(b)?.cause).toBe(a);
  });

  it('restores the cause when the scoped function throws', () => {
    const bus = new TraceBus({ clock: new VirtualClock() });
    expect(() => bus.causeScope(7, () => { throw new Error('boom'); })).toThrow('boom');
    expect(bus.currentCause).toBeUndefined();
  });

  it('notifies subscribers until they unsubscribe', () => {
    const bus = new TraceBus({ clock: new VirtualClock() });
    const seen: string[] = [];
    const off = bus.subscribe((e) => seen.push(e.component));
    bus.emit(ev('x'));
    off();
    bus.emit(ev('y'));
    expect(seen).toEqual(['x']);
  });

  it('withCause and currentCause work on plain sinks too', () => {
    expect(withCause(nullTraceSink, 5, () => currentCause(nullTraceSink))).toBeUndefined();
    const bus = new TraceBus({ clock: new VirtualClock() });
    expect(withCause(bus, 5, () => currentCause(bus))).toBe(5);
  });
});
