// Node strategy (pkg/registry/core/node/strategy.go): kubelets create nodes with their status, so create keeps it;
// updates keep the stored status; podCIDRs and providerID are set once; taints must be unique by key and effect.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isCIDR, nameIsDNSSubdomain } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateResourceQuantityValue } from '../../generic/podspec/resources';
import { validateNodeTaints } from '../../generic/podspec/scheduling';
import { defineStrategy, keepOldStatus } from '../../generic/strategy';
import { arrAt, clone, isObj, objItems, semanticEqual, str } from '../../generic/util';

/** SetDefaults_NodeStatus: allocatable defaults to capacity. */
export function defaultNode(node: KubeObject): void {
  if (!isObj(node.status)) return;
  const status = node.status;
  if ((status.allocatable === undefined || status.allocatable === null) && isObj(status.capacity)) status.allocatable = clone(status.capacity);
}

function validateNodeResources(node: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const status = isObj(node.status) ? node.status : {};
  for (const f of ['capacity', 'allocatable']) {
    const list = status[f];
    if (!isObj(list)) continue;
    for (const [k, v] of Object.entries(list)) errs.push(...validateResourceQuantityValue(k, v, `status.${f}.${k}`));
  }
  return errs;
}

function validateNode(node: KubeObject): FieldError[] {
  const spec = isObj(node.spec) ? node.spec : {};
  const errs: FieldError[] = [];
  const taints = objItems(spec, 'taints');
  // Kubernetes reports spec.taints under metadata.taints (its field path starts from metadata here).
  if (taints.length) errs.push(...validateNodeTaints(taints, 'metadata.taints'));
  errs.push(...validateNodeResources(node));
  const cidrs = arrAt(spec, 'podCIDRs').map(String);
  cidrs.forEach((c, i) => {
    if (!isCIDR(c)) errs.push(fieldErr.invalid(`spec.podCIDRs[${i}]`, c, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
  });
  return errs;
}

function validateNodeUpdate(node: KubeObject, old: KubeObject): FieldError[] {
  const spec = isObj(node.spec) ? node.spec : {};
  const oldSpec = isObj(old.spec) ? old.spec : {};
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objItems(node.status, 'addresses').forEach((a, i) => {
    const key = JSON.stringify([a.type, a.address]);
    if (seen.has(key)) errs.push(fieldErr.duplicate(`status.addresses[${i}]`, a));
    seen.add(key);
  });
  const oldCIDRs = arrAt(oldSpec, 'podCIDRs');
  if (oldCIDRs.length > 0 && !semanticEqual(oldCIDRs, arrAt(spec, 'podCIDRs'))) {
    errs.push(fieldErr.forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  if (str(oldSpec.providerID) && oldSpec.providerID !== spec.providerID) {
    errs.push(fieldErr.forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  if (str(spec.externalID) !== str(oldSpec.externalID)) errs.push(fieldErr.forbidden('spec.externalID', 'may not be updated'));
  return errs;
}

export function nodeStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    nameFn: nameIsDNSSubdomain,
    applyDefaults: defaultNode,
    // The kubelet registers a node together with its status.
    resetStatus: false,
    prepareForUpdate: (node, old) => keepOldStatus(node, old),
    validateSpec: validateNode,
    validateUpdate: validateNodeUpdate,
    status: {
      validate: (node) => validateNodeResources(node),
    },
    selectableFields: (node) => ({ 'spec.unschedulable': String(isObj(node.spec) && node.spec.unschedulable === true) }),
  });
}
