// Before and after: the engine case of another revision and of this working tree, both as bundles (as
// `npm run bench` runs them), one child process per run, alternated in pairs (base first, then this tree
// first, …). On a 2-core machine a single run moves by ±10% with the machine's load; what two runs next to each
// other differ by moves far less, so the pairs' means and ratios can show a change of a few percent.
//
//   node --expose-gc --import tsx bench/ab.ts <base-revision> [--sizes 300x3000,1000x10000] [--pairs 6]
//
// The base revision is checked out into a temporary git worktree (sharing this tree's node_modules), its schemas
// generated and its bundle built with its own bench/lib/bundle.ts; the worktree is removed at the end.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnCase } from './lib/case-process';
import { median } from './lib/report';

const repoDir = dirname(dirname(fileURLToPath(import.meta.url)));
const bundlesDir = join(repoDir, 'node_modules', '.cache', 'kubeplay-ab');

interface Run {
  wallMs: number;
  cpuMs: number;
  podsPerSecond: number;
}

function parseArgs(argv: string[]): { base: string; sizes: string[]; pairs: number } {
  const [base, ...rest] = argv;
  if (!base || base.startsWith('--')) throw new Error('usage: bench/ab.ts <base-revision> [--sizes 300x3000,1000x10000] [--pairs 6]');
  let sizes = ['300x3000'];
  let pairs = 6;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--sizes') sizes = rest[++i]!.split(',');
    else if (rest[i] === '--pairs') pairs = Number(rest[++i]);
    else throw new Error(`unknown argument ${rest[i]}`);
  }
  if (!Number.isInteger(pairs) || pairs < 1) throw new Error('--pairs takes a positive integer');
  return { base, sizes, pairs };
}

/** Builds tree's bench bundle with tree's own builder and keeps a copy under label (both trees share one cache). */
function buildBundle(tree: string, label: string): string {
  const script = `const m = await import(${JSON.stringify(join(tree, 'bench', 'lib', 'bundle.ts'))}); console.log(await m.buildBenchBundle());`;
  const built = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: tree, encoding: 'utf8' }).trim().split('\n').pop()!;
  const dest = join(bundlesDir, label);
  rmSync(dest, { recursive: true, force: true });
  cpSync(dirname(built), dest, { recursive: true });
  return join(dest, 'run.mjs');
}

/** The engine case of one bundle, in a child process of its own. */
function runCase(bundle: string, size: string): Promise<Run> {
  return spawnCase<Run>({ execArgv: ['--expose-gc'], script: bundle, form: 'bundle' }, 'engine', size);
}

const mean = (xs: number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

async function main(): Promise<void> {
  const { base, sizes, pairs } = parseArgs(process.argv.slice(2));
  const rev = execFileSync('git', ['rev-parse', '--short', base], { cwd: repoDir, encoding: 'utf8' }).trim();
  const tree = mkdtempSync(join(tmpdir(), `kubeplay-ab-${rev}-`));
  try {
    execFileSync('git', ['worktree', 'add', '--detach', tree, rev], { cwd: repoDir, stdio: 'ignore' });
    symlinkSync(join(repoDir, 'node_modules'), join(tree, 'node_modules'));
    if (!existsSync(join(tree, 'bench', 'lib', 'bundle.ts'))) throw new Error(`${rev} has no bench/lib/bundle.ts to build its bundle with`);
    execFileSync(process.execPath, ['scripts/gen-schemas.mjs'], { cwd: tree, stdio: 'ignore' });
    const bundles = { base: buildBundle(tree, 'base'), head: buildBundle(repoDir, 'head') };
    console.log(`engine, bundles: ${rev} (base) against this working tree (head), ${pairs} pairs per size, alternating which runs first`);
    for (const size of sizes) {
      const runs = { base: [] as Run[], head: [] as Run[] };
      for (let i = 0; i < pairs; i++) {
        const order = i % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const);
        for (const side of order) runs[side].push(await runCase(bundles[side], size));
        const [b, h] = [runs.base[i]!, runs.head[i]!];
        console.log(`  ${size} pair ${i + 1}: base ${b.podsPerSecond.toFixed(0)} pods/s (${b.wallMs.toFixed(0)} ms), head ${h.podsPerSecond.toFixed(0)} pods/s (${h.wallMs.toFixed(0)} ms)`);
      }
      const ratios = runs.head.map((h, i) => h.podsPerSecond / runs.base[i]!.podsPerSecond);
      const faster = ratios.filter((r) => r > 1).length;
      const pps = (rs: Run[]): string => mean(rs.map((r) => r.podsPerSecond)).toFixed(0);
      const cpu = (rs: Run[]): string => mean(rs.map((r) => r.cpuMs)).toFixed(0);
      console.log(
        `${size}: base ${pps(runs.base)} pods/s (cpu ${cpu(runs.base)} ms), head ${pps(runs.head)} pods/s (cpu ${cpu(runs.head)} ms); ` +
          `head/base per pair: median ${median(ratios).toFixed(3)}, mean ${mean(ratios).toFixed(3)}; head faster in ${faster} of ${pairs}`,
      );
    }
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: repoDir, stdio: 'ignore' });
    rmSync(tree, { recursive: true, force: true });
  }
}

await main();
