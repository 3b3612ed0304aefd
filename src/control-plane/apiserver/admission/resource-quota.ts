// ResourceQuota admission (apiserver/pkg/admission/plugin/resourcequota/controller.go, CheckRequest): a create or
// update that would push a matching quota of its namespace past spec.hard is refused; otherwise the quota's
// status.used grows in the same store transaction as the object (a side write), as the real plugin updates the
// quota before the object is stored.
//
// Differences, because no quota controller runs yet: hard limits are read from spec.hard (the controller copies
// them to status.hard), and usage a quota's status.used does not list yet is computed from the objects — so
// "status unknown for quota" never happens. Deletions do not give usage back here: that is the quota
// controller's job (computeQuotaUsage is the calculation it needs).
import type { GroupResource, KubeObject } from '../../../shared/api/types';
import { newQuantity } from '../../../shared/lib/quantity';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation, ObjectReader, ValidatingAdmissionPlugin } from '../types';
import { AdmissionOperation as Op } from '../types';
import { admissionForbidden } from './errors';
import { type QuotaEvaluator, type ScopeSelectorRequirement, quotaEvaluatorFor } from './quota-evaluators';
import {
  type ResourceList,
  addInto,
  addLists,
  exceededKeys,
  isZeroList,
  listsEqual,
  mask,
  negativeKeys,
  parseResourceList,
  prettyPrint,
  resourceListToJSON,
  subtractNonNegative,
} from './resource-list';

export const ResourceQuotaPluginName = 'ResourceQuota';

const resourceQuotasGR = { group: '', resource: 'resourcequotas' };

interface QuotaSpec {
  hard?: Record<string, unknown>;
  scopes?: string[];
  scopeSelector?: { matchExpressions?: ScopeSelectorRequirement[] };
}

/** getScopeSelectorsFromQuota: spec.scopes as Exists requirements, then the scopeSelector expressions. */
export function quotaScopeSelectors(quota: KubeObject): ScopeSelectorRequirement[] {
  const spec = (quota.spec ?? {}) as QuotaSpec;
  return [
    ...(spec.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(spec.scopeSelector?.matchExpressions ?? []),
  ];
}

function hardOf(quota: KubeObject): ResourceList {
  return parseResourceList(((quota.spec ?? {}) as QuotaSpec).hard);
}

function usedOf(quota: KubeObject): ResourceList {
  return parseResourceList(((quota.status ?? {}) as { used?: unknown }).used);
}

function matchesScopes(evaluator: QuotaEvaluator, scopes: readonly ScopeSelectorRequirement[], obj: KubeObject): boolean {
  return scopes.every((s) => evaluator.matchesScope(s, obj));
}

/** The resources whose objects a quota resource name counts: count/deployments.apps → deployments.apps. */
function groupResourcesFor(names: readonly string[]): GroupResource[] {
  const out = new Map<string, GroupResource>();
  const add = (gr: GroupResource) => out.set(`${gr.group}/${gr.resource}`, gr);
  for (const core of ['pods', 'services', 'persistentvolumeclaims', 'configmaps', 'secrets', 'replicationcontrollers', 'resourcequotas']) {
    add({ group: '', resource: core });
  }
  for (const n of names) {
    if (!n.startsWith('count/')) continue;
    const rest = n.slice('count/'.length);
    const dot = rest.indexOf('.');
    add(dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) });
  }
  return [...out.values()];
}

/**
 * quota.CalculateUsage as the quota controller runs it: for each resource name in `names` (default: spec.hard)
 * that some evaluator understands, the summed usage of the namespace's objects in the quota's scopes (0 if none).
 */
export function computeQuotaUsage(quota: KubeObject, reader: ObjectReader, now: number, names?: readonly string[]): ResourceList {
  const wanted = names ?? [...hardOf(quota).keys()];
  const scopes = quotaScopeSelectors(quota);
  const namespace = quota.metadata.namespace ?? '';
  const used: ResourceList = new Map();
  for (const gr of groupResourcesFor(wanted)) {
    const evaluator = quotaEvaluatorFor(gr);
    if (!evaluator) continue;
    const intersection = evaluator.matchingResources(wanted);
    if (intersection.length === 0) continue;
    const sum: ResourceList = new Map(intersection.map((n) => [n, newQuantity(0)]));
    for (const obj of reader.list(gr, namespace)) {
      if (!matchesScopes(evaluator, scopes, obj)) continue;
      addInto(sum, mask(evaluator.usage(obj, now), intersection));
    }
    for (const [k, v] of sum) used.set(k, v);
  }
  return used;
}

/** status.used where the quota has it, computed from the objects where it does not. */
function effectiveUsed(quota: KubeObject, names: readonly string[], reader: ObjectReader, now: number): ResourceList {
  const used = usedOf(quota);
  const missing = names.filter((n) => !used.has(n));
  if (missing.length > 0) for (const [k, v] of computeQuotaUsage(quota, reader, now, missing)) used.set(k, v);
  return used;
}

function sortedJSON(list: ResourceList): Record<string, string> {
  const json = resourceListToJSON(list);
  return Object.fromEntries(Object.keys(json).sort().map((k) => [k, json[k]]));
}

export class ResourceQuotaAdmission implements ValidatingAdmissionPlugin {
  readonly name = ResourceQuotaPluginName;

  handles(op: AdmissionOperation): boolean {
    return op === Op.Create || op === Op.Update;
  }

  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    // Subresources and cluster-scoped objects (namespaces included) are never charged.
    if (attrs.subresource || !attrs.namespace || !attrs.object) return;
    const evaluator = quotaEvaluatorFor({ group: attrs.resourceType.group, resource: attrs.resourceType.resource });
    if (!evaluator || !evaluator.handles(attrs)) return;
    const quotas = ctx.reader.list(resourceQuotasGR, attrs.namespace);
    if (quotas.length === 0) return;
    const obj = attrs.object;
    const now = ctx.clock.now();

    const interesting: { quota: KubeObject; hard: ResourceList }[] = [];
    for (const quota of quotas) {
      const hard = hardOf(quota);
      const restricted = evaluator.matchingResources([...hard.keys()]);
      if (restricted.length === 0 || !matchesScopes(evaluator, quotaScopeSelectors(quota), obj)) continue;
      const failed = evaluator.constraints(restricted, obj);
      if (failed) throw admissionForbidden(attrs, `failed quota: ${quota.metadata.name ?? ''}: ${failed}`);
      interesting.push({ quota, hard });
    }

    let delta = evaluator.usage(obj, now);
    const negative = negativeKeys(delta);
    if (negative.length > 0) {
      throw admissionForbidden(attrs, `quota usage is negative for resource(s): ${negative.sort().join(',')}`);
    }
    if (attrs.operation === Op.Update) {
      const old = attrs.oldObject;
      if (!old) throw admissionForbidden(attrs, 'unable to get previous usage since prior version of object was not found');
      // Charge the difference, unless this update actually creates the object.
      if (old.metadata.resourceVersion) delta = subtractNonNegative(delta, evaluator.usage(old, now));
    }
    if (isZeroList(delta) || interesting.length === 0) return;

    const charges: { quota: KubeObject; requested: ResourceList; used: ResourceList }[] = [];
    for (const { quota, hard } of interesting) {
      const hardNames = [...hard.keys()];
      const requested = mask(delta, hardNames);
      // Usage of every hard resource, measured now: the object being admitted is not stored yet.
      const used = effectiveUsed(quota, hardNames, ctx.reader, now);
      const newUsage = addLists(used, requested);
      const exceeded = exceededKeys(mask(newUsage, requested.keys()), hard);
      if (exceeded.length > 0) {
        throw admissionForbidden(
          attrs,
          `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
        );
      }
      charges.push({ quota, requested, used });
    }

    if (attrs.dryRun) return;
    for (const { quota, requested, used } of charges) {
      ctx.addSideWrite({
        gr: resourceQuotasGR,
        namespace: attrs.namespace,
        name: quota.metadata.name ?? '',
        mutate: (current) => chargeQuota(current, requested, used),
      });
    }
  }
}

/**
 * The quota after charging `requested`: status.hard copied from spec.hard, status.used for every hard resource
 * (entries status.used lacks come from `measured`, the usage admission computed from the objects). Undefined (no
 * write) when the quota is gone or nothing changes.
 */
export function chargeQuota(current: KubeObject | undefined, requested: ResourceList, measured: ResourceList): KubeObject | undefined {
  if (!current) return undefined;
  const hard = hardOf(current);
  const hardNames = [...hard.keys()];
  const before = usedOf(current);
  for (const n of hardNames) {
    const m = measured.get(n);
    if (!before.has(n) && m) before.set(n, m);
  }
  const after = mask(addLists(before, mask(requested, hardNames)), hardNames);
  const status = (current.status ?? {}) as { hard?: unknown; used?: unknown };
  if (listsEqual(after, usedOf(current)) && listsEqual(hard, parseResourceList(status.hard))) return undefined;
  return { ...current, status: { ...status, hard: sortedJSON(hard), used: sortedJSON(after) } };
}
