// pluginhelper.DefaultNormalizeScore: scales scores so the highest becomes maxPriority (integer arithmetic);
// reverse flips them so the lowest raw score wins. All-zero scores stay 0 (or become maxPriority when reversed).
import type { NodeScore } from '../../framework/interface';

export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
  let maxCount = 0;
  for (const s of scores) if (s.score > maxCount) maxCount = s.score;
  if (maxCount === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return;
  }
  for (const s of scores) {
    let score = Math.trunc((maxPriority * s.score) / maxCount);
    if (reverse) score = maxPriority - score;
    s.score = score;
  }
}

/** defaultNormalizeScore over a column of scores, in place. */
export function defaultNormalizeScoreColumn(maxPriority: number, reverse: boolean, scores: Float64Array): void {
  let maxCount = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i] > maxCount) maxCount = scores[i];
  if (maxCount === 0) {
    if (reverse) scores.fill(maxPriority);
    return;
  }
  for (let i = 0; i < scores.length; i++) {
    let score = Math.trunc((maxPriority * scores[i]) / maxCount);
    if (reverse) score = maxPriority - score;
    scores[i] = score;
  }
}
