// Drives strategies the way the generic store does (defaults → system fields → BeforeCreate / BeforeUpdate), for
// the registry's tests. Test-only: nothing outside *.test.ts imports it.
import { ResourceRegistry, type ResourceType } from '../../../shared/api/resources';
import { StatusError, StatusReason } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { VirtualClock } from '../../sim/virtual-clock';
import { rfc3339 } from '../../sim/clock';
import type { ObjectReader, StrategyContext } from '../types';
import { beforeCreate, beforeUpdate } from './generic/rest';
import { meta } from './generic/util';
import { strategyFor } from './strategies';

export const registry = new ResourceRegistry();

const emptyReader: ObjectReader = { get: () => undefined, list: () => [] };

export function resourceType(group: string, resource: string): ResourceType {
  const rt = registry.forGroupResource({ group, resource });
  if (!rt) throw new Error(`unknown resource ${group}/${resource}`);
  return rt;
}

export function contextFor(rt: ResourceType, clock = new VirtualClock()): StrategyContext {
  return { clock, reader: emptyReader, registry, resourceType: rt };
}

let uidCounter = 0;
let rvCounter = 100;

/** Defaults, uid/creationTimestamp/namespace as the create handler fills them, then BeforeCreate. */
export function create(group: string, resource: string, input: KubeObject, rt = resourceType(group, resource)): KubeObject {
  const obj = structuredClone(input);
  const ctx = contextFor(rt);
  const strategy = strategyFor(rt);
  strategy.applyDefaults(obj, ctx);
  const m = meta(obj);
  m.uid = `uid-${++uidCounter}`;
  m.creationTimestamp = rfc3339(ctx.clock.now());
  if (rt.namespaced && !m.namespace) m.namespace = 'default';
  beforeCreate(strategy, obj, ctx);
  m.resourceVersion = String(++rvCounter);
  return obj;
}

/** Defaults, the stored resourceVersion (an unconditional update), then BeforeUpdate. */
export function update(group: string, resource: string, input: KubeObject, old: KubeObject, subresource?: 'status', rt = resourceType(group, resource)): KubeObject {
  const obj = structuredClone(input);
  const ctx = contextFor(rt);
  const strategy = strategyFor(rt);
  if (!subresource) strategy.applyDefaults(obj, ctx);
  const m = meta(obj);
  if (!m.resourceVersion) m.resourceVersion = old.metadata.resourceVersion;
  beforeUpdate(strategy, obj, old, ctx, subresource);
  m.resourceVersion = String(++rvCounter);
  return obj;
}

/** The Status message of the 422 Invalid error `fn` throws. */
export function invalidMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError && e.status.reason === StatusReason.Invalid) return e.status.message;
    throw e;
  }
  throw new Error('expected an Invalid error');
}

export function pod(name: string, spec: Record<string, unknown> = {}, extra: Partial<KubeObject> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...(extra.metadata ?? {}) },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec },
  };
}

export function podTemplate(labels: Record<string, string>, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec } };
}
