// SetDefaults_PodSpec, SetDefaults_Container, SetDefaults_Volume, SetDefaults_Probe… of pkg/apis/core/v1/defaults.go,
// applied to every PodSpec (pods and the templates of workloads), plus SetDefaults_Pod for pods only.
import { type Obj, ensureObj, hasOwn, isObj, objItems, setDefault, setDefaultString, setOwn } from '../util';

export const DefaultTerminationGracePeriodSeconds = 30;
export const DefaultSchedulerName = 'default-scheduler';
export const TerminationMessagePathDefault = '/dev/termination-log';
/** 0644: the mode of files projected from ConfigMaps, Secrets and the downward API. */
export const DefaultVolumeFileMode = 420;

/** The tag an image reference resolves to: "nginx" → "latest", "nginx:1.27" → "1.27", "nginx@sha256:…" → "". */
export function imageTag(image: string): string {
  const at = image.indexOf('@');
  if (at >= 0) {
    const name = image.slice(0, at);
    const colon = name.lastIndexOf(':');
    return colon > name.lastIndexOf('/') ? name.slice(colon + 1) : '';
  }
  const colon = image.lastIndexOf(':');
  if (colon > image.lastIndexOf('/')) return image.slice(colon + 1);
  return 'latest';
}

function defaultHandler(handler: unknown): void {
  if (!isObj(handler)) return;
  const httpGet = handler.httpGet;
  if (isObj(httpGet)) {
    setDefaultString(httpGet, 'path', '/');
    setDefaultString(httpGet, 'scheme', 'HTTP');
  }
}

function defaultProbe(probe: unknown): void {
  if (!isObj(probe)) return;
  defaultHandler(probe);
  for (const [k, v] of [
    ['timeoutSeconds', 1],
    ['periodSeconds', 10],
    ['successThreshold', 1],
    ['failureThreshold', 3],
  ] as const) {
    if (probe[k] === undefined || probe[k] === null || probe[k] === 0) probe[k] = v;
  }
}

export function defaultContainer(c: Obj): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(typeof c.image === 'string' ? c.image : '') === 'latest' ? 'Always' : 'IfNotPresent';
  setDefaultString(c, 'terminationMessagePath', TerminationMessagePathDefault);
  setDefaultString(c, 'terminationMessagePolicy', 'File');
  for (const p of objItems(c, 'ports')) setDefaultString(p, 'protocol', 'TCP');
  for (const e of objItems(c, 'env')) {
    const fieldRef = isObj(e.valueFrom) ? e.valueFrom.fieldRef : undefined;
    if (isObj(fieldRef)) setDefaultString(fieldRef, 'apiVersion', 'v1');
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  if (isObj(c.lifecycle)) {
    defaultHandler(c.lifecycle.postStart);
    defaultHandler(c.lifecycle.preStop);
  }
}

const volumeSourceKeys = [
  'hostPath', 'emptyDir', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'secret', 'nfs', 'iscsi', 'glusterfs',
  'persistentVolumeClaim', 'rbd', 'flexVolume', 'cinder', 'cephfs', 'flocker', 'downwardAPI', 'fc', 'azureFile',
  'configMap', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'projected', 'portworxVolume',
  'scaleIO', 'storageos', 'csi', 'ephemeral', 'image',
] as const;

export const VolumeSourceKeys: readonly string[] = volumeSourceKeys;

function defaultItemsFieldRefs(items: unknown): void {
  if (!Array.isArray(items)) return;
  for (const item of items) {
    if (isObj(item) && isObj(item.fieldRef)) setDefaultString(item.fieldRef, 'apiVersion', 'v1');
  }
}

export function defaultVolume(v: Obj): void {
  if (!volumeSourceKeys.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  if (isObj(v.secret)) setDefault(v.secret, 'defaultMode', DefaultVolumeFileMode);
  if (isObj(v.configMap)) setDefault(v.configMap, 'defaultMode', DefaultVolumeFileMode);
  if (isObj(v.downwardAPI)) {
    setDefault(v.downwardAPI, 'defaultMode', DefaultVolumeFileMode);
    defaultItemsFieldRefs(v.downwardAPI.items);
  }
  if (isObj(v.hostPath)) setDefault(v.hostPath, 'type', '');
  if (isObj(v.projected)) {
    setDefault(v.projected, 'defaultMode', DefaultVolumeFileMode);
    for (const src of objItems(v.projected, 'sources')) {
      if (isObj(src.serviceAccountToken)) setDefault(src.serviceAccountToken, 'expirationSeconds', 3600);
      if (isObj(src.downwardAPI)) defaultItemsFieldRefs(src.downwardAPI.items);
    }
  }
  if (isObj(v.ephemeral) && isObj(v.ephemeral.volumeClaimTemplate) && isObj(v.ephemeral.volumeClaimTemplate.spec)) {
    setDefault(v.ephemeral.volumeClaimTemplate.spec, 'volumeMode', 'Filesystem');
  }
}

/** SetDefaults_PodSpec and everything nested in it. Safe to run more than once. */
export function defaultPodSpec(spec: Obj): void {
  setDefaultString(spec, 'dnsPolicy', 'ClusterFirst');
  setDefaultString(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', DefaultTerminationGracePeriodSeconds);
  setDefaultString(spec, 'schedulerName', DefaultSchedulerName);
  // v1 keeps the deprecated serviceAccount in step with serviceAccountName (conversion does it in Kubernetes).
  if (!spec.serviceAccountName && typeof spec.serviceAccount === 'string' && spec.serviceAccount) {
    spec.serviceAccountName = spec.serviceAccount;
  }
  if (typeof spec.serviceAccountName === 'string' && spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  for (const c of objItems(spec, 'containers')) defaultContainer(c);
  for (const c of objItems(spec, 'initContainers')) defaultContainer(c);
  for (const c of objItems(spec, 'ephemeralContainers')) defaultContainer(c);
  for (const v of objItems(spec, 'volumes')) defaultVolume(v);
}

/** A PodTemplateSpec inside a workload: only the PodSpec gets defaults. */
export function defaultPodTemplate(template: unknown): void {
  if (!isObj(template)) return;
  defaultPodSpec(ensureObj(template, 'spec'));
}

function defaultRequestsFromLimits(c: Obj): void {
  const resources = c.resources;
  if (!isObj(resources) || !isObj(resources.limits)) return;
  const requests = ensureObj(resources, 'requests');
  for (const [k, v] of Object.entries(resources.limits)) {
    if (!hasOwn(requests, k)) setOwn(requests, k, v);
  }
}

/** SetDefaults_Pod: only on Pod objects, never on templates (so a Deployment's template stays as written). */
export function defaultPod(spec: Obj): void {
  for (const c of objItems(spec, 'containers')) defaultRequestsFromLimits(c);
  for (const c of objItems(spec, 'initContainers')) defaultRequestsFromLimits(c);
  setDefault(spec, 'enableServiceLinks', true);
  if (spec.hostNetwork === true) {
    for (const key of ['containers', 'initContainers']) {
      for (const c of objItems(spec, key)) {
        for (const p of objItems(c, 'ports')) {
          if (!p.hostPort) p.hostPort = p.containerPort;
        }
      }
    }
  }
  defaultPodSpec(spec);
}
