// ResourceQuota admission (apiserver/pkg/admission/plugin/resourcequota/controller.go, CheckRequest): a create or
// update that would push a matching quota of its namespace past status.hard is refused; otherwise the quota's
// status.used grows in the same store transaction as the object (a side write), as the real plugin updates the
// quota before the object is stored.
//
// The limits are status.hard, which the resourcequota-controller copies from spec.hard together with the usage
// it measured: a quota it has not synced yet (status.hard empty, as every new quota is) matches nothing, and one
// whose status.hard names a resource status.used lacks refuses with "status unknown for quota". Deletions give
// usage back through that controller (computeQuotaUsage is its calculation).
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

const resourceQuotasGR = Object.freeze({ group: '', resource: 'resourcequotas' });

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

/** status.hard: the limits the quota controller has synced (spec.hard until then counts for nothing). */
function hardOf(quota: KubeObject): ResourceList {
  return parseResourceList(((quota.status ?? {}) as { hard?: unknown }).hard);
}

function specHardOf(quota: KubeObject): ResourceList {
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
  const wanted = names ?? [...specHardOf(quota).keys()];
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
      if (!hasUsageStats(quota, hard, restricted)) {
        throw admissionForbidden(attrs, `status unknown for quota: ${quota.metadata.name ?? ''}, resources: ${[...restricted].sort().join(',')}`);
      }
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

    const charges: { quota: KubeObject; requested: ResourceList }[] = [];
    for (const { quota, hard } of interesting) {
      const hardNames = [...hard.keys()];
      const requested = mask(delta, hardNames);
      const used = usedOf(quota);
      const newUsage = addLists(used, requested);
      const exceeded = exceededKeys(mask(newUsage, requested.keys()), hard);
      if (exceeded.length > 0) {
        throw admissionForbidden(
          attrs,
          `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`,
        );
      }
      charges.push({ quota, requested });
    }

    if (attrs.dryRun) return;
    for (const { quota, requested } of charges) {
      ctx.addSideWrite({
        gr: resourceQuotasGR,
        namespace: attrs.namespace,
        name: quota.metadata.name ?? '',
        mutate: (current) => chargeQuota(current, requested),
      });
    }
  }
}

/** hasUsageStats: status.used lists every restricted resource of status.hard. */
function hasUsageStats(quota: KubeObject, hard: ResourceList, restricted: readonly string[]): boolean {
  const used = usedOf(quota);
  return restricted.every((r) => !hard.has(r) || used.has(r));
}

/**
 * The quota after charging `requested` (already masked to status.hard) to status.used; status.hard stays the
 * controller's. Undefined (no write) when the quota is gone or nothing changes.
 */
export function chargeQuota(current: KubeObject | undefined, requested: ResourceList): KubeObject | undefined {
  if (!current) return undefined;
  const before = usedOf(current);
  const after = addLists(before, mask(requested, [...hardOf(current).keys()]));
  if (listsEqual(after, before)) return undefined;
  const status = (current.status ?? {}) as { hard?: unknown; used?: unknown };
  return { ...current, status: { ...status, used: sortedJSON(after) } };
}
