import type { PodFailurePolicy } from 'kubernetes-types/batch/v1';
import type { Pod } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import { matchPodFailurePolicy } from './pod-failure-policy';

const policy: PodFailurePolicy = {
  rules: [
    { action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
    { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    { action: 'Count', onExitCodes: { operator: 'NotIn', values: [1, 2] } },
  ],
};

function failedPod(exitCode: number, container = 'main', conditions: { type: string; status: string }[] = []): Pod {
  return {
    metadata: { namespace: 'default', name: 'job-abcde' },
    status: {
      phase: 'Failed',
      conditions,
      containerStatuses: [{ name: container, image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode } } }],
    },
  };
}

describe('matchPodFailurePolicy', () => {
  it('fails the Job on a FailJob exit code, with the real message', () => {
    expect(matchPodFailurePolicy(policy, failedPod(42))).toEqual({
      jobFailureMessage: 'Container main for pod default/job-abcde failed with exit code 42 matching FailJob rule at index 0',
      countFailed: true,
      action: 'FailJob',
    });
  });

  it('only matches the named container', () => {
    expect(matchPodFailurePolicy(policy, failedPod(42, 'sidecar')).action).toBe('Count');
  });

  it('ignores disrupted pods', () => {
    expect(matchPodFailurePolicy(policy, failedPod(1, 'main', [{ type: 'DisruptionTarget', status: 'True' }]))).toEqual({ countFailed: false, action: 'Ignore' });
  });

  it('counts when a Count rule or no rule matches', () => {
    expect(matchPodFailurePolicy(policy, failedPod(3))).toEqual({ countFailed: true, action: 'Count' });
    expect(matchPodFailurePolicy(policy, failedPod(1))).toEqual({ countFailed: true });
    expect(matchPodFailurePolicy(undefined, failedPod(42))).toEqual({ countFailed: true });
  });

  it('fails the Job on a FailJob pod condition', () => {
    const p: PodFailurePolicy = { rules: [{ action: 'FailJob', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] };
    expect(matchPodFailurePolicy(p, failedPod(137, 'main', [{ type: 'DisruptionTarget', status: 'True' }])).jobFailureMessage).toBe(
      'Pod default/job-abcde has condition DisruptionTarget matching FailJob rule at index 0',
    );
  });
});
