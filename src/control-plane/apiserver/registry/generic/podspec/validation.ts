// ValidatePodSpec and ValidatePodTemplateSpec (pkg/apis/core/validation): shared by Pod and by the templates of
// Deployment, ReplicaSet, StatefulSet, DaemonSet, Job, CronJob, ReplicationController and PodTemplate.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ObjectMeta } from '../../../../../shared/api/types';
import {
  inclusiveRangeError,
  isDNS1123Label,
  isDNS1123Subdomain,
  isIP,
  isQualifiedName,
  nameIsDNSSubdomain,
  validateServiceAccountName,
} from '../../../../../shared/lib/validation';
import { validateLabels } from '../metav1';
import { validateAnnotations } from '../objectmeta';
import { type Obj, arrAt, invalidEach, isObj, objItems, str } from '../util';
import { validateContainers, validateEphemeralContainers, validateInitContainers } from './containers';
import { validateAffinity, validateTolerations, validateTopologySpreadConstraints } from './scheduling';
import { validateVolumes } from './volumes';

const MaxInt32 = 2147483647;

export interface PodSpecValidationOptions {
  /** The PodSpec belongs to a Pod (hostPort must then equal containerPort under hostNetwork). */
  resourceIsPod?: boolean;
  /** Extra names volume mounts may reference (a StatefulSet's volumeClaimTemplates). */
  extraVolumeNames?: string[];
}

function validateRestartPolicy(policy: unknown, path: string): FieldError[] {
  const p = str(policy);
  if (p === 'Always' || p === 'OnFailure' || p === 'Never') return [];
  if (!p) return [fieldErr.required(path, '')];
  return [fieldErr.notSupported(path, p, ['Always', 'OnFailure', 'Never'])];
}

function validateDNSPolicy(policy: unknown, path: string): FieldError[] {
  const p = str(policy);
  const valid = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
  if (valid.includes(p)) return [];
  if (!p) return [fieldErr.required(path, '')];
  return [fieldErr.notSupported(path, p, valid)];
}

function validatePodDNSConfig(dnsConfig: unknown, dnsPolicy: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (dnsPolicy === 'None') {
    if (!isObj(dnsConfig)) return [fieldErr.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (arrAt(dnsConfig, 'nameservers').length === 0) {
      return [fieldErr.required(`${path}.nameservers`, 'must provide at least one DNS nameserver when `dnsPolicy` is None')];
    }
  }
  if (!isObj(dnsConfig)) return errs;
  const nameservers = arrAt(dnsConfig, 'nameservers');
  if (nameservers.length > 3) errs.push(fieldErr.invalid(`${path}.nameservers`, nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => {
    if (!isIP(String(ns))) errs.push(fieldErr.invalid(`${path}.nameservers[${i}]`, ns, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  const searches = arrAt(dnsConfig, 'searches').map(String);
  if (searches.length > 32) errs.push(fieldErr.invalid(`${path}.searches`, searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048) {
    errs.push(fieldErr.invalid(`${path}.searches`, searches, 'must not have more than 2048 characters (including spaces) in the search list'));
  }
  searches.forEach((s, i) => {
    const trimmed = s.endsWith('.') ? s.slice(0, -1) : s;
    errs.push(...invalidEach(`${path}.searches[${i}]`, trimmed, isDNS1123Subdomain(trimmed)));
  });
  objItems(dnsConfig, 'options').forEach((o, i) => {
    if (!str(o.name)) errs.push(fieldErr.required(`${path}.options[${i}]`, 'must not be empty'));
  });
  return errs;
}

function validatePodSecurityContext(sc: unknown, path: string): FieldError[] {
  if (!isObj(sc)) return [];
  const errs: FieldError[] = [];
  for (const f of ['fsGroup', 'runAsUser', 'runAsGroup']) {
    const v = sc[f];
    if (typeof v === 'number' && (v < 0 || v > MaxInt32)) errs.push(fieldErr.invalid(`${path}.${f}`, v, inclusiveRangeError(0, MaxInt32)));
  }
  arrAt(sc, 'supplementalGroups').forEach((g, i) => {
    if (typeof g === 'number' && (g < 0 || g > MaxInt32)) {
      errs.push(fieldErr.invalid(`${path}.supplementalGroups[${i}]`, g, inclusiveRangeError(0, MaxInt32)));
    }
  });
  if (sc.fsGroupChangePolicy !== undefined && sc.fsGroupChangePolicy !== null) {
    const valid = ['Always', 'OnRootMismatch'];
    if (!valid.includes(str(sc.fsGroupChangePolicy))) errs.push(fieldErr.notSupported(`${path}.fsGroupChangePolicy`, sc.fsGroupChangePolicy, valid));
  }
  return errs;
}

/** ValidatePodSpec. `podMeta` is set only for real pods (ephemeral volume PVC names need the pod name). */
export function validatePodSpec(spec: Obj, podMeta: ObjectMeta | undefined, path: string, opts: PodSpecValidationOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  const tgps = spec.terminationGracePeriodSeconds;
  if (tgps === undefined || tgps === null) errs.push(fieldErr.required(`${path}.terminationGracePeriodSeconds`, ''));
  const gracePeriod = typeof tgps === 'number' ? tgps : undefined;

  const vols = validateVolumes(objItems(spec, 'volumes'), podMeta, `${path}.volumes`);
  errs.push(...vols.errs);
  for (const extra of opts.extraVolumeNames ?? []) vols.names.add(extra);
  const containers = objItems(spec, 'containers');
  const initContainers = objItems(spec, 'initContainers');
  errs.push(...validateContainers(containers, vols.names, gracePeriod, `${path}.containers`));
  errs.push(...validateInitContainers(initContainers, containers, vols.names, gracePeriod, `${path}.initContainers`));
  errs.push(...validateEphemeralContainers(objItems(spec, 'ephemeralContainers'), containers, initContainers, vols.names, `${path}.ephemeralContainers`));

  if (spec.hostNetwork === true) {
    containers.forEach((c, i) => {
      objItems(c, 'ports').forEach((port, j) => {
        const hp = typeof port.hostPort === 'number' ? port.hostPort : 0;
        const cp = typeof port.containerPort === 'number' ? port.containerPort : 0;
        if ((opts.resourceIsPod || hp !== 0) && hp !== cp) {
          errs.push(fieldErr.invalid(`${path}.containers[${i}].ports[${j}].hostPort`, hp, 'must match `containerPort` when `hostNetwork` is true'));
        }
      });
    });
  }
  errs.push(...validateRestartPolicy(spec.restartPolicy, `${path}.restartPolicy`));
  errs.push(...validateDNSPolicy(spec.dnsPolicy, `${path}.dnsPolicy`));
  errs.push(...validateLabels(spec.nodeSelector, `${path}.nodeSelector`));
  errs.push(...validatePodSecurityContext(spec.securityContext, `${path}.securityContext`));
  objItems(spec, 'imagePullSecrets').forEach((s, i) => {
    if (Object.keys(s).some((k) => k !== 'name')) errs.push(fieldErr.invalid(`${path}.imagePullSecrets[${i}]`, s, 'only name may be set'));
  });
  errs.push(...validateAffinity(spec.affinity, `${path}.affinity`));
  errs.push(...validatePodDNSConfig(spec.dnsConfig, str(spec.dnsPolicy), `${path}.dnsConfig`));
  objItems(spec, 'readinessGates').forEach((g, i) => {
    errs.push(...invalidEach(`${path}.readinessGates[${i}].conditionType`, str(g.conditionType), isQualifiedName(str(g.conditionType))));
  });
  const gates = new Set<string>();
  objItems(spec, 'schedulingGates').forEach((g, i) => {
    const name = str(g.name);
    errs.push(...invalidEach(`${path}.schedulingGates[${i}]`, name, isQualifiedName(name)));
    if (gates.has(name)) errs.push(fieldErr.duplicate(`${path}.schedulingGates[${i}]`, name));
    gates.add(name);
  });
  errs.push(...validateTopologySpreadConstraints(objItems(spec, 'topologySpreadConstraints'), `${path}.topologySpreadConstraints`));
  const sa = str(spec.serviceAccountName);
  if (sa) errs.push(...invalidEach(`${path}.serviceAccountName`, sa, validateServiceAccountName(sa, false)));
  const nodeName = str(spec.nodeName);
  if (nodeName) errs.push(...invalidEach(`${path}.nodeName`, nodeName, nameIsDNSSubdomain(nodeName, false)));
  const ads = spec.activeDeadlineSeconds;
  if (typeof ads === 'number' && (ads < 1 || ads > MaxInt32)) {
    errs.push(fieldErr.invalid(`${path}.activeDeadlineSeconds`, ads, inclusiveRangeError(1, MaxInt32)));
  }
  if (str(spec.hostname)) errs.push(...invalidEach(`${path}.hostname`, spec.hostname, isDNS1123Label(str(spec.hostname))));
  if (str(spec.subdomain)) errs.push(...invalidEach(`${path}.subdomain`, spec.subdomain, isDNS1123Label(str(spec.subdomain))));
  const tolerations = objItems(spec, 'tolerations');
  if (tolerations.length) errs.push(...validateTolerations(tolerations, `${path}.tolerations`));
  objItems(spec, 'hostAliases').forEach((ha, i) => {
    if (!isIP(str(ha.ip))) errs.push(fieldErr.invalid(`${path}.hostAliases[${i}].ip`, str(ha.ip), 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
    arrAt(ha, 'hostnames').forEach((h, j) => errs.push(...invalidEach(`${path}.hostAliases[${i}].hostnames[${j}]`, h, isDNS1123Subdomain(String(h)))));
  });
  const pcn = str(spec.priorityClassName);
  if (pcn) errs.push(...invalidEach(`${path}.priorityClassName`, pcn, nameIsDNSSubdomain(pcn, false)));
  if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null) {
    const pp = str(spec.preemptionPolicy);
    if (!pp) errs.push(fieldErr.required(`${path}.preemptionPolicy`, ''));
    else if (pp !== 'PreemptLowerPriority' && pp !== 'Never') {
      errs.push(fieldErr.notSupported(`${path}.preemptionPolicy`, pp, ['PreemptLowerPriority', 'Never']));
    }
  }
  if (isObj(spec.os)) {
    const os = str(spec.os.name);
    if (!os) errs.push(fieldErr.required(`${path}.os.name`, ''));
    else if (os !== 'linux' && os !== 'windows') errs.push(fieldErr.notSupported(`${path}.os.name`, os, ['linux', 'windows']));
  }
  return errs;
}

/** validateContainersOnlyForPod: images of real pods may not carry leading or trailing whitespace. */
export function validateContainersOnlyForPod(containers: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const image = str(c.image);
    if (image.length !== image.trim().length) {
      errs.push(fieldErr.invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
    }
  });
  return errs;
}

/** ValidatePodTemplateSpec: template labels and annotations, the PodSpec, and no ephemeral containers. */
export function validatePodTemplateSpec(template: unknown, path: string, opts: PodSpecValidationOptions = {}): FieldError[] {
  const t = isObj(template) ? template : {};
  const meta = isObj(t.metadata) ? t.metadata : {};
  const errs: FieldError[] = [];
  errs.push(...validateLabels(meta.labels, `${path}.labels`));
  errs.push(...validateAnnotations(meta.annotations, `${path}.annotations`));
  errs.push(...validatePodSpec(isObj(t.spec) ? t.spec : {}, undefined, `${path}.spec`, opts));
  if (arrAt(t, 'spec', 'ephemeralContainers').length > 0) {
    errs.push(fieldErr.forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

/** The labels of a template (for the selector match checks). */
export function templateLabels(template: unknown): Record<string, string> | null {
  const labels = isObj(template) && isObj(template.metadata) ? template.metadata.labels : undefined;
  return isObj(labels) ? (labels as Record<string, string>) : null;
}
