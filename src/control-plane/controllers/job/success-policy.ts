// pkg/controller/job/success_policy.go (JobSuccessPolicy, beta in v1.32): an Indexed Job may declare success
// before every index succeeded — when the listed indexes succeeded, or succeededCount of them did.
//   rules: [{succeededIndexes: "0", succeededCount: 1}] → the Job succeeds as soon as index 0 does:
//   SuccessCriteriaMet, reason SuccessPolicy, "Matched rules at index 0".
import type { SuccessPolicy } from 'kubernetes-types/batch/v1';
import { type OrderedIntervals, parseIndexesFromString } from './indexed-job-utils';

export function matchSuccessPolicy(policy: SuccessPolicy | undefined, completions: number, succeeded: OrderedIntervals): string | undefined {
  if (!policy || succeeded.length === 0) return undefined;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.succeededIndexes !== undefined && rule.succeededIndexes !== null) {
      const required = parseIndexesFromString(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      if (matchSucceededIndexesRule(required, succeeded, rule.succeededCount)) return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && rule.succeededCount !== null && succeeded.total() >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}

function matchSucceededIndexesRule(ruleIndexes: OrderedIntervals, succeeded: OrderedIntervals, succeededCount: number | undefined): boolean {
  let contains = 0;
  for (const r of ruleIndexes.intervals) {
    for (const s of succeeded.intervals) {
      const overlap = Math.min(r.last, s.last) - Math.max(r.first, s.first) + 1;
      if (overlap > 0) contains += overlap;
    }
  }
  return contains === ruleIndexes.total() || (succeededCount !== undefined && succeededCount !== null && contains >= succeededCount);
}
