// POST pods/<name>/eviction (pkg/registry/core/pod/storage/eviction.go): a delete that respects the pod's
// PodDisruptionBudget. kubectl drain and the UI's "drain node" use it.
//
//   - a terminal, pending or already-terminating pod is deleted at once: it causes no new disruption;
//   - otherwise the one PDB whose selector matches the pod decides: disruptionsAllowed 0 → 429 "Cannot evict
//     pod as it would violate the pod's disruption budget." with a DisruptionBudget cause; else the budget is
//     decremented (status update, the pod recorded in disruptedPods) and the pod deleted. An unready pod does
//     not spend the budget when the budget is met anyway (or the PDB says AlwaysAllow);
//   - the deletion is graceful, with the Eviction's deleteOptions, after the pod gets the DisruptionTarget
//     condition (reason EvictionByEvictionAPI).
// Answer: 201 with a Success Status.
//
// The budget's status is the disruption controller's (controllers/disruption): until it has computed it for the
// PDB's current generation (status.observedGeneration < metadata.generation) every eviction the budget guards is
// refused with a 429 "The disruption budget <name> is still being processed by the server." (retry after 10 s).
import type { PodDisruptionBudget, PodDisruptionBudgetStatus } from 'kubernetes-types/policy/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import {
  StatusError,
  StatusReason,
  isStatusError,
  newBadRequest,
  newConflict,
  newForbidden,
  newInternalError,
  newNotFound,
  successStatus,
  type Status,
  type StatusCause,
} from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { labelSelectorAsSelector, selectorMatches, type Selector } from '../../../shared/lib/labels';
import { rfc3339 } from '../../sim/clock';
import { objectKey } from '../../store/keys';
import { AdmissionOperation, type ApiRequest, type ApiResponse, type SideWrite, type UserInfo } from '../types';
import { setPodCondition } from '../registry/core/pod/binding';
import { admissionAttributes, mutatingAdmissionStage, validatingAdmissionStage } from '../pipeline/admission';
import type { ResourceContext } from '../pipeline/context';
import { ensureObjectNamespaceMatchesRequest } from '../pipeline/object-meta';
import { isJsonObject } from '../patch/json-value';
import { fromStored } from '../storage/object-codec';
import { deleteObject } from './delete';
import { guaranteedUpdate } from './guaranteed-update';

/** MaxDisruptedPodSize: evictions approved but not yet seen by the PDB controller. */
export const maxDisruptedPodSize = 2000;

/** The PDB controller forgets a disrupted pod that was not deleted after this long (DeletionTimeout). */
export const disruptedPodTimeoutMs = 2 * 60_000;

export const evictionRefusedMessage = "Cannot evict pod as it would violate the pod's disruption budget.";

/** policyv1.DisruptionBudgetCause. */
export const DisruptionBudgetCause = 'DisruptionBudget';

/** The condition a pod gets before the eviction deletes it. */
export const DisruptionTargetCondition = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' } as const;

/** The loopback identity the server's own PDB client uses. */
const loopbackUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

type DeleteOptions = NonNullable<ApiRequest['options']>;

interface EvictionObject {
  apiVersion?: string;
  kind?: string;
  metadata: { name?: string; namespace?: string };
  deleteOptions?: {
    gracePeriodSeconds?: number;
    preconditions?: { uid?: string; resourceVersion?: string };
    propagationPolicy?: string;
    orphanDependents?: boolean;
    dryRun?: string[];
  };
}

export function isEviction(ctx: ResourceContext): boolean {
  return ctx.rt.group === '' && ctx.rt.resource === 'pods' && (ctx.req.subresource as string | undefined) === 'eviction';
}

export function evictionHandler(ctx: ResourceContext): ApiResponse<Status> {
  const eviction = decodeEviction(ctx.req.body);
  ensureObjectNamespaceMatchesRequest(ctx, eviction as unknown as KubeObject);
  const name = ctx.req.name ?? '';
  if (name !== (eviction.metadata.name ?? '')) throw newBadRequest('name in URL does not match name in Eviction object');
  const { options, dryRun } = propagateDryRun(eviction, ctx.dryRun);

  const sideWrites: SideWrite[] = [];
  const attrs = admissionAttributes(ctx, AdmissionOperation.Create, eviction as unknown as KubeObject, undefined, 'eviction');
  mutatingAdmissionStage(ctx, attrs, sideWrites);
  validatingAdmissionStage(ctx, attrs, sideWrites);

  const podCtx: ResourceContext = { ...ctx, dryRun };
  const pod = readPod(podCtx, name);
  if (canIgnorePDB(pod)) {
    let deleteOptions = options;
    // A terminating or finished pod needs no guard against becoming ready meanwhile.
    if (shouldEnforceResourceVersion(pod) && resourceVersionIsUnset(options)) {
      deleteOptions = withResourceVersion(options, pod.metadata.resourceVersion);
    }
    addConditionAndDeletePod(podCtx, name, deleteOptions);
    return created();
  }

  const pdbs = podDisruptionBudgetsFor(ctx, pod);
  if (pdbs.length > 1) {
    throw new StatusError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      reason: '' as StatusReason,
      code: 500,
    });
  }
  let updateDeletionOptions = false;
  let pdbName = '';
  if (pdbs.length === 1) {
    const pdb = pdbs[0];
    pdbName = pdb.metadata.name ?? '';
    const status: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
    if (!isPodReady(pod)) {
      // An unhealthy pod does not count towards the budget: evicting it spends nothing when the budget is met.
      if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') updateDeletionOptions = true;
      else if ((status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0) updateDeletionOptions = true;
    }
    if (!updateDeletionOptions) checkAndDecrement(ctx, name, pdb, dryRun);
  }

  // The pod must not have become ready since the decision.
  const deleteOptions = updateDeletionOptions ? withResourceVersion(options, pod.metadata.resourceVersion) : options;
  try {
    addConditionAndDeletePod(podCtx, name, deleteOptions);
  } catch (err) {
    if (isStatusError(err, StatusReason.Conflict) && updateDeletionOptions && resourceVersionIsUnset(options)) {
      // Clients retry a 429.
      throw tooManyRequests(evictionRefusedMessage, 10, `The disruption budget ${pdbName} is still being processed by the server.`);
    }
    throw err;
  }
  return created();
}

function created(): ApiResponse<Status> {
  const status = successStatus();
  status.code = 201;
  return { code: 201, body: status };
}

/**
 * The Eviction from the body (policy/v1, or the still-accepted policy/v1beta1). Another kind is refused as
 * EvictionREST refuses it, naming the internal type it decoded to ("not a Eviction object: *core.Pod").
 */
function decodeEviction(body: unknown): EvictionObject {
  if (!isJsonObject(body)) throw newBadRequest('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  const kind = typeof body.kind === 'string' ? body.kind : 'Eviction';
  const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : 'policy/v1';
  if (kind !== 'Eviction' || (apiVersion !== 'policy/v1' && apiVersion !== 'policy/v1beta1')) {
    const group = apiVersion.includes('/') ? apiVersion.split('/')[0].split('.')[0] : 'core';
    throw newBadRequest(`not a Eviction object: *${group}.${kind}`);
  }
  const eviction = structuredClone(body) as unknown as EvictionObject;
  if (!isJsonObject(eviction.metadata)) eviction.metadata = {};
  return eviction;
}

/** propagateDryRun: the request's dryRun and the Eviction's deleteOptions.dryRun must agree. */
function propagateDryRun(eviction: EvictionObject, requestDryRun: boolean): { options: DeleteOptions; dryRun: boolean } {
  const d = eviction.deleteOptions ?? {};
  const bodyDryRun = Array.isArray(d.dryRun) && d.dryRun.length > 0 ? d.dryRun : undefined;
  if (bodyDryRun && requestDryRun && !(bodyDryRun.length === 1 && bodyDryRun[0] === 'All')) {
    throw newInternalError(`Non-matching dry-run options in request and content: [All] and [${bodyDryRun.join(' ')}]`);
  }
  const options: DeleteOptions = {};
  if (d.gracePeriodSeconds !== undefined) options.gracePeriodSeconds = d.gracePeriodSeconds;
  if (d.propagationPolicy !== undefined) options.propagationPolicy = d.propagationPolicy;
  if (d.orphanDependents !== undefined) options.orphanDependents = d.orphanDependents;
  if (d.preconditions) options.preconditions = { ...d.preconditions };
  if (bodyDryRun) (options as { dryRun?: unknown }).dryRun = bodyDryRun;
  return { options, dryRun: requestDryRun || (bodyDryRun?.includes('All') ?? false) };
}

function resourceVersionIsUnset(options: DeleteOptions): boolean {
  return options.preconditions?.resourceVersion === undefined;
}

function withResourceVersion(options: DeleteOptions, resourceVersion: string | undefined): DeleteOptions {
  return { ...options, preconditions: { ...(options.preconditions ?? {}), resourceVersion } };
}

function readPod(ctx: ResourceContext, name: string): KubeObject & Pod {
  const kv = ctx.server.store.get(objectKey(ctx.rt, ctx.namespace, name));
  if (!kv) throw newNotFound(ctx.rt, name);
  return fromStored(kv) as KubeObject & Pod;
}

/** canIgnorePDB: evicting a pod that is finished, pending or already terminating disrupts nothing new. */
function canIgnorePDB(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

function shouldEnforceResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata?.deletionTimestamp);
}

export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/** GetPodPodDisruptionBudgets: the pod's namespace's PDBs whose selector matches it (policy/v1: empty matches all, missing or invalid none). */
function podDisruptionBudgetsFor(ctx: ResourceContext, pod: Pod): (KubeObject & PodDisruptionBudget)[] {
  const out: (KubeObject & PodDisruptionBudget)[] = [];
  for (const obj of ctx.server.reader.list({ group: 'policy', resource: 'poddisruptionbudgets' }, pod.metadata?.namespace)) {
    const pdb = obj as KubeObject & PodDisruptionBudget;
    const selector = selectorOf(pdb);
    if (!selector || !selectorMatches(selector, pod.metadata?.labels)) continue;
    out.push(pdb);
  }
  return out;
}

function selectorOf(pdb: PodDisruptionBudget): Selector | undefined {
  try {
    const sel = labelSelectorAsSelector(pdb.spec?.selector);
    return sel;
  } catch {
    return undefined;
  }
}

/** Whether the disruption controller has computed the status for the current spec. */
function statusIsCurrent(pdb: KubeObject & PodDisruptionBudget): boolean {
  return (pdb.status?.observedGeneration ?? 0) >= (pdb.metadata.generation ?? 0);
}

function tooManyRequests(message: string, retryAfterSeconds: number, causeMessage: string): StatusError {
  const cause: StatusCause = { reason: DisruptionBudgetCause, message: causeMessage };
  const details: Status['details'] = { causes: [cause] };
  if (retryAfterSeconds > 0) details.retryAfterSeconds = retryAfterSeconds;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: StatusReason.TooManyRequests, details, code: 429 });
}

/** checkAndDecrement: refuses when the budget allows no disruption, else spends one (status update). */
function checkAndDecrement(ctx: ResourceContext, podName: string, pdb: KubeObject & PodDisruptionBudget, dryRun: boolean): void {
  const name = pdb.metadata.name ?? '';
  const status: Partial<PodDisruptionBudgetStatus> = pdb.status ?? {};
  const pdbGR = { group: 'policy', resource: 'poddisruptionbudget' };
  if (!statusIsCurrent(pdb)) throw tooManyRequests(evictionRefusedMessage, 10, `The disruption budget ${name} is still being processed by the server.`);
  const allowed = status.disruptionsAllowed ?? 0;
  if (allowed < 0) throw newForbidden(pdbGR, name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > maxDisruptedPodSize) {
    throw newForbidden(pdbGR, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if (allowed === 0) {
    throw tooManyRequests(
      evictionRefusedMessage,
      0,
      `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`,
    );
  }
  const now = rfc3339(ctx.server.clock.now());
  const next: Partial<PodDisruptionBudgetStatus> = { ...structuredClone(status), disruptionsAllowed: allowed - 1 };
  if (next.disruptionsAllowed === 0) {
    // pdbhelper.UpdateDisruptionAllowedCondition.
    const conditions = [...(next.conditions ?? [])];
    const i = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
    const cond = { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: status.observedGeneration ?? 0, lastTransitionTime: now };
    if (i < 0) conditions.push(cond);
    else conditions[i] = { ...cond, lastTransitionTime: conditions[i].status === 'False' ? conditions[i].lastTransitionTime : now };
    next.conditions = conditions;
  }
  if (dryRun) return;
  next.disruptedPods = { ...(next.disruptedPods ?? {}), [podName]: now };
  const pdbs = ctx.server.registry.forGroupResource({ group: 'policy', resource: 'poddisruptionbudgets' });
  if (!pdbs) throw newNotFound({ group: 'policy', resource: 'poddisruptionbudgets' }, name);
  const pdbCtx: ResourceContext = {
    ...ctx,
    user: loopbackUser,
    rt: pdbs,
    strategy: ctx.server.strategyFor(pdbs),
    dryRun: false,
    req: { verb: 'update', group: 'policy', version: pdbs.version, resource: 'poddisruptionbudgets', subresource: 'status', namespace: ctx.namespace, name, user: loopbackUser },
  };
  guaranteedUpdate(pdbCtx, {
    name,
    subresource: 'status',
    transform: (existing) => {
      const obj = existing ?? pdb;
      if (existing && existing.metadata.resourceVersion !== pdb.metadata.resourceVersion) {
        throw newConflict(pdbs, name, 'the object has been modified; please apply your changes to the latest version and try again');
      }
      obj.status = next as KubeObject['status'];
      return obj;
    },
  });
}

/**
 * addConditionAndDeletePod: the DisruptionTarget condition through the status path (keeping the caller's
 * preconditions), then the graceful delete.
 */
function addConditionAndDeletePod(ctx: ResourceContext, name: string, options: DeleteOptions): void {
  let deleteOptions = options;
  if (!ctx.dryRun) {
    const statusCtx: ResourceContext = { ...ctx, req: { ...ctx.req, verb: 'update', subresource: 'status', name } };
    const result = guaranteedUpdate(statusCtx, {
      name,
      subresource: 'status',
      transform: (existing) => {
        if (!existing) throw newNotFound(ctx.rt, name);
        const pre = options.preconditions;
        if (pre?.uid !== undefined && pre.uid !== existing.metadata.uid) {
          throw newConflict(
            { group: '', resource: 'Pod' },
            name,
            `the UID in the precondition (${pre.uid}) does not match the UID in record (${existing.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
          );
        }
        if (pre?.resourceVersion !== undefined && pre.resourceVersion !== existing.metadata.resourceVersion) {
          throw newConflict(
            { group: '', resource: 'Pod' },
            name,
            `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${existing.metadata.resourceVersion ?? ''}). The object might have been modified`,
          );
        }
        setPodCondition(existing, { ...DisruptionTargetCondition }, rfc3339(ctx.server.clock.now()));
        return existing;
      },
    });
    // We made the last change: the precondition moves to our resourceVersion.
    if (!resourceVersionIsUnset(options)) deleteOptions = withResourceVersion(options, result.object.metadata.resourceVersion);
  }
  deleteObject(ctx, name, deleteOptions);
}
