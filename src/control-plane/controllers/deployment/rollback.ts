// `kubectl rollout undo` as kubectl v1.32 does it, client-side (polymorphichelpers/rollback.go's
// DeploymentRollbacker): find the ReplicaSet of the target revision (default: the one before the current),
// and patch the Deployment's template (minus pod-template-hash) and annotations back to it. The controller then
// sees a template equal to an old RS's, makes that RS the new one again and gives it the next revision.
// (The controller-side rollback through spec.rollbackTo died with extensions/v1beta1.)
import type { Deployment, ReplicaSet } from 'kubernetes-types/apps/v1';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1';
import { isControlledBy } from '../shared/controller-utils';
import { DefaultDeploymentUniqueLabelKey, equalIgnoreHash, revision, skipCopyAnnotation } from './deployment-util';
import { labelSelectorMatches } from '../../../shared/lib/labels';

export const RollbackSuccess = 'rolled back';
export const RollbackSkipped = 'skipped rollback';

export interface RollbackResult {
  /** What kubectl prints after "deployment.apps/<name> ": "rolled back", or "skipped rollback (current template already matches revision 2)". */
  message: string;
  skipped: boolean;
  /** The revision of the ReplicaSet rolled back to. */
  revision: number;
  /** The template to restore (pod-template-hash removed). */
  template?: PodTemplateSpec;
  /** The Deployment's annotations after the rollback. */
  annotations?: Record<string, string>;
  /** The application/json-patch+json body kubectl sends. */
  patch?: { op: 'replace'; path: string; value: unknown }[];
}

/**
 * rollbackTemplate: what `kubectl rollout undo deployment/<name> [--to-revision=N]` patches. replicaSets may be
 * every ReplicaSet of the namespace: those the Deployment controls (by selector and controller reference) count.
 * Throws kubectl's errors: a paused deployment, an unknown revision, no history.
 */
export function rollbackTemplate(deployment: Deployment, replicaSets: readonly ReplicaSet[], toRevision = 0): RollbackResult {
  if (toRevision < 0) throw new Error(revisionNotFound(toRevision));
  if (deployment.spec?.paused) {
    throw new Error("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again");
  }
  const owned = replicaSets.filter(
    (rs) =>
      rs.metadata?.namespace === deployment.metadata?.namespace &&
      labelSelectorMatches(deployment.spec?.selector, rs.metadata?.labels) &&
      isControlledBy(rs as never, deployment as never),
  );
  const target = deploymentRevision(deployment, owned, toRevision);
  const targetRevision = revision(target) ?? 0;
  // Skip if the revision already matches the current Deployment.
  if (equalIgnoreHash(target.spec?.template, deployment.spec?.template)) {
    return { message: `${RollbackSkipped} (current template already matches revision ${toRevision})`, skipped: true, revision: targetRevision };
  }
  // Remove the hash label before patching it back into the deployment.
  const template = structuredClone(target.spec?.template ?? {});
  if (template.metadata?.labels) delete template.metadata.labels[DefaultDeploymentUniqueLabelKey];
  // The deployment keeps its own skipped annotations (revision, last-applied…) and takes the RS's others
  // (change-cause, …).
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(deployment.metadata?.annotations ?? {})) if (skipCopyAnnotation(k)) annotations[k] = v;
  for (const [k, v] of Object.entries(target.metadata?.annotations ?? {})) if (!skipCopyAnnotation(k)) annotations[k] = v;
  return {
    message: RollbackSuccess,
    skipped: false,
    revision: targetRevision,
    template,
    annotations,
    patch: [
      { op: 'replace', path: '/spec/template', value: template },
      { op: 'replace', path: '/metadata/annotations', value: annotations },
    ],
  };
}

function revisionNotFound(r: number): string {
  return `unable to find specified revision ${r} in history`;
}

/** deploymentRevision: the RS of revision toRevision, or (0) the one with the second highest revision. */
function deploymentRevision(deployment: Deployment, allRSs: readonly ReplicaSet[], toRevision: number): ReplicaSet {
  let latest: ReplicaSet | undefined;
  let latestRevision = -1;
  let previous: ReplicaSet | undefined;
  let previousRevision = -1;
  for (const rs of allRSs) {
    const v = revision(rs);
    if (v === undefined) continue;
    if (toRevision === 0) {
      if (latestRevision < v) {
        // The newest one seen so far.
        previousRevision = latestRevision;
        previous = latest;
        latestRevision = v;
        latest = rs;
      } else if (previousRevision < v) {
        // The second newest one seen so far.
        previousRevision = v;
        previous = rs;
      }
    } else if (toRevision === v) {
      return rs;
    }
  }
  if (toRevision > 0) throw new Error(revisionNotFound(toRevision));
  if (!previous) throw new Error(`no rollout history found for deployment ${JSON.stringify(deployment.metadata?.name)}`);
  return previous;
}
