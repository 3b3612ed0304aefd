// The controllers' describers: Deployment, ReplicaSet, ReplicationController, StatefulSet, DaemonSet, Job,
// CronJob (describe.go), each with its pod template and the events about it.
import type { DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { CronJob, Job } from 'kubernetes-types/batch/v1';
import type { Event, Pod, ReplicationController } from 'kubernetes-types/core/v1';
import type { KubeObject } from '../../shared/api/types';
import { labelSelectorAsSelector, selectorFromSet, selectorToString } from '../../shared/lib/labels';
import type { Client } from '../../control-plane/client/client';
import { equalIgnoreHash } from '../../control-plane/controllers/deployment/deployment-util';
import { humanDuration } from '../../shared/lib/duration';
import type { Describer, DescriberSettings } from './context';
import { describePodTemplate } from './containers';
import { describeEvents, searchEvents } from './events';
import { printController, safeEvents } from './pod';
import {
  byteOrder,
  formatLabels,
  LEVEL_0,
  LEVEL_1,
  printAnnotationsMultiline,
  printBoolPtr,
  printLabelsMultiline,
  rfc1123z,
  tabbedString,
  type PrefixWriter,
} from './writer';

function eventsFor(s: DescriberSettings, obj: KubeObject): Event[] | undefined {
  if (!s.showEvents) return undefined;
  return safeEvents(() => searchEvents(s.client, { name: obj.metadata.name!, namespace: obj.metadata.namespace, kind: obj.kind, uid: obj.metadata.uid }));
}

/** getPodStatusForController: phases of the pods the selector matches that uid controls. */
function podStatusForController(client: Client, namespace: string, selector: string, uid: string | undefined): { running: number; waiting: number; succeeded: number; failed: number } {
  const out = { running: 0, waiting: 0, succeeded: 0, failed: 0 };
  const pods = client.pods.list({ namespace, labelSelector: selector }).items as Pod[];
  for (const pod of pods) {
    const ref = pod.metadata?.ownerReferences?.find((r) => r.controller);
    if (!ref || ref.uid !== uid) continue;
    if (pod.status?.phase === 'Running') out.running++;
    else if (pod.status?.phase === 'Pending') out.waiting++;
    else if (pod.status?.phase === 'Succeeded') out.succeeded++;
    else if (pod.status?.phase === 'Failed') out.failed++;
  }
  return out;
}

function podsStatusLine(p: { running: number; waiting: number; succeeded: number; failed: number }): string {
  return `${p.running} Running / ${p.waiting} Waiting / ${p.succeeded} Succeeded / ${p.failed} Failed`;
}

function selectorString(selector: Parameters<typeof labelSelectorAsSelector>[0]): string {
  return selectorToString(labelSelectorAsSelector(selector));
}

function conditionsTable(w: PrefixWriter, conditions: { type: string; status: string; reason?: string }[] | undefined): void {
  if (!conditions?.length) return;
  w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tReason\n');
  w.write(LEVEL_1, '----\t------\t------\n');
  for (const c of conditions) w.write(LEVEL_1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
}

// ------------------------------------------------------------------ Deployment

export const describeDeployment: Describer = (s, namespace, name) => {
  const d = s.client.deployments.get(name, { namespace }) as Deployment & KubeObject;
  const events = eventsFor(s, d);
  const selector = selectorString(d.spec?.selector);
  // deploymentutil.GetAllReplicaSetsInChunks: the RSs the selector matches and the deployment controls.
  let oldRSs: ReplicaSet[] = [];
  let newRSs: ReplicaSet[] = [];
  try {
    const owned = (s.client.replicaSets.list({ namespace, labelSelector: selector }).items as ReplicaSet[])
      .filter((rs) => rs.metadata?.ownerReferences?.some((r) => r.controller && r.uid === d.metadata.uid))
      .sort((a, b) => (a.metadata?.creationTimestamp === b.metadata?.creationTimestamp ? byteOrder(a.metadata?.name ?? '', b.metadata?.name ?? '') : byteOrder(a.metadata?.creationTimestamp ?? '', b.metadata?.creationTimestamp ?? '')));
    const newRS = owned.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
    newRSs = newRS ? [newRS] : [];
    oldRSs = owned.filter((rs) => rs !== newRS);
  } catch {
    // kubectl leaves both lists empty when they cannot be read.
  }
  return tabbedString((w) => {
    const st = d.status ?? {};
    w.write(LEVEL_0, `Name:\t${d.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${d.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(d.metadata.creationTimestamp)}\n`);
    printLabelsMultiline(w, 'Labels', d.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', d.metadata.annotations);
    w.write(LEVEL_0, `Selector:\t${selector}\n`);
    w.write(LEVEL_0, `Replicas:\t${d.spec?.replicas ?? 0} desired | ${st.updatedReplicas ?? 0} updated | ${st.replicas ?? 0} total | ${st.availableReplicas ?? 0} available | ${st.unavailableReplicas ?? 0} unavailable\n`);
    w.write(LEVEL_0, `StrategyType:\t${d.spec?.strategy?.type ?? ''}\n`);
    w.write(LEVEL_0, `MinReadySeconds:\t${d.spec?.minReadySeconds ?? 0}\n`);
    const ru = d.spec?.strategy?.rollingUpdate;
    if (ru) w.write(LEVEL_0, `RollingUpdateStrategy:\t${intOrString(ru.maxUnavailable)} max unavailable, ${intOrString(ru.maxSurge)} max surge\n`);
    describePodTemplate(d.spec?.template, w);
    conditionsTable(w, st.conditions);
    if (oldRSs.length || newRSs.length) {
      w.write(LEVEL_0, `OldReplicaSets:\t${replicaSetsByLabels(oldRSs)}\n`);
      w.write(LEVEL_0, `NewReplicaSet:\t${replicaSetsByLabels(newRSs)}\n`);
    }
    if (events) describeEvents(events, w, s.now);
  });
};

/** IntOrString.String() of an unset pointer field prints "<nil>"... but the API server always defaults these. */
function intOrString(v: string | number | undefined): string {
  return v === undefined ? '<nil>' : String(v);
}

function replicaSetsByLabels(rss: ReplicaSet[]): string {
  const list = rss.map((rs) => `${rs.metadata?.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 0} replicas created)`).join(', ');
  return list || '<none>';
}

// ------------------------------------------------------------------ ReplicaSet / ReplicationController

export const describeReplicaSet: Describer = (s, namespace, name) => {
  const rs = s.client.replicaSets.get(name, { namespace }) as ReplicaSet & KubeObject;
  let pods: ReturnType<typeof podStatusForController> | undefined;
  let podErr: string | undefined;
  try {
    pods = podStatusForController(s.client, namespace, selectorString(rs.spec?.selector), rs.metadata.uid);
  } catch (err) {
    podErr = err instanceof Error ? err.message : String(err);
  }
  const events = eventsFor(s, rs);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${rs.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${rs.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `Selector:\t${formatLabelSelectorOrNone(rs.spec?.selector)}\n`);
    printLabelsMultiline(w, 'Labels', rs.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', rs.metadata.annotations);
    const controlledBy = printController(rs.metadata);
    if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
    w.write(LEVEL_0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 0} desired\n`);
    w.write(LEVEL_0, 'Pods Status:\t');
    if (podErr !== undefined) w.write(LEVEL_0, `error in fetching pods: ${podErr}\n`);
    else w.write(LEVEL_0, `${podsStatusLine(pods!)}\n`);
    describePodTemplate(rs.spec?.template, w);
    conditionsTable(w, rs.status?.conditions);
    if (events) describeEvents(events, w, s.now);
  });
};

function formatLabelSelectorOrNone(selector: Parameters<typeof labelSelectorAsSelector>[0]): string {
  try {
    return selectorString(selector) || '<none>';
  } catch {
    return '<error>';
  }
}

export const describeReplicationController: Describer = (s, namespace, name) => {
  const rc = s.client.resource({ group: '', version: 'v1', resource: 'replicationcontrollers' }).get(name, { namespace }) as ReplicationController & KubeObject;
  const pods = podStatusForController(s.client, namespace, selectorToString(selectorFromSet(rc.spec?.selector ?? {})), rc.metadata.uid);
  const events = eventsFor(s, rc);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${rc.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${rc.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `Selector:\t${formatLabels(rc.spec?.selector)}\n`);
    printLabelsMultiline(w, 'Labels', rc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', rc.metadata.annotations);
    w.write(LEVEL_0, `Replicas:\t${rc.status?.replicas ?? 0} current / ${rc.spec?.replicas ?? 0} desired\n`);
    w.write(LEVEL_0, `Pods Status:\t${podsStatusLine(pods)}\n`);
    describePodTemplate(rc.spec?.template, w);
    conditionsTable(w, rc.status?.conditions);
    if (events) describeEvents(events, w, s.now);
  });
};

// ------------------------------------------------------------------ StatefulSet / DaemonSet

export const describeStatefulSet: Describer = (s, namespace, name) => {
  const ps = s.client.statefulSets.get(name, { namespace }) as StatefulSet & KubeObject;
  const selector = selectorString(ps.spec?.selector);
  const pods = podStatusForController(s.client, namespace, selector, ps.metadata.uid);
  const events = eventsFor(s, ps);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ps.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${ps.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(ps.metadata.creationTimestamp)}\n`);
    w.write(LEVEL_0, `Selector:\t${selector}\n`);
    printLabelsMultiline(w, 'Labels', ps.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ps.metadata.annotations);
    w.write(LEVEL_0, `Replicas:\t${ps.spec?.replicas ?? 0} desired | ${ps.status?.replicas ?? 0} total\n`);
    w.write(LEVEL_0, `Update Strategy:\t${ps.spec?.updateStrategy?.type ?? ''}\n`);
    const ru = ps.spec?.updateStrategy?.rollingUpdate;
    if (ru && ru.partition !== undefined) {
      w.write(LEVEL_1, `Partition:\t${ru.partition}\n`);
      if (ru.maxUnavailable !== undefined) w.write(LEVEL_1, `MaxUnavailable:\t${ru.maxUnavailable}\n`);
    }
    w.write(LEVEL_0, `Pods Status:\t${podsStatusLine(pods)}\n`);
    describePodTemplate(ps.spec?.template, w);
    const templates = ps.spec?.volumeClaimTemplates ?? [];
    if (templates.length === 0) w.write(LEVEL_0, 'Volume Claims:\t<none>\n');
    else {
      w.write(LEVEL_0, 'Volume Claims:\n');
      for (const pvc of templates) {
        w.write(LEVEL_1, `Name:\t${pvc.metadata?.name ?? ''}\n`);
        const cls = pvc.spec?.storageClassName ?? pvc.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
        w.write(LEVEL_1, `StorageClass:\t${cls}\n`);
        printLabelsMultiline(w, 'Labels', pvc.metadata?.labels, '  ');
        printLabelsMultiline(w, 'Annotations', pvc.metadata?.annotations, '  ');
        const capacity = pvc.spec?.resources?.requests?.storage;
        w.write(LEVEL_1, `Capacity:\t${capacity !== undefined ? String(capacity) : '<default>'}\n`);
        w.write(LEVEL_1, `Access Modes:\t[${(pvc.spec?.accessModes ?? []).join(' ')}]\n`);
      }
    }
    if (events) describeEvents(events, w, s.now);
  });
};

export const describeDaemonSet: Describer = (s, namespace, name) => {
  const ds = s.client.daemonSets.get(name, { namespace }) as DaemonSet & KubeObject;
  const selector = selectorString(ds.spec?.selector);
  const pods = podStatusForController(s.client, namespace, selector, ds.metadata.uid);
  const events = eventsFor(s, ds);
  return tabbedString((w) => {
    const st = ds.status;
    w.write(LEVEL_0, `Name:\t${ds.metadata.name}\n`);
    w.write(LEVEL_0, `Selector:\t${selector}\n`);
    w.write(LEVEL_0, `Node-Selector:\t${formatLabels(ds.spec?.template?.spec?.nodeSelector)}\n`);
    printLabelsMultiline(w, 'Labels', ds.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ds.metadata.annotations);
    w.write(LEVEL_0, `Desired Number of Nodes Scheduled: ${st?.desiredNumberScheduled ?? 0}\n`);
    w.write(LEVEL_0, `Current Number of Nodes Scheduled: ${st?.currentNumberScheduled ?? 0}\n`);
    w.write(LEVEL_0, `Number of Nodes Scheduled with Up-to-date Pods: ${st?.updatedNumberScheduled ?? 0}\n`);
    w.write(LEVEL_0, `Number of Nodes Scheduled with Available Pods: ${st?.numberAvailable ?? 0}\n`);
    w.write(LEVEL_0, `Number of Nodes Misscheduled: ${st?.numberMisscheduled ?? 0}\n`);
    w.write(LEVEL_0, `Pods Status:\t${podsStatusLine(pods)}\n`);
    describePodTemplate(ds.spec?.template, w);
    if (events) describeEvents(events, w, s.now);
  });
};

// ------------------------------------------------------------------ Job / CronJob

export const describeJob: Describer = (s, namespace, name) => {
  const job = s.client.jobs.get(name, { namespace }) as Job & KubeObject;
  const events = eventsFor(s, job);
  return tabbedString((w) => {
    const spec = job.spec;
    const st = job.status ?? {};
    w.write(LEVEL_0, `Name:\t${job.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${job.metadata.namespace ?? ''}\n`);
    try {
      w.write(LEVEL_0, `Selector:\t${selectorString(spec?.selector)}\n`);
    } catch (err) {
      w.write(LEVEL_0, `Selector:\tFailed to get selector: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    printLabelsMultiline(w, 'Labels', job.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', job.metadata.annotations);
    const controlledBy = printController(job.metadata);
    if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
    if (spec?.parallelism !== undefined) w.write(LEVEL_0, `Parallelism:\t${spec.parallelism}\n`);
    w.write(LEVEL_0, spec?.completions !== undefined ? `Completions:\t${spec.completions}\n` : 'Completions:\t<unset>\n');
    if (spec?.completionMode !== undefined) w.write(LEVEL_0, `Completion Mode:\t${spec.completionMode}\n`);
    if (spec?.suspend !== undefined) w.write(LEVEL_0, `Suspend:\t${spec.suspend}\n`);
    if (spec?.backoffLimit !== undefined) w.write(LEVEL_0, `Backoff Limit:\t${spec.backoffLimit}\n`);
    if (spec?.ttlSecondsAfterFinished !== undefined) w.write(LEVEL_0, `TTL Seconds After Finished:\t${spec.ttlSecondsAfterFinished}\n`);
    if (st.startTime) w.write(LEVEL_0, `Start Time:\t${rfc1123z(st.startTime)}\n`);
    if (st.completionTime) w.write(LEVEL_0, `Completed At:\t${rfc1123z(st.completionTime)}\n`);
    if (st.startTime && st.completionTime) w.write(LEVEL_0, `Duration:\t${humanDuration(Date.parse(st.completionTime) - Date.parse(st.startTime))}\n`);
    if (spec?.activeDeadlineSeconds !== undefined) w.write(LEVEL_0, `Active Deadline Seconds:\t${spec.activeDeadlineSeconds}s\n`);
    if (st.ready === undefined) w.write(LEVEL_0, `Pods Statuses:\t${st.active ?? 0} Active / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
    else w.write(LEVEL_0, `Pods Statuses:\t${st.active ?? 0} Active (${st.ready} Ready) / ${st.succeeded ?? 0} Succeeded / ${st.failed ?? 0} Failed\n`);
    if (spec?.completionMode === 'Indexed') w.write(LEVEL_0, `Completed Indexes:\t${capIndexes(st.completedIndexes ?? '', 50)}\n`);
    describePodTemplate(spec?.template, w);
    if (events) describeEvents(events, w, s.now);
  });
};

function capIndexes(indexes: string, softLimit: number): string {
  if (!indexes) return '<none>';
  let ix = softLimit;
  while (ix < indexes.length && indexes[ix] !== ',') ix++;
  return ix >= indexes.length ? indexes : `${indexes.slice(0, ix + 1)}...`;
}

export const describeCronJob: Describer = (s, namespace, name) => {
  const cj = s.client.cronJobs.get(name, { namespace }) as CronJob & KubeObject;
  const events = eventsFor(s, cj);
  return tabbedString((w) => {
    const spec = cj.spec;
    w.write(LEVEL_0, `Name:\t${cj.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${cj.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', cj.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', cj.metadata.annotations);
    w.write(LEVEL_0, `Schedule:\t${spec?.schedule ?? ''}\n`);
    w.write(LEVEL_0, `Concurrency Policy:\t${spec?.concurrencyPolicy ?? ''}\n`);
    w.write(LEVEL_0, `Suspend:\t${printBoolPtr(spec?.suspend)}\n`);
    w.write(LEVEL_0, `Successful Job History Limit:\t${spec?.successfulJobsHistoryLimit ?? '<unset>'}\n`);
    w.write(LEVEL_0, `Failed Job History Limit:\t${spec?.failedJobsHistoryLimit ?? '<unset>'}\n`);
    w.write(LEVEL_0, spec?.startingDeadlineSeconds !== undefined ? `Starting Deadline Seconds:\t${spec.startingDeadlineSeconds}s\n` : 'Starting Deadline Seconds:\t<unset>\n');
    const jt = spec?.jobTemplate?.spec;
    if (jt?.selector) {
      try {
        w.write(LEVEL_0, `Selector:\t${selectorString(jt.selector)}\n`);
      } catch (err) {
        w.write(LEVEL_0, `Selector:\tFailed to get selector: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    } else w.write(LEVEL_0, 'Selector:\t<unset>\n');
    w.write(LEVEL_0, `Parallelism:\t${jt?.parallelism ?? '<unset>'}\n`);
    w.write(LEVEL_0, `Completions:\t${jt?.completions ?? '<unset>'}\n`);
    if (jt?.activeDeadlineSeconds !== undefined) w.write(LEVEL_0, `Active Deadline Seconds:\t${jt.activeDeadlineSeconds}s\n`);
    describePodTemplate(jt?.template, w);
    w.write(LEVEL_0, cj.status?.lastScheduleTime ? `Last Schedule Time:\t${rfc1123z(cj.status.lastScheduleTime)}\n` : 'Last Schedule Time:\t<unset>\n');
    w.write(LEVEL_0, 'Active Jobs:\t');
    const active = cj.status?.active ?? [];
    if (active.length === 0) w.writeLine('<none>');
    else {
      w.write(LEVEL_0, active.map((j) => j.name).join(', '));
      w.writeLine('');
    }
    if (events) describeEvents(events, w, s.now);
  });
};

