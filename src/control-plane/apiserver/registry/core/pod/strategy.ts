// Pod strategy (pkg/registry/core/pod/strategy.go): defaults, Pending status and QoS class on create, the
// near-immutable spec on update, the status subresource, graceful deletion and field selectors.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isIP, nameIsDNSSubdomain } from '../../../../../shared/lib/validation';
import { rfc3339 } from '../../../../sim/clock';
import type { ResourceStrategy } from '../../../types';
import { defaultPod } from '../../generic/podspec/defaults';
import { computePodQOS } from '../../generic/podspec/resources';
import { validateContainersOnlyForPod, validatePodSpec } from '../../generic/podspec/validation';
import { validateKubeObjectMeta, validateKubeObjectMetaUpdate } from '../../generic/kubemeta';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, ensureObj, isObj, objItems, str, validateImmutableField } from '../../generic/util';
import { validatePodSpecUpdate } from './update';

export const MirrorPodAnnotationKey = 'kubernetes.io/config.mirror';

function spec(pod: KubeObject): Obj {
  return ensureObj(pod as Obj, 'spec');
}

/** validatePodMetadataAndSpec: what both create and update check on the new pod. */
function validatePodMetadataAndSpec(pod: KubeObject): FieldError[] {
  const s = spec(pod);
  const errs = validateKubeObjectMeta(pod.metadata, true, nameIsDNSSubdomain);
  const annotations = pod.metadata?.annotations ?? {};
  if (Object.prototype.hasOwnProperty.call(annotations, MirrorPodAnnotationKey) && !str(s.nodeName)) {
    errs.push(
      fieldErr.invalid(`metadata.annotations[${MirrorPodAnnotationKey}]`, annotations[MirrorPodAnnotationKey], 'must set spec.nodeName if mirror pod annotation is set'),
    );
  }
  errs.push(...validatePodSpec(s, pod.metadata, 'spec', { resourceIsPod: true }));
  if (!str(s.serviceAccountName)) {
    objItems(s, 'volumes').forEach((v, vi) => {
      if (!isObj(v.projected)) return;
      objItems(v.projected, 'sources').forEach((src, si) => {
        if (isObj(src.serviceAccountToken)) {
          errs.push(
            fieldErr.forbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'),
          );
        }
      });
    });
  }
  errs.push(...validateContainersOnlyForPod(objItems(s, 'containers'), 'spec.containers'));
  errs.push(...validateContainersOnlyForPod(objItems(s, 'initContainers'), 'spec.initContainers'));
  return errs;
}

/** ValidatePodCreate. */
export function validatePodCreate(pod: KubeObject): FieldError[] {
  const s = spec(pod);
  const errs = validatePodMetadataAndSpec(pod);
  if (objItems(s, 'ephemeralContainers').length > 0) errs.push(fieldErr.forbidden('spec.ephemeralContainers', 'cannot be set on create'));
  if (str(s.nodeName) && objItems(s, 'schedulingGates').length > 0) {
    errs.push(fieldErr.forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}

/** ValidatePodUpdate. */
export function validatePodUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  return [...validateKubeObjectMetaUpdate(pod.metadata, old.metadata), ...validatePodMetadataAndSpec(pod), ...validatePodSpecUpdate(pod, old)];
}

function validatePodStatusUpdate(pod: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const status = isObj(pod.status) ? pod.status : {};
  const oldStatus = isObj(old.status) ? old.status : {};
  const nominated = str(status.nominatedNodeName);
  if (nominated && nominated !== str(oldStatus.nominatedNodeName)) {
    for (const msg of nameIsDNSSubdomain(nominated, false)) errs.push(fieldErr.invalid('status.nominatedNodeName', nominated, msg));
  }
  errs.push(...validateImmutableField(str(status.qosClass), str(oldStatus.qosClass), 'status.qosClass'));
  objItems(status, 'podIPs').forEach((ip, i) => {
    if (!isIP(str(ip.ip))) errs.push(fieldErr.invalid(`status.podIPs[${i}]`, str(ip.ip), 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  const restartPolicy = str(spec(old).restartPolicy);
  if (restartPolicy !== 'Always') {
    const newStatuses = objItems(status, 'containerStatuses');
    objItems(oldStatus, 'containerStatuses').forEach((os, i) => {
      const terminated = isObj(os.state) && isObj(os.state.terminated) ? os.state.terminated : undefined;
      if (!terminated) return;
      if (terminated.exitCode !== 0 && restartPolicy === 'OnFailure') return;
      for (const ns of newStatuses) {
        if (ns.name === os.name && !(isObj(ns.state) && isObj(ns.state.terminated))) {
          errs.push(fieldErr.forbidden(`status.containerStatuses[${i}].state`, 'may not be transitioned to non-terminated state'));
        }
      }
    });
  }
  return errs;
}

/** The pod fields field selectors may use (pkg/registry/core/pod ToSelectableFields), in its order, each with its reader. */
const podFieldReaders: Readonly<Record<string, (spec: Obj, status: Obj) => string>> = {
  'spec.nodeName': (s) => str(s.nodeName),
  'spec.restartPolicy': (s) => str(s.restartPolicy),
  'spec.schedulerName': (s) => str(s.schedulerName),
  'spec.serviceAccountName': (s) => str(s.serviceAccountName),
  'spec.hostNetwork': (s) => String(s.hostNetwork === true),
  'status.phase': (_, status) => str(status.phase),
  'status.podIP': (_, status) => str(status.podIP),
  'status.nominatedNodeName': (_, status) => str(status.nominatedNodeName),
};

/** One selectable pod field's value (undefined: not one of them): a kubelet's watch index reads spec.nodeName alone. */
function podSelectableField(pod: KubeObject, field: string): string | undefined {
  const read = Object.hasOwn(podFieldReaders, field) ? podFieldReaders[field] : undefined;
  return read?.(isObj(pod.spec) ? pod.spec : {}, isObj(pod.status) ? pod.status : {});
}

export function podStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    nameFn: nameIsDNSSubdomain,
    // The pods of one template repeat these (its labels, its owner, the default tolerations, the new status),
    // and pods that changed state in the same second their conditions and container states.
    sharedSubtrees: [
      ['metadata', 'labels'],
      ['metadata', 'ownerReferences'],
      ['spec', 'tolerations'],
      ['spec', 'securityContext'],
      ['status', 'conditions', '*'],
      ['status', 'containerStatuses', '*', 'state'],
      ['status', 'containerStatuses', '*', 'lastState'],
    ],
    // Every pod of a node repeats its host IPs.
    sharedByText: [['status', 'hostIPs']],
    // Status writes hand the stored spec back (the kubelet's, the scheduler's): it is taken as it is.
    keptStoredParts: ['spec'],
    applyDefaults(pod) {
      // A kept spec is the stored one, defaulted when it was stored.
      if (!Object.isFrozen(pod.spec)) defaultPod(spec(pod));
    },
    prepareForCreate(pod, ctx) {
      const s = spec(pod);
      const status: Obj = { phase: 'Pending', qosClass: computePodQOS(s) };
      if (objItems(s, 'schedulingGates').length > 0) {
        status.conditions = [
          {
            type: 'PodScheduled',
            status: 'False',
            lastProbeTime: null,
            lastTransitionTime: rfc3339(ctx.clock.now()),
            reason: 'SchedulingGated',
            message: 'Scheduling is blocked due to non-empty scheduling gates',
          },
        ];
      }
      pod.status = status;
      // Seam: the Priority admission plugin resolves priorityClassName into these; without a class they are the
      // global defaults, which is what a cluster with no default PriorityClass shows.
      if (s.priority === undefined || s.priority === null) s.priority = 0;
      if (!s.preemptionPolicy) s.preemptionPolicy = 'PreemptLowerPriority';
    },
    validateFull: (pod) => validatePodCreate(pod),
    validateUpdateFull: (pod, old) => validatePodUpdate(pod, old),
    status: {
      prepareForUpdate(pod, old) {
        // Old kubelets corrupted owner references through pods/status; Kubernetes keeps the stored ones.
        const refs = old.metadata?.ownerReferences;
        const m = pod.metadata as Obj;
        if (refs === undefined) delete m.ownerReferences;
        else m.ownerReferences = refs;
      },
      validate: (pod, old) => validatePodStatusUpdate(pod, old),
    },
    defaultGracePeriodSeconds(pod) {
      // CheckGracefulDelete: unscheduled or finished pods go immediately.
      const s = isObj(pod.spec) ? pod.spec : {};
      const phase = isObj(pod.status) ? str(pod.status.phase) : '';
      if (!str(s.nodeName) || phase === 'Succeeded' || phase === 'Failed') return 0;
      const tgps = s.terminationGracePeriodSeconds;
      return typeof tgps === 'number' ? Math.max(tgps, 0) : 30;
    },
    selectableFields(pod) {
      const spec = isObj(pod.spec) ? pod.spec : {};
      const status = isObj(pod.status) ? pod.status : {};
      const out: Record<string, string> = {};
      for (const [field, read] of Object.entries(podFieldReaders)) out[field] = read(spec, status);
      return out;
    },
    selectableField: podSelectableField,
  });
}
