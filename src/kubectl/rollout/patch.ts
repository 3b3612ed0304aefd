// set.CalculatePatch (k8s.io/kubectl v0.32.4 pkg/cmd/set/helper.go): run a mutation on a copy of the object and
// diff before/after into a two-way strategic merge patch (strategicpatch.CreateTwoWayMergePatch), which the
// command then sends. Used by rollout pause/resume/restart and set image/env.
//
//   const p = calculatePatch(target, (obj) => { obj.spec.paused = true; });
//   p.patch   // {"spec":{"paused":true}}  ({} when nothing changed)
import { builtinSchemaHints } from '../../control-plane/apiserver/patch/list-types';
import type { JsonObject } from '../../control-plane/apiserver/patch/json-value';
import type { KubeObject } from '../../shared/api/types';
import { threeWayMergePatch } from '../apply';
import type { Target } from './target';

export interface CalculatedPatch {
  target: Target;
  /** The object after the mutation. */
  after?: KubeObject;
  patch?: JsonObject;
  err?: unknown;
}

/** Mutates a copy (throwing to refuse, as kubectl's PatchFn returns an error) and computes the patch. */
export function calculatePatch(target: Target, mutate: (obj: KubeObject) => void): CalculatedPatch {
  const after = structuredClone(target.object);
  try {
    mutate(after);
  } catch (err) {
    return { target, err };
  }
  return { target, after, patch: twoWayMergePatch(target.object, after, target.rt.custom ? undefined : target.rt.kind) };
}

/**
 * CreateTwoWayMergePatch(original, modified): what changed or was added, and null for what was removed; lists
 * the schema merges by key get per-item patches. (A three-way patch whose current state is the original.)
 */
export function twoWayMergePatch(original: KubeObject, modified: KubeObject, kind: string | undefined): JsonObject {
  const o = original as unknown as JsonObject;
  return threeWayMergePatch(o, modified as unknown as JsonObject, o, kind ? builtinSchemaHints(kind) : undefined);
}

export function isEmptyPatch(patch: JsonObject | undefined): boolean {
  return !patch || Object.keys(patch).length === 0;
}
