import { describe, expect, it } from 'vitest';
import type { TraceBatch } from '../../shared/protocol/messages';
import type { TraceEvent } from '../../shared/protocol/trace';
import { createAppStore } from './store';
import { refusalLogCap, requestLogCap } from './trace-slice';

let seq = 0;
function ev(kind: TraceEvent['kind'], requestId: string, data: Record<string, unknown>): TraceEvent {
  return { seq: ++seq, time: 1000 * seq, kind, component: 'apiserver', requestId, data };
}
const batch = (events: TraceEvent[], dropped = 0): TraceBatch => ({ events, dropped, droppedByKind: {} });

describe('trace slice', () => {
  it('makes one row per finished request, with the request details and the response code', () => {
    const store = createAppStore();
    store.getState().applyTrace(
      batch([
        ev('api.request', 'r1', { verb: 'create', resource: 'configmaps', namespace: 'default', name: '', user: 'kubernetes-admin' }),
        ev('api.stage', 'r1', { stage: 'authentication', decision: 'pass' }),
      ]),
    );
    expect(store.getState().requests).toEqual([]);
    const response = ev('api.response', 'r1', { code: 201 });
    store.getState().applyTrace(batch([response]));
    const [row] = store.getState().requests;
    expect(row).toMatchObject({ seq: response.seq, time: response.time, verb: 'create', resource: 'configmaps', namespace: 'default', name: '', user: 'kubernetes-admin', code: 201 });
    expect(row.request).toMatchObject({ from: 'user', stages: [{ stage: 'authentication', decision: 'pass' }], writes: [] });
    expect(store.getState().flow.requests).toEqual([row.request]);
  });

  it('keeps only the newest rows', () => {
    const store = createAppStore();
    const events: TraceEvent[] = [];
    for (let i = 0; i < requestLogCap + 5; i++) {
      events.push(ev('api.request', `q${i}`, { verb: 'get', resource: 'pods', name: `p${i}` }), ev('api.response', `q${i}`, { code: 200 }));
    }
    store.getState().applyTrace(batch(events));
    const rows = store.getState().requests;
    expect(rows).toHaveLength(requestLogCap);
    expect(rows[0].name).toBe('p5');
    expect(rows.at(-1)?.name).toBe(`p${requestLogCap + 4}`);
  });

  it('keeps the last refusals, and a new flow per batch that reports something', () => {
    const store = createAppStore();
    for (let i = 0; i < refusalLogCap + 2; i++) {
      store.getState().applyTrace(
        batch([
          ev('api.request', `x${i}`, { verb: 'create', resource: 'pods', user: 'jane' }),
          ev('api.stage', `x${i}`, { stage: 'authorization', decision: 'refuse', message: `forbidden ${i}` }),
          ev('api.response', `x${i}`, { code: 403, reason: 'Forbidden' }),
        ]),
      );
    }
    const refusals = store.getState().refusals;
    expect(refusals).toHaveLength(refusalLogCap);
    expect(refusals.at(-1)).toMatchObject({ refusedAt: 'authorization', message: `forbidden ${refusalLogCap + 1}`, code: 403 });
    const flow = store.getState().flow;
    store.getState().applyTrace(batch([]));
    expect(store.getState().flow).toBe(flow);
    store.getState().applyTrace(batch([], 12));
    expect(store.getState().flow).toMatchObject({ dropped: 12, requests: [] });
    expect(store.getState().flow.serial).toBe(flow.serial + 1);
  });
});

describe("the user's requests", () => {
  it('are kept apart from the components traffic', () => {
    const store = createAppStore();
    store.getState().applyTrace(
      batch([
        ev('api.request', 'u1', { verb: 'create', resource: 'configmaps', user: 'kubernetes-admin' }),
        ev('api.response', 'u1', { code: 201 }),
        ev('api.request', 'k1', { verb: 'update', resource: 'leases', user: 'system:node:node-1' }),
        ev('api.response', 'k1', { code: 200 }),
      ]),
    );
    expect(store.getState().requests.map((r) => r.user)).toEqual(['kubernetes-admin', 'system:node:node-1']);
    expect(store.getState().userRequests.map((r) => r.resource)).toEqual(['configmaps']);
  });
});
