// The scale subresource: an autoscaling/v1 Scale view of a workload (spec.replicas, status.replicas and the
// selector as a string). Writing a Scale sets the workload's replicas through the normal update path, so the
// spec change bumps generation and controllers react as to any other edit.
import { fieldErr } from '../../../shared/api/field-errors';
import { newInvalid, newNotFound } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import type { ApiResponse } from '../types';
import type { ResourceContext } from '../pipeline/context';
import { getOwn, isJsonObject, setOwn } from '../patch/json-value';
import { fromStored, writableMeta, type WritableObjectMeta } from '../storage/object-codec';
import { guaranteedUpdate, objectKeyFor } from './guaranteed-update';

function pathParts(path: string): string[] {
  return path.split('.').filter((p) => p !== '');
}

function readPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const p of pathParts(path)) {
    if (!isJsonObject(cur)) return undefined;
    cur = getOwn(cur, p);
  }
  return cur;
}

function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = pathParts(path);
  let cur: Record<string, unknown> = obj;
  for (const p of parts.slice(0, -1)) {
    let next = getOwn(cur, p);
    if (!isJsonObject(next)) {
      next = {};
      setOwn(cur, p, next);
    }
    cur = next as Record<string, unknown>;
  }
  setOwn(cur, parts[parts.length - 1], value);
}

export function toScale(ctx: ResourceContext, obj: KubeObject): KubeObject {
  const scale = ctx.strategy.scale!;
  const meta = obj.metadata;
  const metadata: WritableObjectMeta = { name: meta.name };
  if (meta.namespace) metadata.namespace = meta.namespace;
  if (meta.uid) metadata.uid = meta.uid;
  if (meta.resourceVersion) metadata.resourceVersion = meta.resourceVersion;
  if (meta.creationTimestamp) metadata.creationTimestamp = meta.creationTimestamp;
  const specReplicas = readPath(obj, scale.specReplicasPath);
  const statusReplicas = readPath(obj, scale.statusReplicasPath);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata,
    spec: typeof specReplicas === 'number' ? { replicas: specReplicas } : {},
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, selector: scale.selector(obj) },
  };
}

function requireScale(ctx: ResourceContext): void {
  if (!ctx.strategy.scale) throw newNotFound(ctx.rt, ctx.req.name ?? '');
}

export function getScale(ctx: ResourceContext): ApiResponse<KubeObject> {
  requireScale(ctx);
  const name = ctx.req.name ?? '';
  const kv = ctx.server.store.get(objectKeyFor(ctx, name));
  if (!kv) throw newNotFound(ctx.rt, name);
  return { code: 200, body: toScale(ctx, fromStored(kv)) };
}

/** ValidateScale: replicas must be a non-negative integer. */
function validateScale(name: string, scale: unknown): number {
  const replicas = isJsonObject(scale) && isJsonObject(scale.spec) ? scale.spec.replicas : undefined;
  const value = replicas === undefined ? 0 : replicas;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name, [fieldErr.invalid('spec.replicas', value, 'must be an integer')]);
  }
  if (value < 0) {
    throw newInvalid({ group: 'autoscaling', kind: 'Scale' }, name, [
      fieldErr.invalid('spec.replicas', value, 'must be greater than or equal to 0'),
    ]);
  }
  return value;
}

/**
 * Applies a new Scale (computed from the current one) to the workload: scaleUpdatedObjectInfo. A Scale that
 * carries a resourceVersion is a precondition on the workload's.
 */
export function scaleWorkload(ctx: ResourceContext, newScale: (current: KubeObject) => unknown): ApiResponse<KubeObject> {
  requireScale(ctx);
  const name = ctx.req.name ?? '';
  const result = guaranteedUpdate(ctx, {
    name,
    subresource: 'scale',
    transform: (existing) => {
      if (!existing) throw newNotFound(ctx.rt, name);
      const scale = newScale(toScale(ctx, existing));
      const replicas = validateScale(name, scale);
      const rv = isJsonObject(scale) && isJsonObject(scale.metadata) ? scale.metadata.resourceVersion : undefined;
      if (typeof rv === 'string' && rv !== '') writableMeta(existing).resourceVersion = rv;
      writePath(existing, ctx.strategy.scale!.specReplicasPath, replicas);
      return existing;
    },
  });
  return { code: 200, body: toScale(ctx, result.object) };
}

export function updateScale(ctx: ResourceContext): ApiResponse<KubeObject> {
  return scaleWorkload(ctx, () => ctx.req.body);
}
