import { describe, expect, it } from 'vitest';
import { newResourceExpired } from '../../shared/api/status';
import type { KubeObject, WatchEvent } from '../../shared/api/types';
import { WatchEventType } from '../../shared/api/types';
import type { WatchHandler } from '../client/client';
import { VirtualClock } from '../sim/virtual-clock';
import { Reflector } from './reflector';

function cm(name: string, rv: string): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'a', name, resourceVersion: rv } };
}

function bookmark(rv: string): WatchEvent {
  return { type: WatchEventType.Bookmark, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: rv } } };
}

/** A reflector over a scripted lister-watcher: the test pushes deliveries through `send`. */
function setup() {
  const clock = new VirtualClock({ startTime: 0 });
  const applied: { events: WatchEvent[]; rv: string }[] = [];
  const watches: string[] = [];
  let send: WatchHandler = () => undefined;
  const reflector = new Reflector({
    name: 'configmaps',
    clock,
    listerWatcher: {
      list: () => ({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: '10' }, items: [] }),
      watch: (rv, handler) => {
        watches.push(rv);
        send = handler;
        return { stop: () => undefined };
      },
    },
    store: {
      replace: () => undefined,
      applyEvents: (events, rv) => applied.push({ events, rv }),
    },
  });
  reflector.run();
  clock.runDeferred();
  return { clock, reflector, applied, watches, send: (events: WatchEvent[]) => send(events) };
}

describe('Reflector.onEvents', () => {
  it('applies a delivery of object events whole, at its last resourceVersion', () => {
    const { reflector, applied, send } = setup();
    const events: WatchEvent[] = [
      { type: WatchEventType.Added, object: cm('x', '11') },
      { type: WatchEventType.Modified, object: cm('y', '12') },
    ];
    send(events);
    expect(applied).toEqual([{ events, rv: '12' }]);
    expect(reflector.lastSyncResourceVersion).toBe('12');
  });

  it('leaves bookmarks out of the applied batch but takes their resourceVersion', () => {
    const { reflector, applied, send } = setup();
    send([bookmark('15')]);
    expect(applied).toEqual([]);
    expect(reflector.lastSyncResourceVersion).toBe('15');
    send([{ type: WatchEventType.Added, object: cm('x', '16') }, bookmark('17')]);
    expect(applied).toEqual([{ events: [{ type: WatchEventType.Added, object: cm('x', '16') }], rv: '17' }]);
    expect(reflector.lastSyncResourceVersion).toBe('17');
  });

  it('applies the object events before an ERROR, then relists after the backoff', () => {
    const { clock, reflector, applied, watches, send } = setup();
    const status = newResourceExpired('too old resource version: 1 (5)').status;
    send([
      { type: WatchEventType.Added, object: cm('x', '11') },
      bookmark('12'),
      { type: WatchEventType.Modified, object: cm('x', '13') },
      { type: WatchEventType.Error, object: status as unknown as KubeObject },
      { type: WatchEventType.Added, object: cm('z', '14') },
    ]);
    expect(applied).toEqual([
      {
        events: [
          { type: WatchEventType.Added, object: cm('x', '11') },
          { type: WatchEventType.Modified, object: cm('x', '13') },
        ],
        rv: '13',
      },
    ]);
    expect(reflector.lastSyncResourceVersion).toBe('13');
    expect(reflector.lastError?.code).toBe(410);
    expect(watches).toEqual(['10']);
    clock.advance(800);
    expect(watches).toEqual(['10', '10']);
  });
});
