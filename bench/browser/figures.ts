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

function reloadParts(r: PersistenceResult): string {
  const p = r.reloadParts;
  if (!p) return '';
  return `; worker ready ${formatNumber(p.workerReadyMs)} ms, first ConfigMap ${formatNumber(p.firstConfigMapMs)} ms, ${p.configMapBatches} ConfigMap batches, ${p.longTasks} long tasks until all in (longest ${formatNumber(p.maxLongTaskMs)} ms); CPU in the trace: worker ${formatNumber(p.workerCpuMs)} ms, page ${formatNumber(p.pageCpuMs)} ms, the page's longest task ${formatNumber(p.longestTaskCpuMs)} ms (${p.tasksOver50Cpu} over 50 ms)`;
}

export function persistenceFigures(r: PersistenceResult): Figure[] {
  const reloadNote = r.reloadTimedOut ? `not usable within the wait: ${r.reloadConfigMapsSeen ?? 0} of ${r.objects} ConfigMaps in the page after 120 s` : `all ConfigMaps in the page ${formatNumber(r.reloadConfigMapsMs)} ms`;
  return [
    {
      name: `persistence: IndexedDB write-behind, durable writes/s (${r.objects} pipelined creates)`,
      value: r.requestWritesPerSecond,
      unit: 'writes/s',
      target: { op: TargetOp.AtLeast, value: 5000 },
      note: `api/request creates sent at once, each answered once its revision is durable (one transaction per write cycle); first send to last durable reply ${formatNumber(r.requestWallMs / 1000)} s, 10th–90th percentile replies ${formatNumber(r.requestSteadyWritesPerSecond)}/s; includes the worker's API pipeline`,
    },
    {
      name: `persistence: end to end via api/apply, durable writes/s (${r.objects} ConfigMaps)`,
      value: r.objectsPerSecond,
      unit: 'writes/s',
      note: `YAML parse + kubectl's GET-then-create + API pipeline + write-behind, 500 per call, replies once durable; ${formatNumber(r.applyWallMs / 1000)} s`,
    },
    { name: `persistence: reload of ${r.objects} objects until usable`, value: r.reloadUsableMs, unit: 'ms', target: { op: TargetOp.AtMost, value: 2000 }, note: `${reloadNote}, 3 nodes Ready ${formatNumber(r.reloadNodesReadyMs)} ms, editor ${formatNumber(r.reloadEditorUsableMs)} ms${reloadParts(r)}` },
  ];
}
