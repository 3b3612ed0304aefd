// The playground limits as the Settings dialog shows them: the 'cluster/limits' result and how each figure is written.
import type { ProtocolClient } from '../../../shared/protocol/client';
import type { PlaygroundLimitView, PlaygroundLimitsView } from '../../../shared/protocol/limits';

export type { PlaygroundLimitView, PlaygroundLimitsView };

export function fetchPlaygroundLimits(client: ProtocolClient): Promise<PlaygroundLimitsView> {
  return client.call('cluster/limits');
}

const count = new Intl.NumberFormat('en-US');

/** Binary units, as Kubernetes quantities: 1.5 MiB, 256 MiB. */
export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${count.format(n)} bytes`;
  const text = Number.isInteger(v) ? String(v) : v.toFixed(1).replace(/\.0$/, '');
  return `${text} ${units[u]}`;
}

export function formatAmount(view: PlaygroundLimitView, n: number): string {
  if (view.unit === 'bytes') return formatBytes(n);
  if (n >= Number.MAX_SAFE_INTEGER) return 'unlimited';
  return count.format(n);
}

/** "12 / 50,000", "1.2 MiB / 256 MiB", or the limit alone for a cap without a cluster-wide usage. */
export function usageText(view: PlaygroundLimitView): string {
  const limit = formatAmount(view, view.limit);
  return view.used === undefined ? `at most ${limit}` : `${formatAmount(view, view.used)} / ${limit}`;
}

/** The share of the limit in use, 0–1 (for the meter). */
export function usageFraction(view: PlaygroundLimitView): number | undefined {
  if (view.used === undefined || view.limit <= 0) return undefined;
  return Math.min(1, view.used / view.limit);
}
