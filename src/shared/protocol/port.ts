// An in-process pair of connected ports for running the worker half in the same thread (Node tests,
// benchmarks, headless clusters). Delivery is asynchronous, like postMessage, and by default every message is
// copied through JSON so "only plain JSON crosses" is enforced, not assumed.
import type { PortLike } from './messages';

type Listener = (event: { data: unknown }) => void;

export interface PortPairOptions {
  /**
   * 'json' (default) copies each message through JSON.stringify/parse and throws on values JSON would lose
   * silently (class instances survive JSON, so they are checked for too); 'clone' uses structuredClone like a
   * real postMessage; 'none' passes references (fastest, for benchmarks).
   */
  copy?: 'json' | 'clone' | 'none';
}

export interface InMemoryPort extends PortLike {
  close(): void;
}

export function createPortPair(options: PortPairOptions = {}): [InMemoryPort, InMemoryPort] {
  const copy = options.copy ?? 'json';
  const listeners: [Set<Listener>, Set<Listener>] = [new Set(), new Set()];
  let closed = false;
  const make = (self: 0 | 1): InMemoryPort => ({
    postMessage(message: unknown) {
      if (closed) return;
      const data = copyMessage(message, copy);
      queueMicrotask(() => {
        if (closed) return;
        for (const l of [...listeners[1 - self]]) l({ data });
      });
    },
    addEventListener(_type: 'message', listener: Listener) {
      listeners[self].add(listener);
    },
    removeEventListener(_type: 'message', listener: Listener) {
      listeners[self].delete(listener);
    },
    close() {
      closed = true;
      listeners[0].clear();
      listeners[1].clear();
    },
  });
  return [make(0), make(1)];
}

function copyMessage(message: unknown, copy: 'json' | 'clone' | 'none'): unknown {
  if (copy === 'none') return message;
  if (copy === 'clone') return structuredClone(message);
  assertPlainJson(message, '$');
  return JSON.parse(JSON.stringify(message));
}

/** Throws when a value is not plain JSON (class instance, Map, function, undefined in an array, NaN…). */
export function assertPlainJson(value: unknown, path: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`not plain JSON at ${path}: ${value}`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      if (v === undefined) throw new TypeError(`not plain JSON at ${path}[${i}]: undefined`);
      assertPlainJson(v, `${path}[${i}]`);
    });
    return;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new TypeError(`not plain JSON at ${path}: ${(value as object).constructor?.name ?? 'object'} instance`);
    }
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined) assertPlainJson(v, `${path}.${k}`);
    }
    return;
  }
  throw new TypeError(`not plain JSON at ${path}: ${typeof value}`);
}
