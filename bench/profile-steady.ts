// A CPU profile of rollouts at the JIT's steady state: `warm` rollouts of the size first (unprofiled), then `timed`
// rollouts profiled, each on a cluster booted before profiling starts (so boots are not in the profile).
//   node --expose-gc --import tsx bench/profile-steady.ts <nodes> <pods> <warm> <timed> <out.cpuprofile>
// A 300-pod rollout needs about ten warm-ups to reach steady state (see peer.ts); at 1,000 nodes one is enough.
// The profile also holds each rollout's untimed check of its pods (a LIST: fromStored copies in listObjects).
// Units for profile-diff.ts: pods × timed.
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { bootBenchCluster, rolloutDeployment, warmUp } from './lib/kubeplay';

const [nodes, pods, warm, timed] = process.argv.slice(2, 6).map(Number);
const out = process.argv[6];
if (![nodes, pods, warm, timed].every((n) => Number.isInteger(n) && n >= 0) || !(pods > 0 && timed > 0) || !out) {
  throw new Error('usage: profile-steady.ts <nodes> <pods> <warm> <timed> <out.cpuprofile>');
}
await warmUp();
for (let i = 0; i < warm; i++) {
  const cluster = await bootBenchCluster(nodes);
  const r = rolloutDeployment(cluster, pods);
  await cluster.close();
  console.log(`warm-up ${i + 1}: ${r.wallMs.toFixed(0)} ms`);
}
const clusters = [];
for (let i = 0; i < timed; i++) clusters.push(await bootBenchCluster(nodes));
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
for (const cluster of clusters) {
  const r = rolloutDeployment(cluster, pods);
  console.log(`profiled: ${r.wallMs.toFixed(0)} ms wall, ${r.cpuMs.toFixed(0)} ms cpu, ${r.revisions} revisions`);
}
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
for (const cluster of clusters) await cluster.close();
console.log(`wrote ${out}: ${pods * timed} pods`);
