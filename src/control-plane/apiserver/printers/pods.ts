// Pods and pod templates (pkg/printers/internalversion/printers.go printPod, printPodTemplate).
import type { KubeObject } from '../../../shared/api/types';
import {
  ageColumn,
  arr,
  column,
  field,
  formatLabels,
  layoutContainerCells,
  nameColumn,
  num,
  rec,
  str,
  translateTimestampSince,
  type KindPrinter,
  type TableCell,
} from './table';
import { humanDuration } from '../../../shared/lib/duration';

const podStatus = 'io.k8s.api.core.v1.PodStatus';
const podSpec = 'io.k8s.api.core.v1.PodSpec';

interface ContainerState {
  waiting?: { reason?: string };
  running?: object;
  terminated?: { reason?: string; exitCode?: number; signal?: number; finishedAt?: string };
}

interface ContainerStatus {
  name?: string;
  ready?: boolean;
  started?: boolean;
  restartCount?: number;
  state?: ContainerState;
  lastState?: ContainerState;
}

interface Condition {
  type?: string;
  status?: string;
  reason?: string;
}

/** NodeUnreachablePodReason (pkg/util/node). */
const nodeLostReason = 'NodeLost';

function timeOf(ts: string | undefined): number {
  if (!ts) return 0;
  const t = Date.parse(ts);
  return Number.isNaN(t) ? 0 : t;
}

function isRestartableInitContainer(c: unknown): boolean {
  return field(c, 'restartPolicy') === 'Always';
}

export const podPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Ready', 'string', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'string', 'The aggregate status of the containers in this pod.'),
    column('Restarts', 'string', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
    ageColumn(),
    column('IP', 'string', `${podStatus}#podIP`, { priority: 1 }),
    column('Node', 'string', `${podSpec}#nodeName`, { priority: 1 }),
    column('Nominated Node', 'string', `${podStatus}#nominatedNodeName`, { priority: 1 }),
    column('Readiness Gates', 'string', `${podSpec}#readinessGates`, { priority: 1 }),
  ],
  conditions(pod) {
    const phase = field(pod, 'status', 'phase');
    if (phase === 'Succeeded') return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
    if (phase === 'Failed') return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    return undefined;
  },
  cells(pod, { now }) {
    const spec = rec(field(pod, 'spec'));
    const status = rec(field(pod, 'status'));
    const containers = arr(spec.containers);
    const initContainers = arr(spec.initContainers);
    const conditions = arr<Condition>(status.conditions);
    let restarts = 0;
    let restartableInitContainerRestarts = 0;
    let totalContainers = containers.length;
    let readyContainers = 0;
    let lastRestartDate = 0;
    let lastRestartableInitContainerRestartDate = 0;

    const podPhase = str(status.phase);
    let reason = str(status.reason) || podPhase;

    for (const c of conditions) {
      if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
    }

    const initByName = new Map<string, unknown>();
    for (const c of initContainers) {
      initByName.set(str(field(c, 'name')), c);
      if (isRestartableInitContainer(c)) totalContainers++;
    }

    let initializing = false;
    const initStatuses = arr<ContainerStatus>(status.initContainerStatuses);
    for (let i = 0; i < initStatuses.length; i++) {
      const container = initStatuses[i];
      restarts += num(container.restartCount);
      const lastTerminated = container.lastState?.terminated;
      if (lastTerminated) {
        const t = timeOf(lastTerminated.finishedAt);
        if (lastRestartDate < t) lastRestartDate = t;
      }
      const restartable = isRestartableInitContainer(initByName.get(str(container.name)));
      if (restartable) {
        restartableInitContainerRestarts += num(container.restartCount);
        if (lastTerminated) {
          const t = timeOf(lastTerminated.finishedAt);
          if (lastRestartableInitContainerRestartDate < t) lastRestartableInitContainerRestartDate = t;
        }
      }
      const terminated = container.state?.terminated;
      const waiting = container.state?.waiting;
      if (terminated && num(terminated.exitCode) === 0) continue;
      if (restartable && container.started) {
        if (container.ready) readyContainers++;
        continue;
      }
      if (terminated) {
        // Initialization failed.
        if (!terminated.reason) {
          reason = num(terminated.signal) !== 0 ? `Init:Signal:${num(terminated.signal)}` : `Init:ExitCode:${num(terminated.exitCode)}`;
        } else {
          reason = `Init:${terminated.reason}`;
        }
        initializing = true;
      } else if (waiting && waiting.reason && waiting.reason !== 'PodInitializing') {
        reason = `Init:${waiting.reason}`;
        initializing = true;
      } else {
        reason = `Init:${i}/${initContainers.length}`;
        initializing = true;
      }
      break;
    }

    const initialized = conditions.find((c) => c.type === 'Initialized');
    if (!initializing || initialized?.status === 'True') {
      restarts = restartableInitContainerRestarts;
      lastRestartDate = lastRestartableInitContainerRestartDate;
      let hasRunning = false;
      const statuses = arr<ContainerStatus>(status.containerStatuses);
      for (let i = statuses.length - 1; i >= 0; i--) {
        const container = statuses[i];
        restarts += num(container.restartCount);
        const lastTerminated = container.lastState?.terminated;
        if (lastTerminated) {
          const t = timeOf(lastTerminated.finishedAt);
          if (lastRestartDate < t) lastRestartDate = t;
        }
        const waiting = container.state?.waiting;
        const terminated = container.state?.terminated;
        if (waiting && waiting.reason) {
          reason = waiting.reason;
        } else if (terminated && terminated.reason) {
          reason = terminated.reason;
        } else if (terminated && !terminated.reason) {
          reason = num(terminated.signal) !== 0 ? `Signal:${num(terminated.signal)}` : `ExitCode:${num(terminated.exitCode)}`;
        } else if (container.ready && container.state?.running) {
          hasRunning = true;
          readyContainers++;
        }
      }
      // Back to "Running" if at least one container is still running.
      if (reason === 'Completed' && hasRunning) {
        reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
      }
    }

    const deleting = !!pod.metadata?.deletionTimestamp;
    if (deleting && str(status.reason) === nodeLostReason) {
      reason = 'Unknown';
    } else if (deleting && podPhase !== 'Failed' && podPhase !== 'Succeeded') {
      reason = 'Terminating';
    }

    let restartsStr = String(restarts);
    if (restarts !== 0 && lastRestartDate !== 0) {
      restartsStr = `${restarts} (${humanDuration(now - lastRestartDate)} ago)`;
    }

    const podIPs = arr(status.podIPs);
    const podIP = str(field(podIPs[0], 'ip')) || '<none>';
    const nodeName = str(spec.nodeName) || '<none>';
    const nominatedNodeName = str(status.nominatedNodeName) || '<none>';
    let readinessGates = '<none>';
    const gates = arr(spec.readinessGates);
    if (gates.length > 0) {
      let trueConditions = 0;
      for (const gate of gates) {
        const found = conditions.find((c) => c.type === field(gate, 'conditionType'));
        if (found?.status === 'True') trueConditions++;
      }
      readinessGates = `${trueConditions}/${gates.length}`;
    }

    return [
      pod.metadata?.name ?? '',
      `${readyContainers}/${totalContainers}`,
      reason,
      restartsStr,
      translateTimestampSince(pod.metadata?.creationTimestamp, now),
      podIP,
      nodeName,
      nominatedNodeName,
      readinessGates,
    ];
  },
};

export const podTemplatePrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Containers', 'string', 'Names of each container in the template.'),
    column('Images', 'string', 'Images referenced by each container in the template.'),
    column('Pod Labels', 'string', 'The labels for the pod template.'),
  ],
  cells(obj: KubeObject): TableCell[] {
    const [names, images] = layoutContainerCells(arr(field(obj, 'template', 'spec', 'containers')));
    return [obj.metadata?.name ?? '', names, images, formatLabels(rec<string>(field(obj, 'template', 'metadata', 'labels')))];
  },
};

