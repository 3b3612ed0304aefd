// ValidatePodUpdate: a running pod's spec is nearly immutable. Only container images, activeDeadlineSeconds
// (set, or lowered), added tolerations (existing ones may change only tolerationSeconds), removed scheduling gates
// and terminationGracePeriodSeconds (negative → 1) may change; anything else is one Forbidden error on `spec`.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { KubeObject } from '../../../../../shared/api/types';
import { inclusiveRangeError } from '../../../../../shared/lib/validation';
import { computePodQOS } from '../../generic/podspec/resources';
import { validateTolerations } from '../../generic/podspec/scheduling';
import { type Obj, clone, isObj, objItems, semanticEqual, str } from '../../generic/util';

const MaxInt32 = 2147483647;

/** The v1.32 list, joined with "," exactly as the message prints it. */
export const updatablePodSpecFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

export const podUpdateForbiddenPrefix = `pod updates may not change fields other than ${updatablePodSpecFields.join(',')}`;

function validateContainerUpdates(newCs: Obj[], oldCs: Obj[], path: string): { errs: FieldError[]; stop: boolean } {
  if (newCs.length !== oldCs.length) return { errs: [fieldErr.forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  newCs.forEach((c, i) => {
    const image = str(c.image);
    if (!image) errs.push(fieldErr.required(`${path}[${i}].image`, ''));
    if (image.trim().length !== image.length) {
      errs.push(fieldErr.invalid(`${path}[${i}].image`, image, 'must not have leading or trailing whitespace'));
    }
  });
  return { errs, stop: false };
}

function validateOnlyAddedTolerations(newTs: Obj[], oldTs: Obj[], path: string): FieldError[] {
  for (const old of oldTs) {
    const found = newTs.some((t) => semanticEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!found) return [fieldErr.forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(newTs, path);
}

function validateOnlyDeletedSchedulingGates(newGates: Obj[], oldGates: Obj[], path: string): FieldError[] {
  const old = new Set(oldGates.map((g) => str(g.name)));
  const errs: FieldError[] = [];
  newGates.forEach((g, i) => {
    if (!old.has(str(g.name))) {
      errs.push(fieldErr.forbidden(`${path}[${i}].name`, `only deletion is allowed, but found new scheduling gate '${str(g.name)}'`));
    }
  });
  return errs;
}

/** Leaf paths where two JSON values differ, for the diff that follows the Forbidden message. */
function diffPaths(a: unknown, b: unknown, path: string, out: string[]): void {
  if (semanticEqual(a, b)) return;
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diffPaths(a[k], b[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffPaths(x, b[i], `${path}[${i}]`, out));
    return;
  }
  out.push(`- \t${path}: ${JSON.stringify(a ?? null)}`, `+ \t${path}: ${JSON.stringify(b ?? null)}`);
}

/** A compact stand-in for the cmp.Diff Kubernetes appends (it is not meant to be parsed). */
export function podSpecDiff(oldSpec: Obj, newSpec: Obj): string {
  const lines: string[] = [];
  diffPaths(oldSpec, newSpec, '', lines);
  return ['  core.PodSpec{', ...lines, '  }'].join('\n');
}

/** GetPodQOS: the stored class when there is one. */
function podQOS(pod: KubeObject): string {
  const qos = isObj(pod.status) ? str(pod.status.qosClass) : '';
  return qos || computePodQOS(isObj(pod.spec) ? pod.spec : {});
}

/** The spec-mutation rules of ValidatePodUpdate (metadata and full spec validation are done by the caller). */
export function validatePodSpecUpdate(newPod: KubeObject, oldPod: KubeObject): FieldError[] {
  const newSpec = isObj(newPod.spec) ? newPod.spec : {};
  const oldSpec = isObj(oldPod.spec) ? oldPod.spec : {};
  const errs: FieldError[] = [];

  let r = validateContainerUpdates(objItems(newSpec, 'containers'), objItems(oldSpec, 'containers'), 'spec.containers');
  errs.push(...r.errs);
  if (r.stop) return errs;
  r = validateContainerUpdates(objItems(newSpec, 'initContainers'), objItems(oldSpec, 'initContainers'), 'spec.initContainers');
  errs.push(...r.errs);
  if (r.stop) return errs;

  const newADS = newSpec.activeDeadlineSeconds;
  const oldADS = oldSpec.activeDeadlineSeconds;
  if (typeof newADS === 'number') {
    if (newADS < 0 || newADS > MaxInt32) {
      errs.push(fieldErr.invalid('spec.activeDeadlineSeconds', newADS, inclusiveRangeError(0, MaxInt32)));
      return errs;
    }
    if (typeof oldADS === 'number' && oldADS < newADS) {
      errs.push(fieldErr.invalid('spec.activeDeadlineSeconds', newADS, 'must be less than or equal to previous value'));
      return errs;
    }
  } else if (typeof oldADS === 'number') {
    errs.push(fieldErr.invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }

  errs.push(...validateOnlyAddedTolerations(objItems(newSpec, 'tolerations'), objItems(oldSpec, 'tolerations'), 'spec.tolerations'));
  errs.push(...validateOnlyDeletedSchedulingGates(objItems(newSpec, 'schedulingGates'), objItems(oldSpec, 'schedulingGates'), 'spec.schedulingGates'));

  if (semanticEqual(newSpec, oldSpec)) return errs;

  if (podQOS(oldPod) !== computePodQOS(newSpec)) {
    const shown = isObj(newPod.status) ? str(newPod.status.qosClass) : '';
    errs.push(fieldErr.invalid('metadata', shown, 'Pod QoS is immutable'));
  }

  // Put the updatable fields back to their old values; whatever still differs was not allowed to change.
  const munged = clone(newSpec);
  objItems(munged, 'containers').forEach((c, i) => (c.image = objItems(oldSpec, 'containers')[i]?.image));
  objItems(munged, 'initContainers').forEach((c, i) => (c.image = objItems(oldSpec, 'initContainers')[i]?.image));
  if (oldSpec.activeDeadlineSeconds === undefined) delete munged.activeDeadlineSeconds;
  else munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  if (oldSpec.schedulingGates === undefined) delete munged.schedulingGates;
  else munged.schedulingGates = clone(oldSpec.schedulingGates);
  if (oldSpec.tolerations === undefined) delete munged.tolerations;
  else munged.tolerations = clone(oldSpec.tolerations);
  const oldTGPS = oldSpec.terminationGracePeriodSeconds;
  if (typeof oldTGPS === 'number' && oldTGPS < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldTGPS;
  if (oldSpec.schedulingGates !== undefined && objItems(oldSpec, 'schedulingGates').length > 0) {
    // Gated pods may gain nodeSelector entries and node affinity before they are scheduled.
    munged.nodeSelector = clone(oldSpec.nodeSelector);
    if (isObj(munged.affinity)) munged.affinity.nodeAffinity = isObj(oldSpec.affinity) ? clone(oldSpec.affinity.nodeAffinity) : undefined;
  }

  if (!semanticEqual(munged, oldSpec)) {
    errs.push(fieldErr.forbidden('spec', `${podUpdateForbiddenPrefix}\n${podSpecDiff(oldSpec, munged)}`));
  }
  return errs;
}
