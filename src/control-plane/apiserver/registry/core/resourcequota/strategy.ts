// ResourceQuota strategy (pkg/registry/core/resourcequota/strategy.go): status belongs to the quota controller,
// hard resources must be quota resource names with valid quantities, scopes never change.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import type { ResourceStrategy } from '../../../types';
import { validateResourceName, validateResourceQuantityValue } from '../../generic/podspec/resources';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, arrAt, isObj } from '../../generic/util';

const quotaScopes = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];

function isStandardQuotaResourceName(name: string): boolean {
  return (
    ['pods', 'services', 'replicationcontrollers', 'resourcequotas', 'secrets', 'configmaps', 'persistentvolumeclaims', 'services.nodeports', 'services.loadbalancers', 'cpu', 'memory', 'ephemeral-storage', 'storage'].includes(name) ||
    /^(requests|limits)\.(cpu|memory|ephemeral-storage|storage)$/.test(name) ||
    /^(requests|limits)\.hugepages-/.test(name) ||
    name.startsWith('hugepages-') ||
    name.startsWith('count/')
  );
}

function validateResourceList(list: unknown, path: string): FieldError[] {
  if (!isObj(list)) return [];
  return Object.entries(list).flatMap(([k, v]) => [
    ...validateResourceName(k, `${path}[${k}]`, isStandardQuotaResourceName, 'must be a standard resource for quota'),
    ...validateResourceQuantityValue(k, v, `${path}[${k}]`),
  ]);
}

function validateQuotaSpec(rq: KubeObject): FieldError[] {
  const spec: Obj = isObj(rq.spec) ? rq.spec : {};
  const errs = validateResourceList(spec.hard, 'spec.hard');
  const scopes = arrAt(spec, 'scopes').map(String);
  for (const s of scopes) if (!quotaScopes.includes(s)) errs.push(fieldErr.invalid('spec.scopes', scopes, 'unsupported scope'));
  if ((scopes.includes('BestEffort') && scopes.includes('NotBestEffort')) || (scopes.includes('Terminating') && scopes.includes('NotTerminating'))) {
    errs.push(fieldErr.invalid('spec.scopes', scopes, 'conflicting scopes'));
  }
  return errs;
}

function validateQuotaStatus(rq: KubeObject): FieldError[] {
  const status = isObj(rq.status) ? rq.status : {};
  return [...validateResourceList(status.hard, 'status.hard'), ...validateResourceList(status.used, 'status.used')];
}

export function resourceQuotaStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    validateSpec: validateQuotaSpec,
    validateUpdate(rq, old) {
      const a = new Set(arrAt(rq.spec, 'scopes').map(String));
      const b = new Set(arrAt(old.spec, 'scopes').map(String));
      const same = a.size === b.size && [...a].every((s) => b.has(s));
      return same ? [] : [fieldErr.invalid('spec.scopes', arrAt(rq.spec, 'scopes'), 'field is immutable')];
    },
    status: { validate: validateQuotaStatus },
  });
}
