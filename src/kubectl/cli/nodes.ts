// KubectlNodes over the simulated machines: what kubectl reaches through the API server's proxy to a kubelet
// (/containerLogs). Logs come from the kubelet running the pod; a follow polls it on the virtual clock as the
// kubelet streams a growing log file.
import type { Clock } from '../../control-plane/sim/clock';
import type { NodeSimulator } from '../../control-plane/kubelet/node-simulator';
import type { KubectlNodes } from './command';

/** How often a followed log is read again (virtual time). */
export const followPollMs = 1_000;

/** The kubelet's timestamp format for `--timestamps` (kuberuntime logs: nanoseconds, always 9 digits). */
export function logTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2026-01-01T00:00:05.123Z
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000000Z`;
}

export function kubectlNodes(sim: Pick<NodeSimulator, 'logs'>, clock: Clock): KubectlNodes {
  return {
    logs(namespace, pod, container, options) {
      const result = sim.logs(namespace, pod, container, { previous: options.previous, tailLines: options.tailLines });
      if ('error' in result) return result;
      return { lines: result.lines.map((l) => (options.timestamps ? `${logTimestamp(l.time)} ${l.text}` : l.text)) };
    },
    followLogs(namespace, pod, container, onLine, onEnd) {
      // Lines already printed are those at or before `seen` (and, at that instant, the first `seenAtSameTime`).
      const initial = sim.logs(namespace, pod, container, {});
      let seen = 'lines' in initial && initial.lines.length ? initial.lines[initial.lines.length - 1].time : -Infinity;
      let seenAtSameTime = 'lines' in initial ? initial.lines.filter((l) => l.time === seen).length : 0;
      let stopped = false;
      let timer = clock.setTimer(followPollMs, poll, 'kubectl logs -f', { background: true });
      function poll(): void {
        if (stopped) return;
        const result = sim.logs(namespace, pod, container, {});
        if ('error' in result) {
          stopped = true;
          onEnd();
          return;
        }
        const atSame = result.lines.filter((l) => l.time === seen);
        const fresh = [...atSame.slice(seenAtSameTime), ...result.lines.filter((l) => l.time > seen)];
        for (const line of fresh) onLine(line.text);
        if (fresh.length) {
          seen = fresh[fresh.length - 1].time;
          seenAtSameTime = result.lines.filter((l) => l.time === seen).length;
        }
        timer = clock.setTimer(followPollMs, poll, 'kubectl logs -f', { background: true });
      }
      return () => {
        stopped = true;
        clock.clearTimer(timer);
      };
    },
  };
}
