// Benchmarks 4 and 5 as figures beside their targets (issue 8).
import type { PageResult } from '../page';
import type { PersistenceResult } from '../persistence';
import { TargetOp, formatNumber, type Figure } from '../lib/report';

const kb = (b: number): number => b / 1000;

export function pageFigures(r: PageResult): Figure[] {
  const worst = r.rollout.worstFrames[0];
  const big = r.bytes.bigFrames.reduce<Record<string, number>>((acc, f) => {
    for (const [k, v] of Object.entries(f.byType)) acc[k] = Math.max(acc[k] ?? 0, v);
    return acc;
  }, {});
  const bigNote = Object.entries(big).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k} ${formatNumber(kb(v))} KB`).join(', ');
  return [
    { name: 'page: navigation → 3 nodes Ready + editor usable', value: r.usableMs, unit: 'ms', target: { op: TargetOp.AtMost, value: 1500 }, note: `nodes Ready ${formatNumber(r.nodesReadyMs)} ms, editor usable ${formatNumber(r.editorUsableMs)} ms, FCP ${formatNumber(r.fcpMs)} ms (fresh profile)` },
    { name: 'page: JS before first paint (index.html module graph)', value: kb(r.entryGraphGzipBytes), unit: 'KB gzip', target: { op: TargetOp.AtMost, value: 200 }, note: `${r.entryGraph.map((s) => s.url.split('/').pop()).join(', ')}; fetched before FCP (incl. lazy chunks started early): ${formatNumber(kb(r.firstPaintGzipBytes))} KB` },
    { name: `page: longest main-thread task, ${r.replicas}-pod rollout at 10x`, value: r.rollout.maxLongTaskMs, unit: 'ms', target: { op: TargetOp.AtMost, value: 50 }, note: `${r.rollout.longTasks} tasks over 50 ms in ${formatNumber(r.rollout.wallMs / 1000)} s; by CPU (thread) time from a trace: longest ${formatNumber(r.rollout.taskCpu.longestCpuMs)} ms, ${r.rollout.taskCpu.over50Cpu} over 50 ms (the rest of a task's wall time is waiting for a core); worst frame ${worst ? `${worst.duration} ms: ${worst.scripts.join(', ')}` : 'none'}` },
    { name: 'page: script time per frame (mean)', value: r.rollout.scriptMsPerFrame, unit: 'ms', target: { op: TargetOp.AtMost, value: 10 }, note: `CDP ScriptDuration / ${r.rollout.frames} rAF frames (mean frame ${formatNumber(r.rollout.meanFrameMs)} ms, max gap ${formatNumber(r.rollout.maxFrameGapMs)} ms); longest frame's script ${formatNumber(r.rollout.maxLongFrameScriptMs)} ms` },
    { name: 'page: worker → UI bytes per frame (max)', value: kb(r.bytes.maxFrameBytes), unit: 'KB', target: { op: TargetOp.AtMost, value: 100 }, note: `${r.bytes.framesOver100KB} of ${r.bytes.frames} frames over 100 KB, p99 ${formatNumber(kb(r.bytes.p99FrameBytes))} KB, total ${formatNumber(kb(r.bytes.totalBytes) / 1000)} MB; largest by type: ${bigNote}` },
  ];
}

export function persistenceFigures(r: PersistenceResult): Figure[] {
  return [
    { name: `persistence: durable object writes/s (${r.objects} ConfigMaps applied)`, value: r.objectsPerSecond, unit: 'writes/s', target: { op: TargetOp.AtLeast, value: 5000 }, note: `end to end through the worker: API pipeline + IndexedDB write-behind, replies once durable; ${formatNumber(r.applyWallMs / 1000)} s` },
    { name: `persistence: reload of ${r.objects} objects until usable`, value: r.reloadUsableMs, unit: 'ms', target: { op: TargetOp.AtMost, value: 2000 }, note: `all ConfigMaps in the page ${formatNumber(r.reloadConfigMapsMs)} ms, 3 nodes Ready ${formatNumber(r.reloadNodesReadyMs)} ms, editor ${formatNumber(r.reloadEditorUsableMs)} ms` },
  ];
}
