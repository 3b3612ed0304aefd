// ControllerRefManager (pkg/controller/controller_ref_manager.go): a controller "claims" the objects it should
// manage. For each candidate:
//   - controlled by someone else              → ignored
//   - controlled by us, selector matches      → claimed (even while we are being deleted: no action needed)
//   - controlled by us, selector no longer matches → released (ownerReference removed), unless we are being deleted
//   - an orphan matching the selector, not being deleted, same namespace → adopted (controller ownerReference
//     added by a strategic merge patch), once canAdopt() confirms from the API server that we are not being deleted
// Adoption and release are patches carrying metadata.uid, so they fail rather than touch a recreated namesake.
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import type { Selector } from '../../../shared/lib/labels';
import { selectorMatches } from '../../../shared/lib/labels';
import { getControllerOf } from './controller-utils';

/** The body of an adoption patch (ownerRefControllerPatch). */
export function ownerRefControllerPatch(
  controller: KubeObject,
  gvk: { apiVersion: string; kind: string },
  uid: string,
  finalizers: string[] = [],
): unknown {
  const metadata: Record<string, unknown> = {
    ownerReferences: [
      {
        apiVersion: gvk.apiVersion,
        kind: gvk.kind,
        name: controller.metadata.name,
        uid: controller.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
    uid,
  };
  if (finalizers.length > 0) metadata.finalizers = finalizers;
  return { metadata };
}

/** GenerateDeleteOwnerRefStrategicMergeBytes: removes the owners' references from the dependent. */
export function deleteOwnerRefStrategicMergePatch(dependentUid: string, ownerUids: string[], finalizers: string[] = []): unknown {
  const metadata: Record<string, unknown> = {
    ownerReferences: ownerUids.map((uid) => ({ $patch: 'delete', uid })),
    uid: dependentUid,
  };
  if (finalizers.length > 0) metadata['$deleteFromPrimitiveList/finalizers'] = finalizers;
  return { metadata };
}

/**
 * RecheckDeletionTimestamp: a canAdopt check that reads the controller fresh from the server (a cached copy
 * may not show a deletion that just began), failing if it is gone, replaced, or being deleted.
 */
export function recheckDeletionTimestamp(getObject: () => KubeObject): () => void {
  return () => {
    let obj: KubeObject;
    try {
      obj = getObject();
    } catch (err) {
      throw new Error(`can't recheck DeletionTimestamp: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    if (obj.metadata.deletionTimestamp) {
      throw new Error(`${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''} has just been deleted at ${obj.metadata.deletionTimestamp}`);
    }
  };
}

/** A fresh-read canAdopt for a namespaced controller, checking it is still the same object (uid). */
export function freshControllerCheck(controller: KubeObject, kind: string, get: (namespace: string, name: string) => KubeObject): () => void {
  return recheckDeletionTimestamp(() => {
    const ns = controller.metadata.namespace ?? '';
    const name = controller.metadata.name ?? '';
    const fresh = get(ns, name);
    if (fresh.metadata.uid !== controller.metadata.uid) {
      throw new Error(`original ${kind} ${ns}/${name} is gone: got uid ${fresh.metadata.uid}, wanted ${controller.metadata.uid}`);
    }
    return fresh;
  });
}

export interface ControllerRefManagerOptions<T extends KubeObject> {
  /** The claiming controller (a cached copy is fine: canAdopt re-reads it). */
  controller: KubeObject;
  selector: Selector;
  /** The controller's apiVersion and kind, for the ownerReference. */
  controllerKind: { apiVersion: string; kind: string };
  /** Throws when adoption must not happen (see recheckDeletionTimestamp). Called at most once per manager. */
  canAdopt?: () => void;
  /** Applies a strategic merge patch to a dependent. */
  patch: (obj: T, patch: unknown) => void;
  /** "Pod", "ReplicaSet": names the dependent kind in errors. */
  dependentKind: string;
  finalizers?: string[];
}

export class ControllerRefManager<T extends KubeObject> {
  private canAdoptDone = false;
  private canAdoptErr: unknown;

  constructor(private readonly options: ControllerRefManagerOptions<T>) {}

  private canAdopt(): void {
    if (!this.canAdoptDone) {
      this.canAdoptDone = true;
      try {
        this.options.canAdopt?.();
      } catch (err) {
        this.canAdoptErr = err;
      }
    }
    if (this.canAdoptErr !== undefined) throw this.canAdoptErr;
  }

  /**
   * ClaimObject: whether obj is (now) ours. Throws when an adoption or release failed for a reason worth a
   * retry (a NotFound dependent is simply not claimed).
   */
  claimObject(obj: T, match: (obj: T) => boolean): boolean {
    const { controller } = this.options;
    const controllerRef = getControllerOf(obj);
    if (controllerRef) {
      // Owned by someone else. Ignore.
      if (controllerRef.uid !== controller.metadata.uid) return false;
      // We already own it and the selector matches.
      if (match(obj)) return true;
      // Owned by us but selector doesn't match. Try to release, unless we're being deleted.
      if (controller.metadata.deletionTimestamp) return false;
      this.release(obj);
      return false;
    }
    // It's an orphan. Ignore if we're being deleted, the selector doesn't match, or it is being deleted.
    if (controller.metadata.deletionTimestamp || !match(obj)) return false;
    if (obj.metadata.deletionTimestamp) return false;
    // Ignore if namespace not match.
    if (controller.metadata.namespace && controller.metadata.namespace !== obj.metadata.namespace) return false;
    // Selector matches. Try to adopt.
    try {
      this.adopt(obj);
    } catch (err) {
      // If the object no longer exists, ignore the error.
      if (isStatusError(err, StatusReason.NotFound)) return false;
      // Either someone else claimed it first, or there was a transient error: requeue and retry.
      throw err;
    }
    return true;
  }

  /**
   * ClaimPods / ClaimReplicaSets: the candidates that are ours after adopting and releasing. Errors are collected
   * and thrown together after every candidate was looked at, as utilerrors.NewAggregate.
   */
  claim(objects: readonly T[], filters: ((obj: T) => boolean)[] = []): T[] {
    const claimed: T[] = [];
    const errors: unknown[] = [];
    const { selector } = this.options;
    const match = (obj: T): boolean => {
      // Check selector first so filters only run on potentially matching objects.
      if (!selectorMatches(selector, obj.metadata.labels)) return false;
      for (let i = 0; i < filters.length; i++) if (!filters[i](obj)) return false;
      return true;
    };
    for (const obj of objects) {
      try {
        if (this.claimObject(obj, match)) claimed.push(obj);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new Error(`[${errors.map((e) => (e instanceof Error ? e.message : String(e))).join(', ')}]`);
    return claimed;
  }

  private adopt(obj: T): void {
    const { controller, controllerKind, dependentKind, finalizers } = this.options;
    try {
      this.canAdopt();
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      throw new Error(`can't adopt ${dependentKind} ${obj.metadata.namespace}/${obj.metadata.name} (${obj.metadata.uid}): ${detail}`, { cause: err });
    }
    // The API server rejects this patch if another ownerReference already has controller=true.
    this.options.patch(obj, ownerRefControllerPatch(controller, controllerKind, obj.metadata.uid ?? '', finalizers));
  }

  private release(obj: T): void {
    const { controller, finalizers } = this.options;
    try {
      this.options.patch(obj, deleteOwnerRefStrategicMergePatch(obj.metadata.uid ?? '', [controller.metadata.uid ?? ''], finalizers));
    } catch (err) {
      // The object no longer exists, or it was deleted and recreated (uid mismatch → Invalid): nothing to release.
      if (isStatusError(err, StatusReason.NotFound) || isStatusError(err, StatusReason.Invalid)) return;
      throw err;
    }
  }
}
