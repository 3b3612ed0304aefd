// polymorphichelpers.HistoryViewer (k8s.io/kubectl v0.32.4 pkg/polymorphichelpers/history.go): a Deployment's
// history is its ReplicaSets (revision annotation → pod template, change-cause annotation), a DaemonSet's or
// StatefulSet's its ControllerRevisions (each holds the patch that restores the template). viewHistory renders
// the REVISION / CHANGE-CAUSE table, or the pod template of one revision as describe prints it.
//
//   historyViewerFor(env.client, rt).viewHistory('default', 'nginx', 0)
//   // "REVISION  CHANGE-CAUSE\n1         <none>\n2         kubectl set image …\n"
import type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import type { ResourceType } from '../../shared/api/resources';
import type { KubeObject } from '../../shared/api/types';
import { formatLabelSelector } from '../../shared/lib/labels';
import type { Client } from '../../control-plane/client/client';
import { applyStrategicMergePatch } from '../../control-plane/apiserver/patch/strategic-merge-patch';
import { builtinSchemaHints } from '../../control-plane/apiserver/patch/list-types';
import { describePodTemplate } from '../describe/containers';
import { escapeTerminal, type PrefixWriter } from '../describe/writer';
import { tabbed } from '../describe/tabwriter';
import { messageOf } from './check-err';
import { deploymentRevision } from './status-viewer';

export const changeCauseAnnotation = 'kubernetes.io/change-cause';

export interface HistoryViewer {
  /** The table (revision 0) or one revision's pod template; throws kubectl's errors. */
  viewHistory(namespace: string, name: string, revision: number): string;
  /** revision → the object of that revision (ReplicaSet, or the DaemonSet/StatefulSet with it applied), for -o. */
  getHistory(namespace: string, name: string): Map<number, KubeObject>;
}

export function historyViewerFor(client: Client, rt: Pick<ResourceType, 'group' | 'kind'>): HistoryViewer {
  const gk = rt.group ? `${rt.kind}.${rt.group}` : rt.kind;
  if (rt.group === 'apps' || rt.group === 'extensions') {
    if (rt.kind === 'Deployment') return deploymentHistoryViewer(client);
    if (rt.kind === 'DaemonSet') return controllerRevisionHistoryViewer(client, 'DaemonSet');
    if (rt.kind === 'StatefulSet') return controllerRevisionHistoryViewer(client, 'StatefulSet');
  }
  // kubectl's GroupKindElement visitor knows these kinds but has no history viewer for them.
  if (visitableKind(rt)) throw new Error(`no history viewer has been implemented for ${JSON.stringify(gk)}`);
  throw new Error(`error retrieving history for ${JSON.stringify(gk)}, ${noVisitorMessage(rt)}`);
}

/** Whether pkg/apps GroupKindElement.Accept visits the kind. */
export function visitableKind(rt: Pick<ResourceType, 'group' | 'kind'>): boolean {
  const appsLike = rt.group === 'apps' || rt.group === 'extensions';
  const core = rt.group === '' || rt.group === 'core';
  switch (rt.kind) {
    case 'DaemonSet':
    case 'Deployment':
    case 'ReplicaSet':
      return appsLike;
    case 'StatefulSet':
      return rt.group === 'apps';
    case 'Job':
    case 'CronJob':
      return rt.group === 'batch';
    case 'Pod':
    case 'ReplicationController':
      return core;
    default:
      return false;
  }
}

/** Accept's error: GroupKindElement has no String method, so %v prints the struct. */
export function noVisitorMessage(rt: Pick<ResourceType, 'group' | 'kind'>): string {
  return `no visitor method exists for {${rt.group} ${rt.kind}}`;
}

/** getDeploymentReplicaSets: the ReplicaSets the deployment controls (deploymentutil.GetAllReplicaSets). */
export function deploymentReplicaSets(client: Client, namespace: string, name: string): { deployment: Deployment & KubeObject; replicaSets: (ReplicaSet & KubeObject)[] } {
  let deployment: Deployment & KubeObject;
  try {
    deployment = client.deployments.get(name, { namespace });
  } catch (err) {
    throw new Error(`failed to retrieve deployment ${name}: ${messageOf(err)}`);
  }
  let replicaSets: (ReplicaSet & KubeObject)[];
  try {
    const list = client.replicaSets.list({ namespace, labelSelector: formatLabelSelector(deployment.spec?.selector) || undefined });
    replicaSets = list.items.filter((rs) => controlledBy(rs, deployment));
  } catch (err) {
    throw new Error(`failed to retrieve replica sets from deployment ${name}: ${messageOf(err)}`);
  }
  return { deployment, replicaSets };
}

function deploymentHistoryViewer(client: Client): HistoryViewer {
  return {
    viewHistory(namespace, name, revision) {
      const { replicaSets } = deploymentReplicaSets(client, namespace, name);
      const historyInfo = new Map<number, PodTemplateSpec>();
      for (const rs of replicaSets) {
        let v: number;
        try {
          v = deploymentRevision(rs);
        } catch {
          continue; // kubectl logs a warning (klog, not shown) and skips it
        }
        const template = structuredClone(rs.spec?.template ?? {});
        template.metadata = { ...template.metadata, annotations: { ...(template.metadata?.annotations ?? {}) } };
        const cause = rs.metadata?.annotations?.[changeCauseAnnotation];
        if (cause) template.metadata.annotations![changeCauseAnnotation] = cause;
        historyInfo.set(v, template);
      }
      if (historyInfo.size === 0) return 'No rollout history found.';
      if (revision > 0) {
        const template = historyInfo.get(revision);
        if (!template) throw new Error('unable to find the specified revision');
        return printTemplate(template);
      }
      return historyTable([...historyInfo].map(([r, t]) => [r, t.metadata?.annotations?.[changeCauseAnnotation]]));
    },
    getHistory(namespace, name) {
      const { replicaSets } = deploymentReplicaSets(client, namespace, name);
      const result = new Map<number, KubeObject>();
      for (const rs of replicaSets) {
        try {
          result.set(deploymentRevision(rs), withKind(rs, 'apps/v1', 'ReplicaSet'));
        } catch {
          continue;
        }
      }
      return result;
    },
  };
}

type ControllerKind = 'DaemonSet' | 'StatefulSet';

function controllerRevisionHistoryViewer(client: Client, kind: ControllerKind): HistoryViewer {
  return {
    viewHistory(namespace, name, revision) {
      const { owner, history } = controllerHistory(client, kind, namespace, name);
      return printHistory(history, revision, (h) => applyHistory(owner, h, kind).spec?.template ?? {});
    },
    getHistory(namespace, name) {
      const { owner, history } = controllerHistory(client, kind, namespace, name);
      const result = new Map<number, KubeObject>();
      for (const h of history) result.set(h.revision ?? 0, applyHistory(owner, h, kind));
      return result;
    },
  };
}

/** daemonSetHistory / statefulSetHistory: the object and the ControllerRevisions it controls. */
export function controllerHistory(
  client: Client,
  kind: ControllerKind,
  namespace: string,
  name: string,
): { owner: (DaemonSet | StatefulSet) & KubeObject; history: (ControllerRevision & KubeObject)[] } {
  let owner: (DaemonSet | StatefulSet) & KubeObject;
  try {
    owner = kind === 'DaemonSet' ? client.daemonSets.get(name, { namespace }) : client.statefulSets.get(name, { namespace });
  } catch (err) {
    throw new Error(kind === 'DaemonSet' ? `failed to retrieve DaemonSet ${name}: ${messageOf(err)}` : `failed to retrieve Statefulset ${name}: ${messageOf(err)}`);
  }
  try {
    const list = client.controllerRevisions.list({ namespace, labelSelector: formatLabelSelector(owner.spec?.selector) || undefined });
    return { owner, history: list.items.filter((h) => controlledBy(h, owner)) };
  } catch (err) {
    throw new Error(`unable to find history controlled by ${kind} ${name}: ${messageOf(err)}`);
  }
}

/** applyDaemonSetHistory / applyRevision: the object with the revision's patch applied. */
export function applyHistory<T extends DaemonSet | StatefulSet>(owner: T & KubeObject, history: ControllerRevision, kind: ControllerKind): T & KubeObject {
  return applyStrategicMergePatch(owner, history.data ?? {}, builtinSchemaHints(kind)) as T & KubeObject;
}

function printHistory(history: ControllerRevision[], revision: number, podTemplate: (h: ControllerRevision) => PodTemplateSpec): string {
  const historyInfo = new Map<number, ControllerRevision>();
  for (const h of history) historyInfo.set(h.revision ?? 0, h);
  if (historyInfo.size === 0) return 'No rollout history found.';
  if (revision > 0) {
    const h = historyInfo.get(revision);
    if (!h) throw new Error('unable to find the specified revision');
    let template: PodTemplateSpec;
    try {
      template = podTemplate(h);
    } catch {
      throw new Error(`unable to parse history ${h.metadata?.name ?? ''}`);
    }
    return printTemplate(template);
  }
  return historyTable([...historyInfo].map(([r, h]) => [r, h.metadata?.annotations?.[changeCauseAnnotation]]));
}

/** The REVISION / CHANGE-CAUSE table, sorted by revision (tabwriter 0, 8, 2). */
function historyTable(rows: [number, string | undefined][]): string {
  const sorted = [...rows].sort((a, b) => a[0] - b[0]);
  let text = 'REVISION\tCHANGE-CAUSE\n';
  for (const [r, cause] of sorted) text += `${r}\t${cause || '<none>'}\n`;
  return tabbed(text);
}

/**
 * printTemplate: describe.DescribePodTemplate through a plain PrefixWriter — no tabwriter, so the tabs stay in
 * the text as kubectl prints them.
 */
export function printTemplate(template: PodTemplateSpec): string {
  let buffer = '';
  const w: PrefixWriter = {
    write: (level, text) => {
      buffer += escapeTerminal('  '.repeat(level) + text);
    },
    writeLine: (...operands) => {
      buffer += escapeTerminal(`${operands.join(' ')}\n`);
    },
  };
  describePodTemplate(template, w);
  return buffer;
}

function controlledBy(obj: { metadata?: { ownerReferences?: { uid: string; controller?: boolean }[] } }, owner: KubeObject): boolean {
  return (obj.metadata?.ownerReferences ?? []).some((r) => r.controller && r.uid === owner.metadata.uid);
}

function withKind<T extends object>(obj: T, apiVersion: string, kind: string): T & KubeObject {
  return { ...obj, apiVersion, kind } as T & KubeObject;
}
