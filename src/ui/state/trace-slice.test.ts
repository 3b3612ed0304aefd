import { describe, expect, it } from 'vitest';
import type { TraceBatch } from '../../shared/protocol/messages';
import type { TraceEvent } from '../../shared/protocol/trace';
import { createAppStore } from './store';
import { requestLogCap } from './trace-slice';

let seq = 0;
function ev(kind: TraceEvent['kind'], requestId: string, data: Record<string, unknown>): TraceEvent {
  return { seq: ++seq, time: 1000 * seq, kind, component: 'apiserver', requestId, data };
}
const batch = (events: TraceEvent[]): TraceBatch => ({ events, dropped: 0, droppedByKind: {} });

describe('trace slice', () => {
  it('makes one row per finished request, with the request details and the response code', () => {
    const store = createAppStore();
    store.getState().applyTrace(
      batch([
        ev('api.request', 'r1', { verb: 'create', resource: 'configmaps', namespace: 'default', name: '', user: 'kubernetes-admin' }),
        ev('api.stage', 'r1', { stage: 'authentication' }),
      ]),
    );
    expect(store.getState().requests).toEqual([]);
    store.getState().applyTrace(batch([ev('api.response', 'r1', { code: 201 })]));
    expect(store.getState().requests).toEqual([
      { seq: expect.any(Number), time: expect.any(Number), verb: 'create', resource: 'configmaps', namespace: 'default', name: '', user: 'kubernetes-admin', code: 201 },
    ]);
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
});
