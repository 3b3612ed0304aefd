// pkg/controller/history: the ControllerRevisions StatefulSets and DaemonSets record their pod templates in.
// A revision is named "<parent>-<hash>" where the hash is FNV-32 over the revision's data (plus a collision
// probe), labelled controller.kubernetes.io/hash and owned by the parent through a controller ownerReference.
// History wraps the API calls a controller makes on its revisions: list (owned or orphaned), create with
// name-collision handling, renumber, delete, adopt and release.
import type { ControllerRevision } from 'kubernetes-types/apps/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { PatchType } from '../../../shared/api/request';
import type { Selector } from '../../../shared/lib/labels';
import type { Client, Typed } from '../../client/client';
import type { Lister } from '../../informers/shared-informer';
import { deleteOwnerRefStrategicMergePatch, ownerRefControllerPatch } from '../shared/controller-ref-manager';
import { canonicalJson, getControllerOf, newControllerRef, parseTime, safeEncodeString } from '../shared/controller-utils';

/** The label holding the hash of a ControllerRevision's data. */
export const ControllerRevisionHashLabel = 'controller.kubernetes.io/hash';

export type Revision = Typed<ControllerRevision>;

/** ControllerRevisionName: "prefix-hash", the prefix cut to 223 characters so the name fits in 253. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

/** FNV-1 32-bit (hash/fnv New32, which HashControllerRevision uses: multiply, then xor). */
function fnv32(bytes: Uint8Array, hash = FNV32_OFFSET): number {
  let h = hash >>> 0;
  for (const b of bytes) {
    h = Math.imul(h, FNV32_PRIME) >>> 0;
    h ^= b;
  }
  return h >>> 0;
}

/**
 * The bytes a revision's data is hashed over: Kubernetes hashes Data.Raw, the JSON the controller marshalled
 * (Go sorts map keys); here the data is a plain object, dumped as JSON with sorted keys.
 */
function revisionDataBytes(data: unknown): Uint8Array {
  if (data === undefined || data === null) return new Uint8Array(0);
  return new TextEncoder().encode(canonicalJson(data));
}

/**
 * HashControllerRevision: FNV-32 over the data, then the probe's decimal digits when a probe is given, rendered
 * as the decimal sum through SafeEncodeString ("7b6f4b8c9d"-like, no vowels).
 */
export function hashControllerRevision(revision: Pick<ControllerRevision, 'data'>, probe?: number | null): string {
  let h = fnv32(revisionDataBytes(revision.data));
  if (probe !== undefined && probe !== null) h = fnv32(new TextEncoder().encode(String(Math.trunc(probe))), h);
  return safeEncodeString(String(h));
}

/**
 * NewControllerRevision: a revision of data owned by parent (a controller ownerReference to parentKind),
 * labelled with the template's labels and its hash, named "<parent>-<hash>". Namespace is the parent's.
 */
export function newControllerRevision(
  parent: KubeObject,
  parentKind: { apiVersion: string; kind: string },
  templateLabels: Readonly<Record<string, string>> | undefined,
  data: unknown,
  revision: number,
  collisionCount?: number | null,
): Revision {
  const cr: Revision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      namespace: parent.metadata.namespace,
      labels: { ...(templateLabels ?? {}) },
      ownerReferences: [newControllerRef(parent, parentKind)],
    },
    data: structuredClone(data) as ControllerRevision['data'],
    revision,
  };
  const hash = hashControllerRevision(cr, collisionCount);
  cr.metadata.name = controllerRevisionName(parent.metadata.name ?? '', hash);
  cr.metadata.labels![ControllerRevisionHashLabel] = hash;
  return cr;
}

/** The hash label as a number, when it parses as one (Kubernetes' strconv.ParseInt check). */
function hashLabelNumber(cr: ControllerRevision): number | undefined {
  const hs = cr.metadata?.labels?.[ControllerRevisionHashLabel];
  if (hs === undefined || !/^[+-]?\d+$/.test(hs)) return undefined;
  return Number(hs);
}

/**
 * EqualRevision: both absent, or both present with semantically equal data. Differing numeric hash labels
 * short-circuit to false (Kubernetes only parses decimal hashes, so safe-encoded labels never do).
 */
export function equalRevision(lhs: ControllerRevision | undefined | null, rhs: ControllerRevision | undefined | null): boolean {
  if (!lhs || !rhs) return !lhs && !rhs;
  const lh = hashLabelNumber(lhs);
  const rh = hashLabelNumber(rhs);
  if (lh !== undefined && rh !== undefined && lh !== rh) return false;
  return canonicalJson(lhs.data ?? null) === canonicalJson(rhs.data ?? null);
}

/** FindEqualRevisions: the revisions equal to needle, in their order. */
export function findEqualRevisions<T extends ControllerRevision>(revisions: readonly T[], needle: ControllerRevision): T[] {
  return revisions.filter((r) => equalRevision(r, needle));
}

/**
 * SortControllerRevisions: by revision number; ties by creationTimestamp (older first), then by name. A stable
 * sort, in place; returns the array.
 */
export function sortControllerRevisions<T extends ControllerRevision>(revisions: T[]): T[] {
  return revisions.sort((a, b) => {
    const ra = a.revision ?? 0;
    const rb = b.revision ?? 0;
    if (ra !== rb) return ra - rb;
    const ta = parseTime(a.metadata?.creationTimestamp) ?? 0;
    const tb = parseTime(b.metadata?.creationTimestamp) ?? 0;
    if (ta !== tb) return ta - tb;
    const na = a.metadata?.name ?? '';
    const nb = b.metadata?.name ?? '';
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

/** How many names a create tries before giving up (Kubernetes loops until it finds a free one). */
const MaxCreateAttempts = 100;

/** history.Interface over the API server (realHistory): a client and a ControllerRevision lister. */
export class History {
  constructor(
    private readonly client: Client,
    private readonly lister: Lister<Revision>,
  ) {}

  /** ListControllerRevisions: the revisions in parent's namespace matching selector, owned by parent or orphaned. */
  listControllerRevisions(parent: KubeObject, selector: Selector): Revision[] {
    return this.lister
      .listNamespace(parent.metadata.namespace ?? '', selector)
      .filter((cr) => {
        const ref = getControllerOf(cr);
        return ref === undefined || ref.uid === parent.metadata.uid;
      });
  }

  /**
   * CreateControllerRevision: creates revision (owned by parent) named "<parent>-<hash(data, collisionCount)>".
   * When the name is taken by a revision with other data (a hash collision), collisionCount is bumped and the
   * next name tried; when it is taken by an equal revision, that one is returned. Returns the created (or
   * found) revision and the collisionCount reached, which the caller stores in the parent's status.
   */
  createControllerRevision(parent: KubeObject, revision: ControllerRevision, collisionCount: number): { revision: Revision; collisionCount: number } {
    const clone = structuredClone(revision) as Revision;
    const namespace = parent.metadata.namespace;
    let count = collisionCount;
    for (let attempt = 0; attempt < MaxCreateAttempts; attempt++) {
      const hash = hashControllerRevision(revision, count);
      clone.metadata = { ...clone.metadata, name: controllerRevisionName(parent.metadata.name ?? '', hash), namespace };
      try {
        return { revision: this.client.controllerRevisions.create(clone, { namespace }), collisionCount: count };
      } catch (err) {
        if (!isStatusError(err, StatusReason.AlreadyExists)) throw err;
      }
      const exists = this.client.controllerRevisions.get(clone.metadata.name!, { namespace });
      if (canonicalJson(exists.data ?? null) === canonicalJson(clone.data ?? null)) return { revision: exists, collisionCount: count };
      count++;
    }
    throw new Error(`unable to create ControllerRevision for ${namespace}/${parent.metadata.name}: too many hash collisions`);
  }

  /**
   * UpdateControllerRevision: renumbers revision to newRevision, retrying on conflicts with the cached copy
   * (RetryOnConflict, DefaultBackoff's 4 steps).
   */
  updateControllerRevision(revision: Revision, newRevision: number): Revision {
    let clone = structuredClone(revision);
    let lastErr: unknown;
    for (let attempt = 0; attempt < 4; attempt++) {
      if (clone.revision === newRevision) return clone;
      clone.revision = newRevision;
      try {
        return this.client.controllerRevisions.update(clone, { namespace: clone.metadata.namespace });
      } catch (err) {
        if (!isStatusError(err, StatusReason.Conflict)) throw err;
        lastErr = err;
      }
      const cached = this.lister.get(clone.metadata.namespace, clone.metadata.name ?? '');
      const fresh = cached ?? this.client.controllerRevisions.get(clone.metadata.name ?? '', { namespace: clone.metadata.namespace });
      clone = structuredClone(fresh);
    }
    throw lastErr;
  }

  /** DeleteControllerRevision. */
  deleteControllerRevision(revision: ControllerRevision): void {
    this.client.controllerRevisions.delete(revision.metadata?.name ?? '', { namespace: revision.metadata?.namespace });
  }

  /**
   * AdoptControllerRevision: adds a controller ownerReference to parent by a strategic merge patch carrying the
   * revision's uid. Fails when the revision already has a controller.
   */
  adoptControllerRevision(parent: KubeObject, parentKind: { apiVersion: string; kind: string }, revision: ControllerRevision): Revision {
    const owner = getControllerOf({ metadata: revision.metadata ?? {} });
    if (owner) throw new Error(`attempt to adopt revision owned by ${JSON.stringify(owner)}`);
    return this.client.controllerRevisions.patch(
      revision.metadata?.name ?? '',
      PatchType.StrategicMergePatch,
      ownerRefControllerPatch(parent, parentKind, revision.metadata?.uid ?? ''),
      { namespace: parent.metadata.namespace },
    );
  }

  /**
   * ReleaseControllerRevision: removes parent's ownerReference. A revision already gone (NotFound) or no longer
   * owned by parent (Invalid) is nothing to release: undefined.
   */
  releaseControllerRevision(parent: KubeObject, revision: ControllerRevision): Revision | undefined {
    try {
      return this.client.controllerRevisions.patch(
        revision.metadata?.name ?? '',
        PatchType.StrategicMergePatch,
        deleteOwnerRefStrategicMergePatch(revision.metadata?.uid ?? '', [parent.metadata.uid ?? '']),
        { namespace: revision.metadata?.namespace },
      );
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound) || isStatusError(err, StatusReason.Invalid)) return undefined;
      throw err;
    }
  }
}
