// Custom resource strategy (apiextensions-apiserver pkg/registry/customresource/strategy.go): generation 1 on
// create and +1 on any change outside metadata (and status, when the CRD declares a status subresource); a status
// write changes status only; updates need a resourceVersion. Schema validation is not done here.
import type { ResourceType } from '../../../../shared/api/resources';
import type { KubeObject } from '../../../../shared/api/types';
import { nameIsDNSSubdomain } from '../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../types';
import { crdVersion } from '../apiextensions/customresourcedefinition/strategy';
import { validateObjectMeta } from '../generic/objectmeta';
import { defineStrategy, nonMetaNonStatus } from '../generic/strategy';
import { type Obj, clone, isObj, objAt, semanticEqual, setOwn, str } from '../generic/util';

/** Reads a dotted JSON path such as ".status.selector" (the form scale paths use). */
export function readJSONPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.replace(/^\./, '').split('.')) {
    if (!part) continue;
    if (!isObj(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function everythingButMetadata(obj: KubeObject): Obj {
  const out: Obj = {};
  for (const k of Object.keys(obj)) if (k !== 'metadata' && k !== 'apiVersion' && k !== 'kind') setOwn(out, k, obj[k]);
  return out;
}

export function customResourceStrategy(rt: ResourceType, crd?: KubeObject): ResourceStrategy {
  const version = crd ? crdVersion(crd, rt.version) : undefined;
  const scaleSpec = version ? objAt(version, 'subresources', 'scale') : undefined;
  const strategy = defineStrategy(rt, {
    nameFn: nameIsDNSSubdomain,
    metaRules: 'generic',
    resetStatus: rt.subresources.status,
    generationChanged: (obj, old) =>
      rt.subresources.status ? !semanticEqual(nonMetaNonStatus(obj), nonMetaNonStatus(old)) : !semanticEqual(everythingButMetadata(obj), everythingButMetadata(old)),
    validateFull: (obj) => validateObjectMeta(obj.metadata, rt.namespaced, nameIsDNSSubdomain),
    allowUnconditionalUpdate: false,
    status: {
      // Only status changes: metadata (labels, annotations…) is restored from the stored object too.
      prepareForUpdate(obj, old) {
        const status = obj.status;
        const managedFields = obj.metadata.managedFields;
        for (const k of Object.keys(obj)) delete obj[k];
        const copy = clone(old);
        for (const k of Object.keys(copy)) setOwn(obj, k, copy[k]);
        if (managedFields !== undefined) (obj.metadata as Obj).managedFields = managedFields;
        if (status === undefined) delete obj.status;
        else obj.status = status;
      },
    },
  });
  // The scale paths live in the CRD; without it the caller supplies them (the API server reads its CRD cache).
  if (rt.subresources.scale && scaleSpec) {
    const specReplicasPath = str(scaleSpec.specReplicasPath) || '.spec.replicas';
    const statusReplicasPath = str(scaleSpec.statusReplicasPath) || '.status.replicas';
    const labelSelectorPath = str(scaleSpec.labelSelectorPath);
    strategy.scale = {
      specReplicasPath,
      statusReplicasPath,
      selector: (obj) => {
        const v = labelSelectorPath ? readJSONPath(obj, labelSelectorPath) : undefined;
        return typeof v === 'string' ? v : '';
      },
    };
  }
  if (!rt.subresources.status) delete strategy.status;
  return strategy;
}
