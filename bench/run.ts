// `npm run bench`: runs every benchmark of issue 8 that runs in Node (1 engine, 2 scaling, 3 store/API,
// 6 side by side with webernetes) and prints each figure beside its target, with the machine it ran on.
// Each case runs in a child process (same flags: --expose-gc) so heap figures and JIT state are its own. The Node
// cases run a bundle of this file as the app's build makes it (lib/bundle.ts); --source runs them through tsx.
//
//   npm run bench                                   every benchmark, full sizes
//   npm run bench -- --quick                        the small sizes only (engine 100x1000, store 2000, peer 30)
//   npm run bench -- --only engine --sizes 100x1000,1000x10000
//   npm run bench -- --only store --sizes 10000     (or writes:latencySamples:listPods, e.g. 2000:500:1000)
//   npm run bench -- --only peer --sizes 30,100
//   npm run bench -- --only scaling --sizes 100x1000,1000x10000,1000x30000
//   npm run bench -- --json out.json                also write every raw result
//   npm run bench -- --source                       the Node cases from source (tsx), for readable profiles
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseEngineSizes, runEngineCase, sizeKey, type EngineCaseResult, type EngineSize } from './engine';
import { MiB, gcAvailable } from './lib/heap';
import { buildBenchBundle, withoutTsx } from './lib/bundle';
import { spawnCase, writeCaseResult, type CaseRunner } from './lib/case-process';
import { formatMachine, machineInfo } from './lib/machine';
import { TargetOp, formatNumber, formatTable, type Figure } from './lib/report';
import { pageFigures, persistenceFigures } from './browser/figures';
import { parsePeerSizes, runPeerCase, type PeerResult } from './peer';
import { parseStoreSize, runStoreCase, type StoreResult } from './store-api';

export const Bench = { Engine: 'engine', Scaling: 'scaling', Store: 'store', Peer: 'peer', Page: 'page', Persistence: 'persistence' } as const;
export type Bench = (typeof Bench)[keyof typeof Bench];
const allBenches: Bench[] = [Bench.Engine, Bench.Scaling, Bench.Store, Bench.Peer, Bench.Page, Bench.Persistence];

const defaults: Record<Bench, { full: string; quick: string }> = {
  [Bench.Engine]: { full: '100x1000,1000x10000,5000x50000', quick: '100x1000' },
  // The ratio compares the 1,000- and 10,000-pod engine cases (10 pods per node in both); 1000x30000 is the heap case.
  [Bench.Scaling]: { full: '100x1000,1000x10000,1000x30000', quick: '100x1000' },
  [Bench.Store]: { full: '10000', quick: '2000:500:1000' },
  [Bench.Peer]: { full: '30,100,300', quick: '30' },
  // Chromium on a production build (BENCH_DIST, BENCH_PORT): replicas of the rollout; ConfigMaps reloaded.
  [Bench.Page]: { full: '1000', quick: '1000' },
  [Bench.Persistence]: { full: '10000', quick: '10000' },
};

interface Args {
  only: Bench[];
  sizes?: string;
  quick: boolean;
  json?: string;
  /** Run the Node cases from source through tsx rather than as a bundle. */
  source: boolean;
  child?: { bench: Bench; size: string };
}

function parseArgs(argv: string[]): Args {
  const args: Args = { only: allBenches, quick: false, source: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--only') {
      const names = value().split(',');
      for (const n of names) if (!allBenches.includes(n as Bench)) throw new Error(`--only: unknown benchmark "${n}" (${allBenches.join(', ')})`);
      args.only = names as Bench[];
    } else if (a === '--sizes') args.sizes = value();
    else if (a === '--quick') args.quick = true;
    else if (a === '--json') args.json = value();
    else if (a === '--source') args.source = true;
    else if (a === '--child') args.child = { bench: value() as Bench, size: value() };
    else if (a === '--help' || a === '-h') {
      console.log(readUsage());
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (args.sizes && args.only.length !== 1) throw new Error('--sizes applies to one benchmark: give --only too');
  return args;
}

function readUsage(): string {
  return 'usage: npm run bench -- [--quick] [--only engine|scaling|store|peer|page|persistence[,…]] [--sizes …] [--json file] [--source]';
}

/** Runs one case in this process and prints its result for the parent. */
async function runChild(bench: Bench, size: string): Promise<void> {
  let result: unknown;
  if (bench === Bench.Engine || bench === Bench.Scaling) result = await runEngineCase(parseEngineSizes(size)[0]);
  else if (bench === Bench.Store) result = await runStoreCase(parseStoreSize(size));
  else if (bench === Bench.Page) result = await (await import('./page')).runPageCase(Number(size));
  else if (bench === Bench.Persistence) result = await (await import('./persistence')).runPersistenceCase(Number(size));
  else result = await runPeerCase(parsePeerSizes(size)[0]);
  writeCaseResult(result);
  process.exit(0);
}

const sourceRunner = (): CaseRunner => ({ execArgv: process.execArgv, script: fileURLToPath(import.meta.url), form: 'source (tsx)' });

async function bundleRunner(): Promise<CaseRunner> {
  return { execArgv: withoutTsx(process.execArgv), script: await buildBenchBundle(), form: 'bundle (vite build, minified)' };
}

function engineTarget(nodes: number): Figure['target'] {
  if (nodes === 1000) return { op: TargetOp.AtLeast, value: 5000 };
  if (nodes === 5000) return { op: TargetOp.AtLeast, value: 2000 };
  return undefined;
}

const seconds = (ms: number): string => `${formatNumber(ms / 1000)} s`;

function engineFigures(r: EngineCaseResult): Figure[] {
  const heapPerPod = r.heapAfterBytes !== undefined && r.heapBootBytes !== undefined ? (r.heapAfterBytes - r.heapBootBytes) / r.pods : undefined;
  return [
    {
      name: `engine ${sizeKey(r)} (nodes x pods)`,
      value: r.podsPerSecond,
      unit: 'pods/s',
      target: engineTarget(r.nodes),
      note: `wall ${seconds(r.wallMs)} (cpu ${seconds(r.cpuMs)}), virtual ${seconds(r.virtualMs)}, ${r.revisions} revisions (${formatNumber(r.revisions / r.pods)}/pod), boot ${seconds(r.bootWallMs)}${heapPerPod !== undefined ? `, heap ${formatNumber(heapPerPod / 1024)} KiB/pod` : ''}`,
    },
  ];
}

function scalingFigures(results: Map<string, EngineCaseResult>): Figure[] {
  const out: Figure[] = [];
  const small = [...results.values()].find((r) => r.pods === 1000);
  const large = [...results.values()].find((r) => r.pods === 10000);
  if (small && large) {
    out.push({
      name: 'scaling: per-pod cost 10,000 / 1,000 pods',
      value: large.msPerPod / small.msPerPod,
      unit: 'x',
      target: { op: TargetOp.AtMost, value: 1.5 },
      note: `${formatNumber(large.msPerPod * 1000)} µs/pod at ${sizeKey(large)} vs ${formatNumber(small.msPerPod * 1000)} µs/pod at ${sizeKey(small)}`,
    });
  } else out.push({ name: 'scaling: per-pod cost 10,000 / 1,000 pods', value: NaN, unit: 'x', target: { op: TargetOp.AtMost, value: 1.5 }, note: 'needs the 1,000- and 10,000-pod cases' });
  for (const r of results.values()) {
    if (r.heapAfterBytes === undefined || r.heapBootBytes === undefined) continue;
    out.push({
      name: `scaling: heap per pod ${sizeKey(r)}`,
      value: (r.heapAfterBytes - r.heapBootBytes) / r.pods / 1024,
      unit: 'KiB',
      note: `heap after gc ${formatNumber(r.heapAfterBytes / MiB)} MiB with every pod running, ${formatNumber(r.heapBootBytes / MiB)} MiB booted`,
    });
    if (r.nodes === 1000 && r.pods === 30000) {
      // Issue 8 says 300 MB: 300,000,000 bytes, about 286 MiB.
      out.push({ name: 'scaling: heap 1000x30000', value: r.heapAfterBytes / MiB, unit: 'MiB', target: { op: TargetOp.AtMost, value: 300e6 / MiB }, note: `${formatNumber(r.heapAfterBytes / 1e6)} MB; the target is 300 MB` });
    }
  }
  if (!gcAvailable()) out.push({ name: 'scaling: heap', value: NaN, unit: '', note: 'run with node --expose-gc (npm run bench does)' });
  return out;
}

function storeFigures(r: StoreResult): Figure[] {
  return [
    { name: `store: writes/s, 2 watchers (${r.writes} ConfigMap creates)`, value: r.writesPerSecond, unit: 'writes/s', note: `each watcher got ${r.deliveredPerWatcher.join(' / ')} events; no target set in issue 8` },
    { name: `store: watch delivery latency p50 (${r.latencySamples} writes x 2 watchers)`, value: r.latencyP50Ms * 1000, unit: 'µs', note: `wall, create returned → callback; virtual latency max ${r.latencyVirtualMaxMs} ms` },
    { name: 'store: watch delivery latency p99', value: r.latencyP99Ms * 1000, unit: 'µs' },
    { name: `store: LIST of ${r.listItems} pods`, value: r.listMedianMs, unit: 'ms', note: `median of 5; pods created at ${formatNumber(r.podCreatesPerSecond)}/s` },
  ];
}

function peerFigures(r: PeerResult): Figure[] {
  return [
    {
      name: `peer: ${r.replicas} replicas on 3 nodes, webernetes ${r.peerVersion} / kubeplay`,
      value: r.ratio,
      unit: 'x faster',
      target: r.replicas === 300 ? { op: TargetOp.AtLeast, value: 50 } : undefined,
      note:
        `medians of ${r.timedRuns} runs once steady (after ${r.kubeplayWarmUps} untimed rollouts of this size for kubeplay, ${r.peerWarmUps} for webernetes): ` +
        `kubeplay ${formatNumber(r.kubeplayWallMs)} ms wall, ${formatNumber(r.kubeplayCpuMs)} ms cpu (${seconds(r.kubeplayVirtualMs)} virtual; runs ${r.kubeplayWallRunsMs.map(formatNumber).join(' / ')} ms); ` +
        `webernetes ${formatNumber(r.peerWallMs)} ms wall, ${formatNumber(r.peerCpuMs)} ms cpu (${seconds(r.peerVirtualMs)} virtual, ${r.peerTimerSteps} timer steps, clock paused and stepped; runs ${r.peerWallRunsMs.map(formatNumber).join(' / ')} ms); ` +
        `first run of this size: ${formatNumber(r.firstRatio)}x (kubeplay ${formatNumber(r.kubeplayFirstWallMs)} ms, webernetes ${formatNumber(r.peerFirstWallMs)} ms); ` +
        `3rd–5th runs (two warm-ups, the method before session 21): ${formatNumber(r.twoWarmUpsRatio)}x`,
    },
  ];
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.child) return runChild(args.child.bench, args.child.size);

  console.log(formatMachine(machineInfo()));
  if (!gcAvailable()) console.log('note: no --expose-gc: heap figures are skipped');
  // The browser cases drive Chromium on the app's own build: their Node side runs from source.
  const nodeCases = args.only.some((b) => b !== Bench.Page && b !== Bench.Persistence);
  const runner = args.source || !nodeCases ? sourceRunner() : await bundleRunner();
  if (nodeCases) console.log(`control plane in Node: ${runner.form}`);
  const sizesOf = (b: Bench): string => args.sizes ?? (args.quick ? defaults[b].quick : defaults[b].full);
  const figures: Figure[] = [];
  const raw: Record<string, unknown[]> = {};
  const engineResults = new Map<string, EngineCaseResult>();
  const note = (bench: Bench, r: unknown) => (raw[bench] ??= []).push(r);
  const progress = (what: string) => process.stderr.write(`running ${what}…\n`);

  const engineCase = async (size: EngineSize): Promise<EngineCaseResult> => {
    const key = sizeKey(size);
    const cached = engineResults.get(key);
    if (cached) return cached;
    progress(`engine ${key}`);
    const r = await spawnCase<EngineCaseResult>(runner, Bench.Engine, key);
    engineResults.set(key, r);
    return r;
  };

  for (const bench of args.only) {
    try {
      if (bench === Bench.Engine) {
        for (const size of parseEngineSizes(sizesOf(bench))) {
          const r = await engineCase(size);
          note(bench, r);
          figures.push(...engineFigures(r));
        }
      } else if (bench === Bench.Scaling) {
        const results = new Map<string, EngineCaseResult>();
        for (const size of parseEngineSizes(sizesOf(bench))) results.set(sizeKey(size), await engineCase(size));
        note(bench, [...results.values()]);
        figures.push(...scalingFigures(results));
      } else if (bench === Bench.Store) {
        const size = sizesOf(bench);
        progress(`store ${size}`);
        const r = await spawnCase<StoreResult>(runner, Bench.Store, size);
        note(bench, r);
        figures.push(...storeFigures(r));
      } else if (bench === Bench.Page || bench === Bench.Persistence) {
        const size = sizesOf(bench);
        progress(`${bench} ${size} (Chromium)`);
        const r = await spawnCase<never>(sourceRunner(), bench, size);
        note(bench, r);
        figures.push(...(bench === Bench.Page ? pageFigures(r) : persistenceFigures(r)));
      } else {
        for (const replicas of parsePeerSizes(sizesOf(bench))) {
          progress(`peer ${replicas}`);
          const r = await spawnCase<PeerResult>(runner, Bench.Peer, String(replicas));
          note(bench, r);
          figures.push(...peerFigures(r));
        }
      }
    } catch (err) {
      figures.push({ name: `${bench}: FAILED`, value: NaN, unit: '', note: (err as Error).message.split('\n')[0] });
    }
  }

  console.log('');
  console.log(formatTable(figures));
  if (args.json) writeFileSync(args.json, JSON.stringify({ machine: machineInfo(), results: raw }, null, 2));
  if (figures.some((f) => f.name.endsWith('FAILED'))) process.exitCode = 1;
}

await main();
