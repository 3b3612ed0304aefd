import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..');
const out = join(root, 'src/shared/api/schemas/generated');

describe('gen-schemas', () => {
  it('has produced the definitions and the kind index (vitest global setup runs it)', () => {
    const doc = JSON.parse(readFileSync(join(out, 'definitions.json'), 'utf8')) as { $schema: string; definitions: Record<string, unknown> };
    expect(doc.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(Object.keys(doc.definitions).length).toBeGreaterThan(500);
    const kinds = JSON.parse(readFileSync(join(out, 'kinds.json'), 'utf8')) as { group: string; version: string; kind: string; definition: string }[];
    expect(kinds).toContainEqual({ group: 'apps', version: 'v1', kind: 'Deployment', definition: 'io.k8s.api.apps.v1.Deployment' });
  });

  it('stamps the output with what it was made from', () => {
    const stamp = JSON.parse(readFileSync(join(out, 'stamp.json'), 'utf8')) as { kubernetesTypes: string; script: string };
    const pkg = JSON.parse(readFileSync(join(root, 'node_modules/kubernetes-types/package.json'), 'utf8')) as { version: string };
    expect(stamp.kubernetesTypes).toBe(pkg.version);
    expect(stamp.script).toMatch(/^[0-9a-f]{16}$/);
  });

  it('does nothing when the stamp matches', () => {
    const before = statSync(join(out, 'definitions.json')).mtimeMs;
    const stdout = execFileSync(process.execPath, [join(root, 'scripts/gen-schemas.mjs')], { cwd: root, encoding: 'utf8' });
    expect(stdout).toBe('');
    expect(statSync(join(out, 'definitions.json')).mtimeMs).toBe(before);
  });
});
