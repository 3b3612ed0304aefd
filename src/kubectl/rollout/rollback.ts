// polymorphichelpers.Rollbacker (k8s.io/kubectl v0.32.4 pkg/polymorphichelpers/rollback.go), what
// `kubectl rollout undo` does client-side:
//
//   - Deployment: find the ReplicaSet of the wanted revision (0: the one before the latest), and JSON-patch the
//     deployment's spec.template with its template (pod-template-hash label removed) and metadata.annotations
//     with its annotations (kubectl's own annotations kept from the deployment);
//   - DaemonSet / StatefulSet: find the ControllerRevision and send its data — a strategic merge patch that
//     replaces spec.template — as the patch.
//
// Returns the operation the name printer shows ("rolled back", "skipped rollback (…)", or with --dry-run=client
// the template that would be restored); throws kubectl's errors.
import type { ControllerRevision, DaemonSet, StatefulSet } from 'kubernetes-types/apps/v1';
import type { ResourceType } from '../../shared/api/resources';
import { PatchType } from '../../shared/api/request';
import type { KubeObject } from '../../shared/api/types';
import type { Client } from '../../control-plane/client/client';
import { canonicalJson } from '../../control-plane/controllers/shared/controller-utils';
import { equalIgnoreHash, skipCopyAnnotation } from '../../control-plane/controllers/deployment/deployment-util';
import { messageOf } from './check-err';
import { DryRun } from './flags';
import { applyHistory, controllerHistory, deploymentReplicaSets, noVisitorMessage, printTemplate, visitableKind } from './history';
import { deploymentRevision } from './status-viewer';

export const rollbackSuccess = 'rolled back';
const rollbackSkipped = 'skipped rollback';
const podTemplateHashLabel = 'pod-template-hash';

export type Rollbacker = (obj: KubeObject, toRevision: number, dryRun: DryRun) => string;

export function rollbackerFor(client: Client, rt: Pick<ResourceType, 'group' | 'kind'>): Rollbacker {
  const gk = rt.group ? `${rt.kind}.${rt.group}` : rt.kind;
  if (rt.group === 'apps' || rt.group === 'extensions') {
    if (rt.kind === 'Deployment') return (obj, to, dryRun) => rollbackDeployment(client, obj, to, dryRun);
    if (rt.kind === 'DaemonSet') return (obj, to, dryRun) => rollbackControllerRevision(client, 'DaemonSet', obj, to, dryRun);
    if (rt.kind === 'StatefulSet') return (obj, to, dryRun) => rollbackControllerRevision(client, 'StatefulSet', obj, to, dryRun);
  }
  if (visitableKind(rt)) throw new Error(`no rollbacker has been implemented for ${JSON.stringify(gk)}`);
  throw new Error(`error retrieving rollbacker for ${JSON.stringify(gk)}, ${noVisitorMessage(rt)}`);
}

export function revisionNotFoundErr(r: number): Error {
  return new Error(`unable to find specified revision ${r} in history`);
}

function rollbackDeployment(client: Client, obj: KubeObject, toRevision: number, dryRun: DryRun): string {
  if (toRevision < 0) throw revisionNotFoundErr(toRevision);
  const name = obj.metadata.name ?? '';
  const namespace = obj.metadata.namespace ?? '';
  let found: ReturnType<typeof deploymentReplicaSets>;
  try {
    found = deploymentReplicaSets(client, namespace, name);
  } catch (err) {
    // The same texts kubectl wraps its two lookups in.
    throw new Error(messageOf(err).replace(/^failed to retrieve deployment /, 'failed to retrieve Deployment '));
  }
  const { deployment, replicaSets } = found;

  // deploymentRevision: the wanted revision's ReplicaSet, or for 0 the second newest.
  let rsForRevision: (typeof replicaSets)[number] | undefined;
  let latest = -1;
  let latestRS: typeof rsForRevision;
  let previous = -1;
  for (const rs of replicaSets) {
    let v: number;
    try {
      v = deploymentRevision(rs);
    } catch {
      continue;
    }
    if (toRevision === 0) {
      if (latest < v) {
        previous = latest;
        rsForRevision = latestRS;
        latest = v;
        latestRS = rs;
      } else if (previous < v) {
        previous = v;
        rsForRevision = rs;
      }
    } else if (toRevision === v) {
      rsForRevision = rs;
      break;
    }
  }
  if (toRevision > 0 && !rsForRevision) throw revisionNotFoundErr(toRevision);
  if (!rsForRevision) throw new Error(`no rollout history found for deployment ${JSON.stringify(deployment.metadata.name)}`);

  const template = structuredClone(rsForRevision.spec?.template ?? {});
  if (dryRun === DryRun.Client) return printTemplate(template);
  if (deployment.spec?.paused) throw new Error("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again");
  if (equalIgnoreHash(template, deployment.spec?.template)) return `${rollbackSkipped} (current template already matches revision ${toRevision})`;

  if (template.metadata?.labels) delete template.metadata.labels[podTemplateHashLabel];
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(deployment.metadata.annotations ?? {})) if (skipCopyAnnotation(k)) annotations[k] = v;
  for (const [k, v] of Object.entries(rsForRevision.metadata?.annotations ?? {})) if (!skipCopyAnnotation(k)) annotations[k] = v;
  const patch = [
    { op: 'replace', path: '/spec/template', value: template },
    { op: 'replace', path: '/metadata/annotations', value: annotations },
  ];
  try {
    client.deployments.patch(name, PatchType.JSONPatch, patch, { namespace, dryRun: dryRun === DryRun.Server });
  } catch (err) {
    throw new Error(`failed restoring revision ${toRevision}: ${messageOf(err)}`);
  }
  return rollbackSuccess;
}

function rollbackControllerRevision(client: Client, kind: 'DaemonSet' | 'StatefulSet', obj: KubeObject, toRevision: number, dryRun: DryRun): string {
  if (toRevision < 0) throw revisionNotFoundErr(toRevision);
  const name = obj.metadata.name ?? '';
  const namespace = obj.metadata.namespace ?? '';
  const { owner, history } = controllerHistory(client, kind, namespace, name);
  if (toRevision === 0 && history.length <= 1) throw new Error('no last revision to roll back to');
  const toHistory = findHistory(toRevision, history);
  if (!toHistory) throw revisionNotFoundErr(toRevision);

  if (dryRun === DryRun.Client) {
    const applied = applyHistory(owner as (DaemonSet | StatefulSet) & KubeObject, toHistory, kind);
    return `will roll back to ${printTemplate(applied.spec?.template ?? {})}`;
  }
  // Skip when the current template already is that revision (kubectl compares the patch bytes).
  const template = { ...structuredClone(owner.spec?.template ?? {}), $patch: 'replace' };
  if (canonicalJson({ spec: { template } }) === canonicalJson(toHistory.data ?? null)) {
    return `${rollbackSkipped} (current template already matches revision ${toRevision})`;
  }
  const rc = kind === 'DaemonSet' ? client.daemonSets : client.statefulSets;
  try {
    rc.patch(name, PatchType.StrategicMergePatch, toHistory.data ?? {}, { namespace, dryRun: dryRun === DryRun.Server });
  } catch (err) {
    throw new Error(`failed restoring revision ${toRevision}: ${messageOf(err)}`);
  }
  return rollbackSuccess;
}

/** findHistory: the revision asked for, or for 0 the second newest. */
function findHistory(toRevision: number, all: ControllerRevision[]): ControllerRevision | undefined {
  if (toRevision === 0) {
    if (all.length <= 1) return undefined;
    const sorted = [...all].sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
    return sorted[sorted.length - 2];
  }
  return all.find((h) => h.revision === toRevision);
}
