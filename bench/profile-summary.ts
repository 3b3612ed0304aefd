// Summarises a V8 .cpuprofile (node --cpu-prof) as the functions with the most self time, to find hot spots:
//   node --expose-gc --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/run.ts --child engine 1000x10000
//   node --import tsx bench/profile-summary.ts /tmp/prof/CPU.*.cpuprofile [top]
import { readFileSync } from 'node:fs';

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A function as a row label: its name and its file (relative to src/, bench/ or node_modules/) and line. */
export function label(n: ProfileNode): string {
  const url = n.callFrame.url.replace(/^file:\/\/.*?\/(src|bench|node_modules)\//, '$1/');
  return `${n.callFrame.functionName || '(anonymous)'} ${url ? `${url}:${n.callFrame.lineNumber + 1}` : ''}`.trim();
}

export function summarise(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    all += dt;
    const n = byId.get(id);
    if (!n) return;
    self.set(label(n), (self.get(label(n)) ?? 0) + dt);
    // Inclusive time: once per distinct function on the stack.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const l = label(byId.get(cur)!);
      if (seen.has(l)) continue;
      seen.add(l);
      total.set(l, (total.get(l) ?? 0) + dt);
    }
  });
  const pct = (v: number) => `${((100 * v) / all).toFixed(1).padStart(5)}%`;
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${pct(v)} ${(v / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  return [`total ${(all / 1e6).toFixed(1)} s sampled`, '', 'self time:', ...rows(self), '', 'inclusive time (src/ only):', ...rows(new Map([...total].filter(([k]) => k.includes('src/'))))].join('\n');
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const [file, top] = process.argv.slice(2);
  if (!file || (top !== undefined && !Number.isFinite(Number(top)))) throw new Error('usage: profile-summary.ts <one file.cpuprofile> [top]');
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, top ? Number(top) : 25));
}
