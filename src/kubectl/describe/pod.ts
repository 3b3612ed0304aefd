// describePod (describe.go PodDescriber).
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { isStatusError } from '../../shared/api/status';
import { computePodQOS } from '../../control-plane/apiserver/registry/generic/podspec/resources';
import type { DescriberSettings } from './context';
import { describeContainers, describeResources, describeTopologySpreadConstraints, describeVolumes, envValueRetriever } from './containers';
import { describeEvents, searchEvents } from './events';
import {
  LEVEL_0,
  LEVEL_1,
  printAnnotationsMultiline,
  printLabelsMultiline,
  printTolerationsMultiline,
  rfc1123z,
  tabbedString,
  timestampSince,
  type PrefixWriter,
} from './writer';

const mirrorPodAnnotation = 'kubernetes.io/config.mirror';

export function describePodByName(s: DescriberSettings, namespace: string, name: string): string {
  let pod: Pod;
  try {
    pod = s.client.pods.get(name, { namespace });
  } catch (err) {
    if (s.showEvents && isStatusError(err)) {
      // A pod that is gone may still have events: kubectl shows them.
      let events: Event[] = [];
      try {
        events = searchEvents(s.client, { name, namespace });
      } catch {
        events = [];
      }
      if (events.length > 0) {
        return tabbedString((w) => {
          w.write(LEVEL_0, `Pod '${name}': error '${err.message}', but found events.\n`);
          describeEvents(events, w, s.now);
        });
      }
    }
    throw err;
  }
  let events: Event[] | undefined;
  if (s.showEvents) {
    const uid = pod.metadata?.annotations?.[mirrorPodAnnotation] ?? pod.metadata?.uid;
    events = safeEvents(() => searchEvents(s.client, { name: pod.metadata!.name!, namespace: pod.metadata?.namespace, uid }));
  }
  return describePod(pod, events, s.now);
}

/** Events are best-effort in describe (an error leaves the section out). */
export function safeEvents(fn: () => Event[]): Event[] | undefined {
  try {
    return fn();
  } catch (err) {
    if (isStatusError(err)) return undefined;
    throw err;
  }
}

/** metav1.GetControllerOf as "Kind/name". */
export function printController(meta: { ownerReferences?: { kind: string; name: string; controller?: boolean }[] } | undefined): string {
  const ref = meta?.ownerReferences?.find((r) => r.controller);
  return ref ? `${ref.kind}/${ref.name}` : '';
}

export function describePod(pod: Pod, events: Event[] | undefined, now: number): string {
  return tabbedString((w) => {
    const meta = pod.metadata ?? {};
    const spec = pod.spec ?? { containers: [] };
    const status = pod.status ?? {};
    w.write(LEVEL_0, `Name:\t${meta.name ?? ''}\n`);
    w.write(LEVEL_0, `Namespace:\t${meta.namespace ?? ''}\n`);
    if (spec.priority !== undefined && spec.priority !== null) w.write(LEVEL_0, `Priority:\t${spec.priority}\n`);
    if (spec.priorityClassName) w.write(LEVEL_0, `Priority Class Name:\t${spec.priorityClassName}\n`);
    if (spec.runtimeClassName) w.write(LEVEL_0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
    if (spec.serviceAccountName) w.write(LEVEL_0, `Service Account:\t${spec.serviceAccountName}\n`);
    if (!spec.nodeName) w.write(LEVEL_0, 'Node:\t<none>\n');
    else w.write(LEVEL_0, `Node:\t${spec.nodeName}/${status.hostIP ?? ''}\n`);
    if (status.startTime) w.write(LEVEL_0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
    printLabelsMultiline(w, 'Labels', meta.labels);
    printAnnotationsMultiline(w, 'Annotations', meta.annotations);
    if (meta.deletionTimestamp && status.phase !== 'Failed' && status.phase !== 'Succeeded') {
      w.write(LEVEL_0, `Status:\tTerminating (lasts ${timestampSince(meta.deletionTimestamp, now)})\n`);
      w.write(LEVEL_0, `Termination Grace Period:\t${meta.deletionGracePeriodSeconds ?? 0}s\n`);
    } else {
      w.write(LEVEL_0, `Status:\t${status.phase ?? ''}\n`);
    }
    if (status.reason) w.write(LEVEL_0, `Reason:\t${status.reason}\n`);
    if (status.message) w.write(LEVEL_0, `Message:\t${status.message}\n`);
    const seccomp = spec.securityContext?.seccompProfile;
    if (seccomp) {
      w.write(LEVEL_0, `SeccompProfile:\t${seccomp.type}\n`);
      if (seccomp.type === 'Localhost') w.write(LEVEL_0, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
    }
    w.write(LEVEL_0, `IP:\t${status.podIP ?? ''}\n`);
    describePodIPs(pod, w, '');
    const controlledBy = printController(meta);
    if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
    if (status.nominatedNodeName) w.write(LEVEL_0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
    const podResources = (spec as { resources?: Parameters<typeof describeResources>[0] }).resources;
    if (podResources) {
      w.write(LEVEL_0, 'Resources:\n');
      describeResources(podResources, w, LEVEL_1);
    }
    const resolve = envValueRetriever(pod);
    if (spec.initContainers?.length) describeContainers('Init Containers', spec.initContainers, status.initContainerStatuses, resolve, w, '');
    describeContainers('Containers', spec.containers ?? [], status.containerStatuses, resolve, w, '');
    if (spec.ephemeralContainers?.length) describeContainers('Ephemeral Containers', spec.ephemeralContainers, status.ephemeralContainerStatuses, resolve, w, '');
    if (spec.readinessGates?.length) {
      w.write(LEVEL_0, 'Readiness Gates:\n  Type\tStatus\n');
      for (const g of spec.readinessGates) {
        const c = status.conditions?.find((x) => x.type === g.conditionType);
        w.write(LEVEL_1, `${g.conditionType} \t${c ? c.status : '<none>'} \n`);
      }
    }
    if (status.conditions?.length) {
      w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\n');
      for (const c of status.conditions) w.write(LEVEL_1, `${c.type} \t${c.status} \n`);
    }
    describeVolumes(spec.volumes, w, '');
    w.write(LEVEL_0, `QoS Class:\t${status.qosClass || computePodQOS(spec as unknown as Record<string, unknown>)}\n`);
    printLabelsMultiline(w, 'Node-Selectors', spec.nodeSelector);
    printTolerationsMultiline(w, 'Tolerations', spec.tolerations);
    describeTopologySpreadConstraints(spec, w, '');
    if (events) describeEvents(events, w, now);
  });
}

function describePodIPs(pod: Pod, w: PrefixWriter, space: string): void {
  const ips = pod.status?.podIPs ?? [];
  if (ips.length === 0) {
    w.write(LEVEL_0, `${space}IPs:\t<none>\n`);
    return;
  }
  w.write(LEVEL_0, `${space}IPs:\n`);
  for (const ip of ips) w.write(LEVEL_1, `IP:\t${ip.ip}\n`);
}
