// Files the pod's containers wrote into their writable volumes (emptyDir, hostPath): a container's program
// writes at its own mount path; the file belongs to the volume, so every container mounting that volume sees
// it (under its own mount path), and a hostPath file stays on the node after the pod is gone.
import type { Pod, VolumeMount } from 'kubernetes-types/core/v1';
import type { ProgramRun } from './program';
import { normalizePath } from './volume-contents';

export interface WrittenFile {
  exists: boolean;
  content: string;
}

export interface RunningContainer {
  mounts: readonly VolumeMount[];
  run: ProgramRun;
  startedAt: number;
}

/** The volume path (relative to its root) of a container path under a mount, or undefined. */
function relativeTo(mount: VolumeMount, path: string): string | undefined {
  const root = normalizePath(mount.mountPath);
  const p = normalizePath(path);
  const prefix = root === '/' ? '/' : `${root}/`;
  if (!p.startsWith(prefix)) return undefined;
  const rel = p.slice(prefix.length);
  return mount.subPath ? `${normalizePath(mount.subPath).slice(1)}/${rel}` : rel;
}

/**
 * Per writable volume: the files the containers' programs created or removed by `now` (volume-relative paths,
 * in the order they happened). Later events win: a file one container removes is gone for all.
 */
export function writtenVolumeFiles(pod: Pod, containers: readonly RunningContainer[], now: number): Map<string, Map<string, WrittenFile>> {
  const writable = new Set((pod.spec?.volumes ?? []).filter((v) => v.emptyDir || v.hostPath || v.persistentVolumeClaim).map((v) => v.name));
  const events: { at: number; volume: string; rel: string; file: WrittenFile }[] = [];
  for (const c of containers) {
    const mounts = c.mounts.filter((m) => writable.has(m.name) && !m.readOnly);
    if (mounts.length === 0) continue;
    const elapsed = now - c.startedAt;
    const all = c.run.end.type === 'loop' && elapsed >= c.run.end.at ? [...c.run.events, ...c.run.end.events.map((e) => ({ ...e, at: c.run.end.at + e.at }))] : c.run.events;
    for (const e of all) {
      if (e.at > elapsed || e.type !== 'file') continue;
      // The longest mount path that holds the file owns it.
      const owner = mounts.map((m) => ({ m, rel: relativeTo(m, e.path) })).filter((x) => x.rel).sort((a, b) => b.m.mountPath.length - a.m.mountPath.length)[0];
      if (!owner) continue;
      events.push({ at: c.startedAt + e.at, volume: owner.m.name, rel: owner.rel!, file: { exists: e.exists, content: (e.content ?? []).join('\n') } });
    }
  }
  events.sort((a, b) => a.at - b.at);
  const out = new Map<string, Map<string, WrittenFile>>();
  for (const e of events) {
    if (!out.has(e.volume)) out.set(e.volume, new Map());
    out.get(e.volume)!.set(e.rel, e.file);
  }
  return out;
}
