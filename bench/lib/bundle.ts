// The Node benchmarks run the control plane as the app ships it: bundled and minified by the app's own bundler
// (Vite), not transformed module by module by tsx. tsx is a development loader: it wraps every named function
// in a keepNames call (a property dictionary on each closure; about 6 KiB per node of the cluster) and keeps a
// loader record and unminified code per module (about 10 MiB of heap before the cluster boots). Those bytes and
// their cost are the loader's, not kubeplay's: the worker the page runs has none of them.
//
// `npm run bench -- --source` runs the cases from source through tsx instead (readable names in CPU profiles).
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(dirname(fileURLToPath(import.meta.url)));
const repoDir = dirname(benchDir);
/** Inside the repository, so the bundle's external imports (webernetes, yaml) resolve from its node_modules. */
const outDir = join(repoDir, 'node_modules', '.cache', 'kubeplay-bench');

/**
 * Builds bench/run.ts and everything it imports into one minified ES module (packages stay external) and
 * returns its path. The files the cases read beside their own module (the webernetes resolve hook) are copied
 * to the same place relative to it.
 */
export async function buildBenchBundle(): Promise<string> {
  const { build } = await import('vite');
  const entry = join(benchDir, 'run.ts');
  await build({
    configFile: false,
    root: repoDir,
    logLevel: 'warn',
    build: {
      ssr: relative(repoDir, entry),
      outDir,
      emptyOutDir: true,
      copyPublicDir: false,
      minify: true,
      target: 'es2022',
      sourcemap: false,
      rollupOptions: { output: { entryFileNames: '[name].mjs' } },
    },
  });
  const hook = join('lib', 'extensionless-hook.mjs');
  mkdirSync(join(outDir, 'lib'), { recursive: true });
  copyFileSync(join(benchDir, hook), join(outDir, hook));
  return join(outDir, 'run.mjs');
}

/** node's flags without the tsx loader (--import tsx, --import=tsx): the bundle needs no loader. */
export function withoutTsx(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if ((a === '--import' || a === '--loader' || a === '--require' || a === '-r') && /(^|\/)tsx(\/|$)/.test(execArgv[i + 1] ?? '')) {
      i++;
      continue;
    }
    if (/^--(import|loader|require)=.*\btsx\b/.test(a)) continue;
    out.push(a);
  }
  return out;
}
