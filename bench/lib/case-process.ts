// A benchmark case runs in a child process of its own (`<script> --child <bench> <size>`), so its heap figures
// and JIT state are its own; it prints one tagged line with its result as JSON for the parent to read.
import { spawn } from 'node:child_process';

export const resultTag = 'BENCH_RESULT ';

/** How a case's child process is started: node's flags and the script. */
export interface CaseRunner {
  execArgv: string[];
  script: string;
  /** "bundle" or "source", as the figures' heading says. */
  form: string;
}

/** Prints a case's result for the parent (the child's side). */
export function writeCaseResult(result: unknown): void {
  process.stdout.write(`${resultTag}${JSON.stringify(result)}\n`);
}

/** Runs one case in a child process and returns what it printed (the parent's side). */
export function spawnCase<T>(runner: CaseRunner, bench: string, size: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...runner.execArgv, runner.script, '--child', bench, size], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(resultTag));
      if (code !== 0 || !line) reject(new Error(`${bench} ${size}: child exited ${code}${out ? `\n${out}` : ''}`));
      else resolve(JSON.parse(line.slice(resultTag.length)) as T);
    });
  });
}
