// What the main thread's longest tasks ran: the page's CPU profile (BENCH_PAGE_PROFILE=<dir> writes
// page-rollout.cpuprofile beside page-rollout.trace.json) cut to the windows of the N longest tasks (by CPU time)
// of the trace, each sample's function mapped back to the source through the build's source maps.
//   node --import tsx bench/browser/task-profile.ts <dir> <dist> [tasks N] [functions M] [name: page-rollout | reload]
// (BENCH_PERSISTENCE_PROFILE=<dir> writes reload.cpuprofile and reload.trace.json for a reload.)
// Both files share Chrome's monotonic clock (µs), so a sample belongs to the task whose [ts, ts + dur] holds it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SourceMapConsumer } from 'source-map-js';
import { readTrace } from './trace-summary';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const maps = new Map<string, SourceMapConsumer | undefined>();

function mapOf(dist: string, url: string): SourceMapConsumer | undefined {
  if (!url) return undefined;
  const path = (() => {
    try {
      return new URL(url).pathname;
    } catch {
      return '';
    }
  })();
  if (maps.has(path)) return maps.get(path);
  const file = join(dist, `${path}.map`);
  const consumer = path && existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
  maps.set(path, consumer);
  return consumer;
}

function labelOf(dist: string, node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const map = mapOf(dist, url);
  if (map && lineNumber >= 0) {
    const pos = map.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
    if (pos.source) {
      const source = pos.source.replace(/^.*?\/(src|node_modules)\//, '$1/');
      return `${functionName || pos.name || '(anonymous)'} ${source}:${pos.line}`;
    }
  }
  return `${functionName || '(anonymous)'}${url ? ` ${url.split('/').pop()}:${lineNumber + 1}` : ''}`;
}

export function summariseTasks(dir: string, dist: string, topTasks = 5, topFunctions = 15, name = 'page-rollout'): string {
  const profile = JSON.parse(readFileSync(join(dir, `${name}.cpuprofile`), 'utf8')) as CpuProfile;
  const events = readTrace(join(dir, `${name}.trace.json`));
  const threads = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The main thread with the most task time (as trace-summary picks it).
  let best = { pid: 0, tid: 0, total: -1 };
  for (const m of threads) {
    const total = events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask')).reduce((a, e) => a + (e.dur ?? 0), 0);
    if (total > best.total) best = { pid: m.pid, tid: m.tid, total };
  }
  const mainTasks = events.filter((e) => e.pid === best.pid && e.tid === best.tid && e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur !== undefined);
  // TASK_WINDOW=from,to (ms after the first task): only the tasks that start in it.
  const t0 = Math.min(...mainTasks.map((e) => e.ts));
  const [from, to] = (process.env.TASK_WINDOW ?? '').split(',').map(Number);
  const tasks = mainTasks
    .filter((e) => !process.env.TASK_WINDOW || (e.ts - t0 >= from * 1000 && e.ts - t0 <= to * 1000))
    .sort((a, b) => (b.tdur ?? b.dur!) - (a.tdur ?? a.dur!))
  const longest = tasks.slice(0, topTasks);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const labels = new Map<number, string>();
  const label = (id: number) => {
    let l = labels.get(id);
    if (l === undefined) labels.set(id, (l = labelOf(dist, byId.get(id)!)));
    return l;
  };
  // Sample times, absolute.
  const times: number[] = [];
  let t = profile.startTime;
  for (const d of profile.timeDeltas) times.push((t += d));
  const lines: string[] = [];
  const all = { self: new Map<string, number>(), total: new Map<string, number>(), ms: 0 };
  for (const [n, task] of tasks.entries()) {
    const show = n < topTasks;
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    let sampled = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      if (times[i] < task.ts || times[i] > task.ts + task.dur!) continue;
      const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      sampled += dt;
      const id = profile.samples[i];
      const l = label(id);
      if (l.startsWith('(idle)') || l.startsWith('(program)')) continue;
      self.set(l, (self.get(l) ?? 0) + dt);
      all.self.set(l, (all.self.get(l) ?? 0) + dt);
      const seen = new Set<string>();
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
        const cl = label(cur);
        if (seen.has(cl)) continue;
        seen.add(cl);
        total.set(cl, (total.get(cl) ?? 0) + dt);
        all.total.set(cl, (all.total.get(cl) ?? 0) + dt);
      }
    }
    all.ms += sampled;
    const top = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, topFunctions)
        .map(([k, v]) => `      ${v.toFixed(1).padStart(6)} ms  ${k}`);
    if (!show) continue;
    lines.push(`task at ${((task.ts - longest[0].ts) / 1000).toFixed(0)} ms: ${((task.tdur ?? task.dur!) / 1000).toFixed(1)} ms CPU, ${(task.dur! / 1000).toFixed(1)} ms wall, ${sampled.toFixed(1)} ms sampled`);
    lines.push('    self:', ...top(self), '    inclusive:', ...top(total));
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `      ${v.toFixed(1).padStart(6)} ms  ${k}`);
  lines.push(`all ${tasks.length} tasks: ${all.ms.toFixed(0)} ms sampled`, '    self:', ...top(all.self, topFunctions * 2), '    inclusive:', ...top(all.total, topFunctions * 3));
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(summariseTasks(process.argv[2], process.argv[3], Number(process.argv[4] ?? 5), Number(process.argv[5] ?? 15), process.argv[6]));
}
