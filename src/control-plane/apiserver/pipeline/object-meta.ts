// ObjectMeta handling around decoding and storage (apiserver/pkg/registry/rest/meta.go and
// apiserver/pkg/storage/names/generate.go): clients cannot set system fields, the object's namespace must be
// the request's, and a create gets a uid, a creation timestamp and, for generateName, a generated name.
import { newBadRequest } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { rfc3339, type Clock } from '../../sim/clock';
import type { Rng } from '../../sim/rng';
import type { ResourceContext } from './context';
import { writableMeta } from '../storage/object-codec';

/** rest.WipeObjectMetaSystemFields: what a create may not choose. */
export function wipeObjectMetaSystemFields(obj: KubeObject): void {
  const meta = writableMeta(obj);
  // Checked first: most bodies carry none of them, and a delete costs more than the look.
  if ('creationTimestamp' in meta) delete meta.creationTimestamp;
  if ('uid' in meta) delete meta.uid;
  if ('deletionTimestamp' in meta) delete meta.deletionTimestamp;
  if ('deletionGracePeriodSeconds' in meta) delete meta.deletionGracePeriodSeconds;
  if ('selfLink' in meta) delete meta.selfLink;
}

/** rest.FillObjectMetaSystemFields. */
export function fillObjectMetaSystemFields(obj: KubeObject, clock: Clock, rng: Rng): void {
  writableMeta(obj).creationTimestamp = rfc3339(clock.now());
  writableMeta(obj).uid = rng.uuid();
}

/**
 * rest.EnsureObjectNamespaceMatchesRequestNamespace: an empty namespace takes the request's; cluster-scoped
 * objects lose theirs; anything else that differs is a 400.
 */
export function ensureObjectNamespaceMatchesRequest(ctx: ResourceContext, obj: KubeObject): void {
  obj.metadata ??= {};
  const requestNamespace = ctx.rt.namespaced ? (ctx.namespace ?? '') : '';
  const objNamespace = obj.metadata.namespace ?? '';
  if (objNamespace === requestNamespace) return;
  if (objNamespace === '') {
    obj.metadata.namespace = requestNamespace;
    return;
  }
  if (requestNamespace === '') {
    delete obj.metadata.namespace;
    return;
  }
  throw newBadRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** The name in the body must be the name in the URL (handlers/rest.go checkName). */
export function checkName(ctx: ResourceContext, obj: KubeObject): void {
  const name = obj.metadata?.name ?? '';
  const expected = ctx.req.name ?? '';
  if (name !== expected) {
    throw newBadRequest(`the name of the object (${name}) does not match the name on the URL (${expected})`);
  }
}

// names.SimpleNameGenerator: no vowels and no look-alike characters, so generated names spell no words.
const randomAlphabet = 'bcdfghjklmnpqrstvwxz2456789';
const maxNameLength = 63;
const randomLength = 5;
const maxGeneratedNameLength = maxNameLength - randomLength;

export function generateName(base: string, rng: Rng): string {
  const prefix = base.length > maxGeneratedNameLength ? base.slice(0, maxGeneratedNameLength) : base;
  return prefix + rng.string(randomLength, randomAlphabet);
}
