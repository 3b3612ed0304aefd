// pkg/controller/statefulset/stateful_pod_control.go: how the StatefulSet controller creates, updates and deletes
// its pods and their PersistentVolumeClaims, with the events it records on the set:
//   SuccessfulCreate "create Claim www-web-0 Pod web-0 in StatefulSet web success"
//   SuccessfulCreate "create Pod web-0 in StatefulSet web successful"
//   SuccessfulDelete "delete Pod web-2 in StatefulSet web successful"
//   FailedCreate     "create Pod web-0 in StatefulSet web failed error: <API error>"
// Claims are created before their pod, and their ownerReferences follow persistentVolumeClaimRetentionPolicy.
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { Client } from '../../client/client';
import type { EventRecorder } from '../../client/record/event-recorder';
import type { Lister } from '../../informers/shared-informer';
import {
  type ClaimObj,
  getOrdinal,
  getPersistentVolumeClaimName,
  getPersistentVolumeClaimRetentionPolicy,
  getPersistentVolumeClaims,
  hasStaleOwnerRef,
  identityMatches,
  isClaimOwnerUpToDate,
  type PodObj,
  RetentionPolicyType,
  type StatefulSetObj,
  storageMatches,
  updateClaimOwnerRefForSetAndPod,
  updateIdentity,
  updateStorage,
} from './stateful-set-utils';

/** utilerrors.NewAggregate's message: one error as is, several as "[a, b]". */
export class AggregateError extends Error {
  constructor(readonly errors: unknown[]) {
    super(errors.length === 1 ? errorText(errors[0]) : `[${errors.map(errorText).join(', ')}]`);
    this.name = 'AggregateError';
  }
}

/** NewAggregate: undefined for no errors. */
export function aggregate(errors: unknown[]): Error | undefined {
  const flat = errors.flatMap((e) => (e === undefined || e === null ? [] : e instanceof AggregateError ? e.errors : [e]));
  return flat.length === 0 ? undefined : new AggregateError(flat);
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const podKind = { apiVersion: 'v1', kind: 'Pod' } as const;

/** strings.Title of a verb: "create" → "Create". */
function title(verb: string): string {
  return verb.charAt(0).toUpperCase() + verb.slice(1);
}

export class StatefulPodControl {
  constructor(
    private readonly client: Client,
    private readonly podLister: Lister<PodObj>,
    private readonly claimLister: Lister<ClaimObj>,
    private readonly recorder: EventRecorder,
  ) {}

  /** CreateStatefulPod: the pod's claims first, then the pod; then the claims' ownerReferences. */
  createStatefulPod(set: StatefulSetObj, pod: PodObj): void {
    try {
      this.createPersistentVolumeClaims(set, pod);
    } catch (err) {
      this.recordPodEvent('create', set, pod, err);
      throw err;
    }
    let created: PodObj | undefined;
    try {
      created = this.client.pods.create(pod, { namespace: pod.metadata.namespace });
    } catch (err) {
      // Sink AlreadyExists: no event (the cache has not seen the pod yet).
      if (isStatusError(err, StatusReason.AlreadyExists)) throw err;
      this.recordPodEvent('create', set, pod, err);
      throw err;
    }
    try {
      // Set the claims' references as far as possible now (the pod's uid is known).
      this.updatePodClaimForRetentionPolicy(set, created);
    } catch (err) {
      this.recordPodEvent('update', set, pod, err);
      throw err;
    }
    this.recordPodEvent('create', set, pod);
  }

  /**
   * UpdateStatefulPod: brings a pod's identity (name labels), storage (claim volumes) and its claims'
   * ownerReferences in line with set; retries on conflicts with the cached pod.
   */
  updateStatefulPod(set: StatefulSetObj, pod: PodObj): void {
    let attemptedUpdate = false;
    let current = pod;
    let lastErr: unknown;
    for (let attempt = 0; attempt < 5; attempt++) {
      lastErr = undefined;
      let consistent = true;
      if (!identityMatches(set, current)) {
        updateIdentity(set, current);
        consistent = false;
      }
      if (!storageMatches(set, current)) {
        updateStorage(set, current);
        consistent = false;
        try {
          this.createPersistentVolumeClaims(set, current);
        } catch (err) {
          this.recordPodEvent('update', set, current, err);
          throw err;
        }
      }
      let match: boolean;
      try {
        match = this.claimsMatchRetentionPolicy(set, current);
      } catch (err) {
        this.recordPodEvent('update', set, current, err);
        throw err;
      }
      if (!match) {
        try {
          this.updatePodClaimForRetentionPolicy(set, current);
        } catch (err) {
          this.recordPodEvent('update', set, current, err);
          throw err;
        }
        consistent = false;
      }
      if (consistent) return;
      attemptedUpdate = true;
      try {
        this.client.pods.update(current, { namespace: current.metadata.namespace });
        break;
      } catch (err) {
        lastErr = err;
        const cached = this.podLister.get(set.metadata.namespace, current.metadata.name ?? '');
        if (cached) current = structuredClone(cached);
        if (!isStatusError(err, StatusReason.Conflict)) break;
      }
    }
    if (attemptedUpdate) this.recordPodEvent('update', set, current, lastErr);
    if (lastErr !== undefined) throw lastErr;
  }

  /** DeleteStatefulPod: deletes the pod (graceful), recording SuccessfulDelete or FailedDelete. */
  deleteStatefulPod(set: StatefulSetObj, pod: PodObj): void {
    try {
      this.client.pods.delete(pod.metadata.name ?? '', { namespace: pod.metadata.namespace });
    } catch (err) {
      this.recordPodEvent('delete', set, pod, err);
      throw err;
    }
    this.recordPodEvent('delete', set, pod);
  }

  /** ClaimsMatchRetentionPolicy: every existing claim of the pod has the references the policy asks for. */
  claimsMatchRetentionPolicy(set: StatefulSetObj, pod: PodObj): boolean {
    const ordinal = getOrdinal(pod);
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const claim = this.claimLister.get(set.metadata.namespace, getPersistentVolumeClaimName(set, template, ordinal));
      // A missing claim is picked up in a later sync.
      if (claim && !isClaimOwnerUpToDate(claim, set, pod)) return false;
    }
    return true;
  }

  /** UpdatePodClaimForRetentionPolicy: rewrites the ownerReferences of the pod's claims that do not follow the policy. */
  updatePodClaimForRetentionPolicy(set: StatefulSetObj, pod: PodObj): void {
    const ordinal = getOrdinal(pod);
    for (const template of set.spec?.volumeClaimTemplates ?? []) {
      const claimName = getPersistentVolumeClaimName(set, template, ordinal);
      const cached = this.claimLister.get(set.metadata.namespace, claimName);
      if (!cached || isClaimOwnerUpToDate(cached, set, pod)) continue;
      const claim = structuredClone(cached);
      updateClaimOwnerRefForSetAndPod(claim, set, pod);
      try {
        this.client.persistentVolumeClaims.update(claim, { namespace: claim.metadata.namespace });
      } catch (err) {
        throw new Error(`Could not update claim ${claimName} for delete policy ownerRefs: ${errorText(err)}`, { cause: err });
      }
    }
  }

  /**
   * PodClaimIsStale: with whenScaled Delete, a claim still referencing an earlier pod of this name (another uid,
   * or a pod not created yet) blocks creating the pod until the garbage collector removes it.
   */
  podClaimIsStale(set: StatefulSetObj, pod: PodObj): boolean {
    if (getPersistentVolumeClaimRetentionPolicy(set).whenScaled === RetentionPolicyType.Retain) return false;
    for (const claim of getPersistentVolumeClaims(set, pod).values()) {
      const pvc = this.claimLister.get(claim.metadata.namespace, claim.metadata.name ?? '');
      if (pvc && hasStaleOwnerRef(pvc, pod, podKind)) return true;
    }
    return false;
  }

  /** createMissingPersistentVolumeClaims: for a Pending pod, its claims (one may have been deleted) and their references. */
  createMissingPersistentVolumeClaims(set: StatefulSetObj, pod: PodObj): void {
    this.createPersistentVolumeClaims(set, pod);
    try {
      this.updatePodClaimForRetentionPolicy(set, pod);
    } catch (err) {
      this.recordPodEvent('update', set, pod, err);
      throw err;
    }
  }

  /**
   * createPersistentVolumeClaims: creates each claim of the pod the cache does not have; a claim being deleted
   * is an error (the pod must wait for it to go). Errors are aggregated.
   */
  createPersistentVolumeClaims(set: StatefulSetObj, pod: PodObj): void {
    const errs: unknown[] = [];
    for (const claim of getPersistentVolumeClaims(set, pod).values()) {
      const name = claim.metadata.name ?? '';
      const pvc = this.claimLister.get(claim.metadata.namespace, name);
      if (!pvc) {
        try {
          this.client.persistentVolumeClaims.create(claim, { namespace: claim.metadata.namespace });
          this.recordClaimEvent('create', set, pod, claim);
        } catch (err) {
          errs.push(new Error(`failed to create PVC ${name}: ${errorText(err)}`, { cause: err }));
          if (!isStatusError(err, StatusReason.AlreadyExists)) this.recordClaimEvent('create', set, pod, claim, err);
        }
      } else if (pvc.metadata.deletionTimestamp) {
        errs.push(new Error(`pvc ${name} is being deleted`));
      }
    }
    const err = aggregate(errs);
    if (err) throw err;
  }

  private recordPodEvent(verb: string, set: StatefulSetObj, pod: PodObj, err?: unknown): void {
    if (err === undefined) {
      this.recorder.event(set, 'Normal', `Successful${title(verb)}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
    } else {
      this.recorder.event(
        set,
        'Warning',
        `Failed${title(verb)}`,
        `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errorText(err)}`,
      );
    }
  }

  private recordClaimEvent(verb: string, set: StatefulSetObj, pod: PodObj, claim: ClaimObj, err?: unknown): void {
    if (err === undefined) {
      this.recorder.event(
        set,
        'Normal',
        `Successful${title(verb)}`,
        `${verb} Claim ${claim.metadata.name} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`,
      );
    } else {
      this.recorder.event(
        set,
        'Warning',
        `Failed${title(verb)}`,
        `${verb} Claim ${claim.metadata.name} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${errorText(err)}`,
      );
    }
  }
}
