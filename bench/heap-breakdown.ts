// Where the heap goes per pod: boots N nodes (default 100), takes a heap snapshot, rolls out P pods (default 2,000),
// takes another, scales the Deployment to 2P, takes a third, and prints the bytes per pod each owner gained
// (heap-snapshot.ts: the dominator tree's owner partition), biggest first: boot → P (what the engine bench's
// heap/pod counts: it includes filling the store's bounded history) and P → 2P (the marginal cost per pod once
// every bounded buffer is full: what 30,000 pods cost). Not part of `npm run bench`: a tool for finding what to shrink.
//
//   node --expose-gc --max-old-space-size=6000 --import tsx bench/heap-breakdown.ts [NxP] [rows] [detail regexp]
//
// With a detail regexp, the owners it matches are also broken down by what their nodes are (V8 node type and
// name and first property names: "object Object {group,older,newer}", "object shape system / Map") for the
// marginal step. The tables this keeps between snapshots are in the later snapshots too (as "(root)" strings):
// compare totals from a run without it.
import { writeHeapSnapshot } from 'node:v8';
import { rmSync } from 'node:fs';
import { bootBenchCluster, rolloutDeployment, warmUp } from './lib/kubeplay';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { Cluster } from '../src/control-plane/cluster';
import { rolloutComplete } from '../src/control-plane/scenarios/harness';
import { heapUsedAfterGc } from './lib/heap';
import { dominators, ownerTable, parseHeapSnapshot, type OwnerTable } from './heap-snapshot';

function snapshotOwners(tag: string): OwnerTable {
  heapUsedAfterGc();
  const file = writeHeapSnapshot(`/tmp/heap-breakdown-${process.pid}-${tag}.heapsnapshot`);
  const g = parseHeapSnapshot(file);
  rmSync(file);
  const t = ownerTable(g, dominators(g), detailOf);
  return t;
}

function printDiff(title: string, before: OwnerTable, after: OwnerTable, pods: number, rows: number, watch: RegExp): void {
  const diff: { label: string; bytes: number; objects: number }[] = [];
  for (const [label, b] of after.bytes) {
    diff.push({ label, bytes: b - (before.bytes.get(label) ?? 0), objects: (after.objects.get(label) ?? 0) - (before.objects.get(label) ?? 0) });
  }
  for (const [label, b] of before.bytes) if (!after.bytes.has(label)) diff.push({ label, bytes: -b, objects: -(before.objects.get(label) ?? 0) });
  diff.sort((a, b) => Math.abs(b.bytes) - Math.abs(a.bytes));
  console.log(`\n${title}: snapshot totals ${mib(before.totalBytes)} → ${mib(after.totalBytes)} MiB (${kib((after.totalBytes - before.totalBytes) / pods)} KiB/pod)`);
  console.log(`${'KiB/pod'.padStart(8)} ${'objs/pod'.padStart(8)}  owner`);
  let shown = 0;
  for (const r of diff.slice(0, rows)) {
    shown += r.bytes;
    console.log(`${kib(r.bytes / pods)} ${(r.objects / pods).toFixed(1).padStart(8)}  ${r.label}`);
  }
  console.log(`${kib((after.totalBytes - before.totalBytes - shown) / pods)}           (the rest)`);
  // Roll-ups: by owner alone (the part before ":"), and by what is held (the Kubernetes kind and field after it).
  for (const [what, key] of [
    ['owner', (l: string) => l.split(':')[0]],
    ['kind.field', (l: string) => (l.includes(':') ? l.slice(l.indexOf(':') + 1).split('.').slice(0, 3).join('.') : '(not in an object)')],
  ] as const) {
    const sums = new Map<string, number>();
    for (const r of diff) sums.set(key(r.label), (sums.get(key(r.label)) ?? 0) + r.bytes);
    const top = [...sums].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 25);
    console.log(`  by ${what}: ${top.map(([k, b]) => `${k} ${(b / pods / 1024).toFixed(2)}`).join(' | ')}`);
  }
  const watched = diff.filter((r) => watch.test(r.label));
  if (watched.length) {
    console.log(`  owners matching ${watch} (total held after, KiB; change per pod):`);
    for (const r of watched) console.log(`  ${kib(after.bytes.get(r.label) ?? 0)} KiB total ${kib(r.bytes / pods)} KiB/pod  ${r.label}`);
  }
}

/** Owners to break down by node type and name (argv[4]), or none. */
const detailOf = process.argv[4] ? new RegExp(process.argv[4]) : undefined;

function printDetail(before: OwnerTable, after: OwnerTable, pods: number): void {
  const rows: { what: string; bytes: number; objects: number }[] = [];
  for (const [what, a] of after.detail) {
    const b = before.detail.get(what);
    rows.push({ what, bytes: a.bytes - (b?.bytes ?? 0), objects: a.objects - (b?.objects ?? 0) });
  }
  rows.sort((x, y) => Math.abs(y.bytes) - Math.abs(x.bytes));
  console.log(`  detail of owners matching ${detailOf} (bytes/pod, objs/pod):`);
  for (const r of rows.slice(0, 60)) console.log(`  ${(r.bytes / pods).toFixed(1).padStart(8)} ${(r.objects / pods).toFixed(2).padStart(6)}  ${r.what}`);
}

const kib = (b: number): string => (b / 1024).toFixed(2).padStart(8);
const mib = (b: number): string => (b / 2 ** 20).toFixed(1);

async function main(): Promise<void> {
  const [nodes, pods] = (process.argv[2] ?? '100x2000').split('x').map(Number);
  const rows = Number(process.argv[3] ?? 40);
  // Owners in the files of the trace bus, introspection and metrics: listed whatever their size.
  const watch = /^(TraceBus|CommitCauses|MetricsServer|WorkloadLoads)\./;
  await warmUp();
  const cluster = await bootBenchCluster(nodes);
  const heapBoot = heapUsedAfterGc()!;
  const boot = snapshotOwners('boot');
  rolloutDeployment(cluster, pods);
  const heapP = heapUsedAfterGc()!;
  const atP = snapshotOwners('p');
  scaleDeployment(cluster, 2 * pods);
  const heap2P = heapUsedAfterGc()!;
  const at2P = snapshotOwners('2p');
  await cluster.close();

  console.log(`${nodes} nodes: heapUsed after gc ${mib(heapBoot)} MiB booted, ${mib(heapP)} MiB with ${pods} pods, ${mib(heap2P)} MiB with ${2 * pods}`);
  console.log(`heap per pod: boot → ${pods}: ${kib((heapP - heapBoot) / pods)} KiB; ${pods} → ${2 * pods}: ${kib((heap2P - heapP) / pods)} KiB`);
  printDiff(`boot → ${pods} pods`, boot, atP, pods, rows, watch);
  printDiff(`${pods} → ${2 * pods} pods (marginal)`, atP, at2P, pods, rows, watch);
  if (detailOf) printDetail(atP, at2P, pods);
}

/** Scales the bench Deployment to `replicas` and runs the clock until it is complete again. */
function scaleDeployment(cluster: Cluster, replicas: number): void {
  const d = cluster.client.deployments.get('bench', { namespace: 'default' }) as Deployment;
  cluster.client.deployments.update({ ...d, spec: { ...d.spec!, replicas } }, { namespace: 'default' });
  const key = '/registry/apps/deployments/default/bench';
  if (!cluster.runUntil(() => rolloutComplete(cluster.store.get(key)?.value as Deployment | undefined), 2 * 60 * 60_000)) {
    throw new Error(`scale to ${replicas} did not complete`);
  }
}

await main();
