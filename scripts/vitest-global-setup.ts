// Generates the Kubernetes schemas (from kubernetes-types) before tests, if a build has not already.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export default function setup(): void {
  if (existsSync('scripts/gen-schemas.mjs')) execFileSync(process.execPath, ['scripts/gen-schemas.mjs'], { stdio: 'inherit' });
}
