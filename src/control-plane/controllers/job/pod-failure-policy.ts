// pkg/controller/job/pod_failure_policy.go: a failed pod is matched against spec.podFailurePolicy.rules in order;
// the first rule that matches decides:
//   FailJob   → the whole Job fails (reason PodFailurePolicy) with a message naming the pod and the rule
//   Ignore    → the failure does not count towards backoffLimit (a disrupted pod, say)
//   Count     → counted as usual
//   FailIndex → (with backoffLimitPerIndex) the pod's index fails at once
// No rule matches → counted as usual.
import type { PodFailurePolicy, PodFailurePolicyOnExitCodesRequirement, PodFailurePolicyOnPodConditionsPattern } from 'kubernetes-types/batch/v1';
import type { ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1';

export const PodFailurePolicyAction = {
  FailJob: 'FailJob',
  FailIndex: 'FailIndex',
  Ignore: 'Ignore',
  Count: 'Count',
} as const;
export type PodFailurePolicyAction = (typeof PodFailurePolicyAction)[keyof typeof PodFailurePolicyAction];

export interface PodFailurePolicyMatch {
  /** Present when a FailJob rule matched: the Job's failure message. */
  jobFailureMessage?: string;
  /** Whether the failure counts towards backoffLimit (and backoffLimitPerIndex). */
  countFailed: boolean;
  action?: PodFailurePolicyAction;
}

/** matchPodFailurePolicy. */
export function matchPodFailurePolicy(policy: PodFailurePolicy | undefined, failedPod: Pod): PodFailurePolicyMatch {
  if (!policy) return { countFailed: true };
  const ns = failedPod.metadata?.namespace ?? '';
  const name = failedPod.metadata?.name ?? '';
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.onExitCodes) {
      const cs = matchOnExitCodes(failedPod, rule.onExitCodes);
      if (!cs) continue;
      switch (rule.action) {
        case PodFailurePolicyAction.Ignore:
          return { countFailed: false, action: PodFailurePolicyAction.Ignore };
        case PodFailurePolicyAction.FailIndex:
          return { countFailed: true, action: PodFailurePolicyAction.FailIndex };
        case PodFailurePolicyAction.Count:
          return { countFailed: true, action: PodFailurePolicyAction.Count };
        case PodFailurePolicyAction.FailJob:
          return {
            jobFailureMessage: `Container ${cs.name} for pod ${ns}/${name} failed with exit code ${cs.state?.terminated?.exitCode} matching ${rule.action} rule at index ${index}`,
            countFailed: true,
            action: PodFailurePolicyAction.FailJob,
          };
      }
    } else if (rule.onPodConditions) {
      const cond = matchOnPodConditions(failedPod, rule.onPodConditions);
      if (!cond) continue;
      switch (rule.action) {
        case PodFailurePolicyAction.Ignore:
          return { countFailed: false, action: PodFailurePolicyAction.Ignore };
        case PodFailurePolicyAction.FailIndex:
          return { countFailed: true, action: PodFailurePolicyAction.FailIndex };
        case PodFailurePolicyAction.Count:
          return { countFailed: true, action: PodFailurePolicyAction.Count };
        case PodFailurePolicyAction.FailJob:
          return {
            jobFailureMessage: `Pod ${ns}/${name} has condition ${cond.type} matching ${rule.action} rule at index ${index}`,
            countFailed: true,
            action: PodFailurePolicyAction.FailJob,
          };
      }
    }
  }
  return { countFailed: true };
}

/** matchOnExitCodes: a terminated container (regular first, then init) whose non-zero exit code matches. */
function matchOnExitCodes(pod: Pod, requirement: PodFailurePolicyOnExitCodesRequirement): ContainerStatus | undefined {
  return matchingContainer(pod.status?.containerStatuses, requirement) ?? matchingContainer(pod.status?.initContainerStatuses, requirement);
}

function matchingContainer(statuses: ContainerStatus[] | undefined, requirement: PodFailurePolicyOnExitCodesRequirement): ContainerStatus | undefined {
  for (const cs of statuses ?? []) {
    const terminated = cs.state?.terminated;
    // A container still terminating has no exit code to match.
    if (!terminated) continue;
    if (requirement.containerName && requirement.containerName !== cs.name) continue;
    if (terminated.exitCode !== 0 && exitCodeMatches(terminated.exitCode, requirement)) return cs;
  }
  return undefined;
}

function exitCodeMatches(exitCode: number, requirement: PodFailurePolicyOnExitCodesRequirement): boolean {
  switch (requirement.operator) {
    case 'In':
      return requirement.values.includes(exitCode);
    case 'NotIn':
      return !requirement.values.includes(exitCode);
    default:
      return false;
  }
}

function matchOnPodConditions(pod: Pod, patterns: PodFailurePolicyOnPodConditionsPattern[]): PodCondition | undefined {
  for (const c of pod.status?.conditions ?? []) {
    for (const p of patterns) if (c.type === p.type && c.status === (p.status ?? 'True')) return c;
  }
  return undefined;
}
