// ConvertToTable: the API server's answer to `Accept: application/json;as=Table;v=v1;g=meta.k8s.io` (what kubectl
// get asks for). Built-in kinds print with their printers.go printer, custom resources with their CRD's printer
// columns, the rest with the default NAME / CREATED AT convertor.
//
//   convertToTable(rt, list, { now: clock.now(), reader })          // a Table with one row per item
//   convertToTable(rt, pod, { now, reader, includeObject: 'Object' }) // one row, carrying the whole pod
import type { ResourceType } from '../../../shared/api/resources';
import type { KubeList, KubeObject, WatchEvent } from '../../../shared/api/types';
import { WatchEventType } from '../../../shared/api/types';
import type { ObjectReader } from '../types';
import { clusterRoleBindingPrinter, horizontalPodAutoscalerPrinter, leasePrinter, podDisruptionBudgetPrinter, priorityClassPrinter, roleBindingPrinter } from './cluster';
import {
  componentStatusPrinter,
  configMapPrinter,
  endpointsPrinter,
  eventPrinter,
  namespacePrinter,
  nodePrinter,
  replicationControllerPrinter,
  resourceQuotaPrinter,
  secretPrinter,
  serviceAccountPrinter,
  servicePrinter,
} from './core';
import { customResourcePrinter, defaultPrinter, printerColumnsOf } from './custom-resource';
import { endpointSlicePrinter, ingressClassPrinter, ingressPrinter, networkPolicyPrinter } from './networking';
import { podPrinter, podTemplatePrinter } from './pods';
import { csiDriverPrinter, csiNodePrinter, persistentVolumeClaimPrinter, persistentVolumePrinter, storageClassPrinter, volumeAttachmentPrinter } from './storage';
import type { IncludeObjectPolicy, KindPrinter, Table, TableRow } from './table';
import { controllerRevisionPrinter, cronJobPrinter, daemonSetPrinter, deploymentPrinter, jobPrinter, replicaSetPrinter, statefulSetPrinter } from './workloads';

/** Built-in printers by "group/resource". */
const builtinPrinters: Readonly<Record<string, KindPrinter>> = {
  '/pods': podPrinter,
  '/podtemplates': podTemplatePrinter,
  '/replicationcontrollers': replicationControllerPrinter,
  '/services': servicePrinter,
  '/endpoints': endpointsPrinter,
  '/nodes': nodePrinter,
  '/namespaces': namespacePrinter,
  '/configmaps': configMapPrinter,
  '/secrets': secretPrinter,
  '/serviceaccounts': serviceAccountPrinter,
  '/componentstatuses': componentStatusPrinter,
  '/resourcequotas': resourceQuotaPrinter,
  '/events': eventPrinter,
  '/persistentvolumes': persistentVolumePrinter,
  '/persistentvolumeclaims': persistentVolumeClaimPrinter,
  'events.k8s.io/events': eventPrinter,
  'apps/deployments': deploymentPrinter,
  'apps/replicasets': replicaSetPrinter,
  'apps/statefulsets': statefulSetPrinter,
  'apps/daemonsets': daemonSetPrinter,
  'apps/controllerrevisions': controllerRevisionPrinter,
  'batch/jobs': jobPrinter,
  'batch/cronjobs': cronJobPrinter,
  'autoscaling/horizontalpodautoscalers': horizontalPodAutoscalerPrinter,
  'policy/poddisruptionbudgets': podDisruptionBudgetPrinter,
  'rbac.authorization.k8s.io/rolebindings': roleBindingPrinter,
  'rbac.authorization.k8s.io/clusterrolebindings': clusterRoleBindingPrinter,
  'networking.k8s.io/ingresses': ingressPrinter,
  'networking.k8s.io/ingressclasses': ingressClassPrinter,
  'networking.k8s.io/networkpolicies': networkPolicyPrinter,
  'discovery.k8s.io/endpointslices': endpointSlicePrinter,
  'coordination.k8s.io/leases': leasePrinter,
  'scheduling.k8s.io/priorityclasses': priorityClassPrinter,
  'storage.k8s.io/storageclasses': storageClassPrinter,
  'storage.k8s.io/csidrivers': csiDriverPrinter,
  'storage.k8s.io/csinodes': csiNodePrinter,
  'storage.k8s.io/volumeattachments': volumeAttachmentPrinter,
};

const crdResource = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };

/** The printer the server uses for a resource type (a custom resource's comes from its CRD, read now). */
export function printerFor(rt: ResourceType, reader?: ObjectReader): KindPrinter {
  if (rt.custom) {
    const crd = reader?.get(crdResource, undefined, `${rt.resource}.${rt.group}`);
    return customResourcePrinter(printerColumnsOf(crd, rt.version));
  }
  return builtinPrinters[`${rt.group}/${rt.resource}`] ?? defaultPrinter;
}

export interface ConvertOptions {
  /** Simulated time of the request (AGE cells). */
  now: number;
  /** Reads the CRD of a custom resource. */
  reader?: ObjectReader;
  /** What each row carries (includeObject): Metadata by default, as the real server. */
  includeObject?: IncludeObjectPolicy;
  /** TableOptions.noHeaders: omit the column definitions. */
  noHeaders?: boolean;
}

function isList(obj: KubeObject | KubeList): obj is KubeList {
  return Array.isArray((obj as KubeList).items);
}

/** The object a row carries: PartialObjectMetadata by default (kubectl reads namespace and labels from it). */
function rowObject(obj: KubeObject, policy: IncludeObjectPolicy): KubeObject | undefined {
  switch (policy) {
    case 'None':
      return undefined;
    case 'Object':
      return obj;
    default:
      return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: obj.metadata };
  }
}

export function rowFor(printer: KindPrinter, obj: KubeObject, options: ConvertOptions): TableRow {
  const row: TableRow = { cells: printer.cells(obj, { now: options.now }) };
  const conditions = printer.conditions?.(obj);
  if (conditions) row.conditions = conditions;
  const object = rowObject(obj, options.includeObject ?? 'Metadata');
  if (object) row.object = object;
  return row;
}

/** A Table for one object or a list of them. */
export function convertToTable(rt: ResourceType, objOrList: KubeObject | KubeList, options: ConvertOptions): Table {
  const printer = printerFor(rt, options.reader);
  const items = isList(objOrList) ? objOrList.items : [objOrList];
  const metadata: Table['metadata'] = {};
  if (isList(objOrList)) {
    if (objOrList.metadata?.resourceVersion !== undefined) metadata.resourceVersion = objOrList.metadata.resourceVersion;
    if (objOrList.metadata?.continue) metadata.continue = objOrList.metadata.continue;
    if (objOrList.metadata?.remainingItemCount !== undefined) metadata.remainingItemCount = objOrList.metadata.remainingItemCount;
  } else if (objOrList.metadata?.resourceVersion !== undefined) {
    metadata.resourceVersion = objOrList.metadata.resourceVersion;
  }
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    columnDefinitions: options.noHeaders ? [] : printer.columns,
    rows: items.map((obj) => rowFor(printer, obj, options)),
  };
}

/**
 * A watch of Tables: each ADDED/MODIFIED/DELETED object becomes a one-row Table (the first one carrying the column
 * definitions, later ones none, as the real server sends them); ERROR and BOOKMARK events pass unchanged.
 */
export function tableWatchHandler(
  rt: ResourceType,
  options: Omit<ConvertOptions, 'now' | 'noHeaders'> & { now: () => number },
  handler: (events: WatchEvent[]) => void,
): (events: WatchEvent[]) => void {
  let sentHeaders = false;
  return (events) => {
    const converted = events.map((e): WatchEvent => {
      if (e.type === WatchEventType.Error || e.type === WatchEventType.Bookmark) return e;
      const table = convertToTable(rt, e.object, { ...options, now: options.now(), noHeaders: sentHeaders });
      sentHeaders = true;
      return { type: e.type, object: table as unknown as KubeObject };
    });
    handler(converted);
  };
}
