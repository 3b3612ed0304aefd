// Texts the kubelet puts in events and statuses: Go's time.Duration formatting (as "%v" prints it) and
// format.Pod ("name_namespace(uid)").
import type { KubeObject } from '../../shared/api/types';

/**
 * time.Duration.String() of a duration rounded to the millisecond, as the kubelet prints pull times:
 * "313ms", "1.661s", "1m2.5s", "0s".
 */
export function formatGoDuration(ms: number): string {
  const total = Math.round(ms);
  if (total === 0) return '0s';
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const secondsMs = total % 60_000;
  const seconds = trimFraction((secondsMs / 1000).toFixed(3));
  let out = '';
  if (hours > 0) out += `${hours}h`;
  if (hours > 0 || minutes > 0) out += `${minutes}m`;
  return `${out}${seconds}s`;
}

function trimFraction(s: string): string {
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** The back-off period as flowcontrol prints it in CrashLoopBackOff messages: "10s", "1m20s", "5m0s". */
export function formatBackoff(ms: number): string {
  return formatGoDuration(ms);
}

/** format.Pod: "web-7d4b9_default(6f1c…)". */
export function formatPod(pod: Pick<KubeObject, 'metadata'>): string {
  return `${pod.metadata.name ?? ''}_${pod.metadata.namespace ?? ''}(${pod.metadata.uid ?? ''})`;
}

/** A Go []string as "%v" prints it: "[a b c]". */
export function goStringSlice(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}
