import { describe, expect, it } from 'vitest';
import { newConflict } from '../../../shared/api/status';
import { TraceKind, type TraceEvent } from '../../../shared/protocol/trace';
import { Client } from '../../client/client';
import { VirtualClock } from '../../sim/virtual-clock';
import { FakeApiServer } from '../../testing/fake-apiserver';
import { TraceBus } from '../../trace/trace-bus';
import { RateLimitingQueue } from '../../workqueue/rate-limiting-queue';
import { BaseController, ReconcileOutcome } from './controller';

function setup(sync: (key: string) => void, options: { maxRetries?: number; synced?: () => boolean } = {}) {
  const clock = new VirtualClock({ startTime: 0 });
  const trace = new TraceBus({ clock });
  // As the UI sees them: a subscriber gets every event, the leaves too (reconcile.end is not kept in the ring).
  const seen: TraceEvent[] = [];
  trace.subscribe((e) => seen.push(e));
  const server = new FakeApiServer({ clock });
  const client = new Client(server);
  const queue = new RateLimitingQueue<string>({ name: 'test', clock, trace });
  const controller = new BaseController({
    name: 'test-controller',
    queue,
    clock,
    sync,
    trace,
    client,
    maxRetries: options.maxRetries,
    cacheSyncs: options.synced ? [options.synced] : [],
  });
  return { clock, trace: { recent: () => seen }, bus: trace, queue, controller, client };
}

const ends = (trace: { recent(): TraceEvent[] }) =>
  trace
    .recent()
    .filter((e) => e.kind === TraceKind.ReconcileEnd)
    .map((e) => [e.data.key, e.data.outcome, e.time]);

describe('BaseController', () => {
  it('reconciles each key once per add, forgetting it on success', () => {
    const synced: string[] = [];
    const { clock, queue, controller } = setup((k) => synced.push(k));
    controller.run();
    queue.add('ns/a');
    queue.add('ns/b');
    queue.add('ns/a');
    clock.runUntilIdle();
    expect(synced).toEqual(['ns/a', 'ns/b']);
    expect(queue.numRequeues('ns/a')).toBe(0);
  });

  it('requeues failures with exponential backoff and forgets after a success', () => {
    let failuresLeft = 3;
    const { clock, trace, queue, controller } = setup(() => {
      if (failuresLeft-- > 0) throw newConflict({ group: '', resource: 'pods' }, 'a', 'try again');
    });
    controller.run();
    queue.add('ns/a');
    clock.runUntilIdle();
    expect(ends(trace)).toEqual([
      ['ns/a', ReconcileOutcome.Requeued, 0],
      ['ns/a', ReconcileOutcome.Requeued, 5],
      ['ns/a', ReconcileOutcome.Requeued, 15],
      ['ns/a', ReconcileOutcome.Success, 35],
    ]);
    expect(queue.numRequeues('ns/a')).toBe(0);
    expect(controller.lastErrors.size).toBe(0);
    const firstEnd = trace.recent().find((e) => e.kind === TraceKind.ReconcileEnd)!;
    expect(firstEnd.data.error).toBe('Operation cannot be fulfilled on pods "a": try again');
  });

  it('drops a key after maxRetries failures until it is added again', () => {
    let calls = 0;
    const { clock, trace, queue, controller } = setup(
      () => {
        calls++;
        throw new Error('always');
      },
      { maxRetries: 2 },
    );
    controller.run();
    queue.add('k');
    clock.runUntilIdle();
    expect(calls).toBe(3);
    expect(ends(trace).map((e) => e[1])).toEqual([ReconcileOutcome.Requeued, ReconcileOutcome.Requeued, ReconcileOutcome.Dropped]);
    expect(queue.numRequeues('k')).toBe(0);
    expect(controller.lastErrors.get('k')).toBe('always');
    queue.add('k'); // a new event: a fresh round of retries
    clock.runUntilIdle();
    expect(calls).toBe(6);
  });

  it('waits for the caches to sync before starting the worker, polling every 100 ms', () => {
    const synced: string[] = [];
    let ready = false;
    const { clock, queue, controller } = setup((k) => synced.push(k), { synced: () => ready });
    queue.add('early');
    controller.run();
    clock.advance(250);
    expect(synced).toEqual([]);
    ready = true;
    clock.advance(100);
    expect(synced).toEqual(['early']);
    expect(clock.now()).toBe(350);
  });

  it('traces reconcile start/end with the cause chain and the writes it made', () => {
    const { clock, trace, bus, queue, controller, client } = setup((key) => {
      client.configMaps.get('x', { namespace: 'ns' }); // a read: not listed
      client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: key, namespace: 'ns' } });
    });
    controller.run();
    const addSeq = bus.emit({ kind: TraceKind.Custom, component: 'watch', data: {} });
    bus.causeScope(addSeq, () => queue.add('made'));
    clock.runUntilIdle(); // the get of a missing object fails every attempt, until the key is dropped
    const start = trace.recent().find((e) => e.kind === TraceKind.ReconcileStart)!;
    const get = trace.recent().find((e) => e.kind === TraceKind.QueueGet)!;
    const add = trace.recent().find((e) => e.kind === TraceKind.QueueAdd)!;
    expect(add.cause).toBe(addSeq);
    expect(get.cause).toBe(add.seq);
    expect(start.cause).toBe(get.seq);
    expect(start.data).toEqual({ controller: 'test-controller', queue: 'test', key: 'made' });
    const end = trace.recent().find((e) => e.kind === TraceKind.ReconcileEnd)!;
    expect(end.cause).toBe(start.seq);
    expect(end.data.outcome).toBe(ReconcileOutcome.Requeued);
    expect(end.data.error).toBe('configmaps "x" not found');
  });

  it('lists successful writes in reconcile.end', () => {
    const { clock, trace, queue, controller, client } = setup((key) => {
      client.configMaps.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: key, namespace: 'ns' } });
    });
    controller.run();
    queue.add('made');
    clock.runUntilIdle();
    const end = trace.recent().find((e) => e.kind === TraceKind.ReconcileEnd)!;
    expect(end.data).toMatchObject({
      outcome: ReconcileOutcome.Success,
      writes: [{ verb: 'create', resource: 'configmaps', namespace: 'ns', code: 201 }],
    });
  });

  it('neither records writes nor ends a reconcile in the trace when nobody subscribes', () => {
    const clock = new VirtualClock({ startTime: 0 });
    const trace = new TraceBus({ clock });
    const client = new Client(new FakeApiServer({ clock }));
    const queue = new RateLimitingQueue<string>({ name: 'test', clock, trace });
    let recording = 0;
    const record = client.record.bind(client);
    client.record = (requests, fn) => (recording++, record(requests, fn));
    new BaseController({ name: 'c', queue, clock, trace, client, sync: () => undefined, cacheSyncs: [] }).run();
    queue.add('a');
    clock.runUntilIdle();
    expect(recording).toBe(0);
    expect(trace.recent().map((e) => e.kind)).toEqual([TraceKind.QueueAdd, TraceKind.QueueGet, TraceKind.ReconcileStart]);
  });

  it('stops after shutDown', () => {
    const synced: string[] = [];
    const { clock, queue, controller } = setup((k) => synced.push(k));
    controller.run();
    queue.add('a');
    controller.shutDown();
    queue.add('b');
    clock.runUntilIdle();
    expect(synced).toEqual(['a']);
  });
});
