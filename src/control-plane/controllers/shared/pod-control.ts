// RealPodControl (pkg/controller/controller_utils.go): how workload controllers create, delete and patch pods,
// with the events Kubernetes records on the owner: SuccessfulCreate "Created pod: web-7d4b9-x2x4q",
// FailedCreate "Error creating: <API error>", SuccessfulDelete "Deleted pod: …", FailedDelete "Error deleting: …".
import type { Pod, PodTemplateSpec } from 'kubernetes-types/core/v1';
import { isStatusError, StatusReason } from '../../../shared/api/status';
import type { KubeObject, OwnerReference } from '../../../shared/api/types';
import { PatchType } from '../../../shared/api/request';
import { deepCopy } from '../../apiserver/patch/json-value';
import type { Client, Typed } from '../../client/client';
import type { EventRecorder } from '../../client/record/event-recorder';
import { hasStatusCause, NamespaceTerminatingCause } from '../serviceaccount/serviceaccounts-controller';

export const PodControlReason = {
  FailedCreate: 'FailedCreate',
  SuccessfulCreate: 'SuccessfulCreate',
  FailedDelete: 'FailedDelete',
  SuccessfulDelete: 'SuccessfulDelete',
} as const;

/** The labels, annotations and finalizers of the template, copied (getPodsLabelSet & co). */
function copyMap(m: Record<string, string> | undefined): Record<string, string> {
  return m ? { ...m } : {};
}

/** A DNS-1123 subdomain check of the generateName prefix, as ValidatePodName(prefix, true) does. */
function validPodNamePrefix(prefix: string): boolean {
  // With prefix=true the trailing "-" is allowed; the rest must be a DNS-1123 subdomain of ≤ 253 chars.
  const trimmed = prefix.endsWith('-') ? prefix.slice(0, -1) : prefix;
  return prefix.length <= 253 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/.test(trimmed);
}

/** getPodsPrefix: "<controller name>-", or the bare name when that would not be a valid prefix. */
export function getPodsPrefix(controllerName: string): string {
  // One controller creates its pods in a row: the last answer is usually the one asked for again.
  if (controllerName === lastPrefix.name) return lastPrefix.prefix;
  const prefix = `${controllerName}-`;
  lastPrefix = { name: controllerName, prefix: validPodNamePrefix(prefix) ? prefix : controllerName };
  return lastPrefix.prefix;
}

let lastPrefix = { name: '', prefix: '' };

/** controller.GetPodFromTemplate: the pod a controller creates from its template. */
export function getPodFromTemplate(template: PodTemplateSpec, parent: KubeObject, controllerRef?: OwnerReference): Pod & KubeObject {
  const metadata: Pod['metadata'] & object = {
    labels: copyMap(template.metadata?.labels),
    annotations: copyMap(template.metadata?.annotations),
    generateName: getPodsPrefix(parent.metadata.name ?? ''),
  };
  if (Object.keys(metadata.annotations!).length === 0) delete metadata.annotations;
  if (template.metadata?.finalizers?.length) metadata.finalizers = [...template.metadata.finalizers];
  if (controllerRef) metadata.ownerReferences = [{ ...controllerRef }];
  // The template is plain JSON (an informer's object): a JSON copy is all it needs, and far cheaper than
  // structuredClone's serialisation.
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: deepCopy(template.spec ?? { containers: [] }) };
}

export class PodControl {
  constructor(
    private readonly client: Client,
    private readonly recorder: EventRecorder,
  ) {}

  /** Creates one pod from the template for parent; records SuccessfulCreate or FailedCreate. Throws the API error. */
  createPods(namespace: string, template: PodTemplateSpec, parent: KubeObject, controllerRef: OwnerReference): Typed<Pod> {
    const pod = getPodFromTemplate(template, parent, controllerRef);
    pod.metadata.namespace = namespace;
    if (Object.keys(pod.metadata.labels ?? {}).length === 0) throw new Error('unable to create pods, no labels');
    let created: Typed<Pod>;
    try {
      created = this.client.pods.create(pod, { namespace });
    } catch (err) {
      // Only send an event if the namespace isn't terminating.
      if (!hasStatusCause(err, NamespaceTerminatingCause)) {
        this.recorder.event(parent, 'Warning', PodControlReason.FailedCreate, `Error creating: ${errorText(err)}`);
      }
      throw err;
    }
    this.recorder.event(parent, 'Normal', PodControlReason.SuccessfulCreate, `Created pod: ${created.metadata.name}`);
    return created;
  }

  /** Deletes a pod; records SuccessfulDelete or FailedDelete. A NotFound is rethrown without an event. */
  deletePod(namespace: string, name: string, parent: KubeObject): void {
    try {
      this.client.pods.delete(name, { namespace });
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) throw err;
      this.recorder.event(parent, 'Warning', PodControlReason.FailedDelete, `Error deleting: ${errorText(err)}`);
      throw new Error(`unable to delete pods: ${errorText(err)}`, { cause: err });
    }
    this.recorder.event(parent, 'Normal', PodControlReason.SuccessfulDelete, `Deleted pod: ${name}`);
  }

  /** A strategic merge patch of the pod (adoption and release patch ownerReferences). */
  patchPod(namespace: string, name: string, patch: unknown): Typed<Pod> {
    return this.client.pods.patch(name, PatchType.StrategicMergePatch, patch, { namespace });
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
