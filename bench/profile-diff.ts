// Self time per unit of work in two V8 .cpuprofiles, function by function, sorted by how much it grew: where a
// change saved time (or cost it), or where a bigger cluster spends more per pod than a smaller one.
//   node --import tsx bench/profile-diff.ts before.cpuprofile 10000 after.cpuprofile 10000 [top]
// (the numbers are each profile's units of work, e.g. pods rolled out while it was recording: rows are µs per unit).
import { readFileSync } from 'node:fs';
import { label, type CpuProfile } from './profile-summary';

/** µs of self time per unit, by function; samples of the profiler's own idle and bookkeeping frames left out. */
export function selfPerUnit(profile: CpuProfile, units: number): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const n = byId.get(id);
    if (!n || n.callFrame.functionName === '(idle)' || n.callFrame.functionName === '(program)') return;
    // The inspector's own dispatch (no url) holds the sample taken while Profiler.stop was awaited.
    if (n.callFrame.functionName === 'dispatch' && !n.callFrame.url) return;
    const l = label(n);
    out.set(l, (out.get(l) ?? 0) + (profile.timeDeltas[i] ?? 0) / units);
  });
  return out;
}

export function profileDiff(a: Map<string, number>, b: Map<string, number>, top = 30): string {
  const sum = (m: Map<string, number>) => [...m.values()].reduce((x, y) => x + y, 0);
  const rows = [...new Set([...a.keys(), ...b.keys()])]
    .map((k) => ({ k, x: a.get(k) ?? 0, y: b.get(k) ?? 0 }))
    .sort((p, q) => Math.abs(q.y - q.x) - Math.abs(p.y - p.x))
    .slice(0, top)
    .map(({ k, x, y }) => `${x.toFixed(1).padStart(8)} → ${y.toFixed(1).padStart(8)}  ${(y - x >= 0 ? '+' : '') + (y - x).toFixed(1).padStart(7)}  ${k}`);
  return [`self time per unit (µs): ${sum(a).toFixed(0)} → ${sum(b).toFixed(0)}`, ...rows].join('\n');
}

if (process.argv[1]?.endsWith('profile-diff.ts')) {
  const [fa, ua, fb, ub, top] = process.argv.slice(2);
  if (!fa || !fb || !(Number(ua) > 0) || !(Number(ub) > 0)) throw new Error('usage: profile-diff.ts <a.cpuprofile> <units> <b.cpuprofile> <units> [top]');
  const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as CpuProfile;
  console.log(profileDiff(selfPerUnit(read(fa), Number(ua)), selfPerUnit(read(fb), Number(ub)), top ? Number(top) : 30));
}
