// Summarises a Chrome trace of the page (BENCH_PAGE_PROFILE=<dir> npm run bench -- --only page writes
// <dir>/page-rollout.trace.json): the renderer main thread's tasks, the longest ones, and where their time went
// (script, style, layout, paint, GC), with the layouts forced from script and who forced them.
// Both wall time (dur) and the thread's CPU time (tdur) are given: on a loaded machine a task's wall time is
// mostly time the thread waited for a core (a 390 ms task measured 41 ms of CPU), so compare CPU time there.
//   node --import tsx bench/browser/trace-summary.ts <dir>/page-rollout.trace.json [longest N]
import { readFileSync } from 'node:fs';

interface StackFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { stackTrace?: StackFrame[] }; beginData?: { stackTrace?: StackFrame[] } };
}

const taskNames = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
const kinds = ['FunctionCall', 'EvaluateScript', 'TimerFire', 'FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'MinorGC', 'MajorGC', 'HitTest'];

/** The renderer's main thread: the thread named CrRendererMain with the most time in events. */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  let best = { pid: 0, tid: 0, total: -1 };
  for (const m of events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')) {
    const total = events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.ph === 'X').reduce((a, e) => a + (e.dur ?? 0), 0);
    if (total > best.total) best = { pid: m.pid, tid: m.tid, total };
  }
  return best;
}

const ms = (us: number) => Math.round(us / 1000);

export interface TaskCpuFigures {
  tasks: number;
  longestWallMs: number;
  longestCpuMs: number;
  over50Wall: number;
  over50Cpu: number;
}

/** The main thread's tasks (RunTask, 'toplevel' category) by wall and by CPU time. */
export function taskCpuFigures(events: TraceEvent[]): TaskCpuFigures {
  const { pid, tid } = mainThread(events);
  const tasks = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur !== undefined && taskNames.has(e.name));
  const cpu = (e: TraceEvent) => e.tdur ?? e.dur!;
  return {
    tasks: tasks.length,
    longestWallMs: Math.max(0, ...tasks.map((t) => t.dur!)) / 1000,
    longestCpuMs: Math.max(0, ...tasks.map(cpu)) / 1000,
    over50Wall: tasks.filter((t) => t.dur! > 50_000).length,
    over50Cpu: tasks.filter((t) => cpu(t) > 50_000).length,
  };
}

export function readTrace(path: string): TraceEvent[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return Array.isArray(raw) ? raw : raw.traceEvents;
}

export function summariseTrace(events: TraceEvent[], top = 10): string {
  const { pid, tid } = mainThread(events);
  const mine = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts);
  // Tasks: RunTask (the toplevel category), else the outermost events.
  let tasks = mine.filter((e) => taskNames.has(e.name));
  if (tasks.length === 0) {
    let end = -Infinity;
    tasks = mine.filter((e) => {
      if (e.ts < end) return false;
      end = e.ts + e.dur!;
      return true;
    });
  }
  const cpu = (e: TraceEvent) => e.tdur ?? e.dur!;
  const inside = (t: TraceEvent) => mine.filter((e) => e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur! && !taskNames.has(e.name) && kinds.includes(e.name));
  const breakdown = (list: TraceEvent[]) => {
    const by = new Map<string, number>();
    for (const e of list) by.set(e.name, (by.get(e.name) ?? 0) + cpu(e));
    return [...by].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${ms(v)}`).join(', ');
  };
  const forcedBy = (list: TraceEvent[]) =>
    list
      .filter((e) => (e.name === 'Layout' || e.name === 'UpdateLayoutTree') && (e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace)?.length)
      .map((e) => {
        const f = (e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace)![0];
        return `${e.name} ${ms(cpu(e))} ms CPU forced by ${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
      });
  const over = (f: (e: TraceEvent) => number) => tasks.filter((t) => f(t) > 50_000).length;
  const layouts = mine.filter((e) => e.name === 'Layout');
  const forced = forcedBy(mine);
  const lines = [
    `main-thread tasks: ${tasks.length}; wall ${ms(tasks.reduce((a, t) => a + t.dur!, 0))} ms, CPU ${ms(tasks.reduce((a, t) => a + cpu(t), 0))} ms`,
    `tasks over 50 ms: ${over((t) => t.dur!)} by wall time, ${over(cpu)} by CPU time; longest ${ms(Math.max(0, ...tasks.map((t) => t.dur!)))} ms wall, ${ms(Math.max(0, ...tasks.map(cpu)))} ms CPU`,
    `CPU in all tasks (ms): ${breakdown(mine.filter((e) => kinds.includes(e.name)))}`,
    `layouts: ${layouts.length} (${ms(layouts.reduce((a, e) => a + cpu(e), 0))} ms CPU), ${forced.filter((f) => f.startsWith('Layout')).length} forced from script`,
    `longest tasks by CPU time:`,
  ];
  for (const t of [...tasks].sort((a, b) => cpu(b) - cpu(a)).slice(0, top)) {
    const list = inside(t);
    lines.push(`- ${ms(cpu(t))} ms CPU (${ms(t.dur!)} ms wall): ${breakdown(list)}`);
    for (const f of forcedBy(list).slice(0, 3)) lines.push(`    ${f}`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(summariseTrace(readTrace(process.argv[2]), Number(process.argv[3] ?? 10)));
}
