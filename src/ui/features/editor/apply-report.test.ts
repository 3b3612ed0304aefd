import { describe, expect, it } from 'vitest';
import type { Status } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { parseManifests } from '../../../shared/lib/yaml';
import type { ApplyOutcome } from '../../../shared/protocol/methods';
import { applyReport, kubectlName, statusFieldPaths, syntaxMarkers, syntaxReport } from './apply-report';

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
spec:
  replica: 3
`;
const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: demo
`;

function badRequest(message: string, causes?: Status['details']): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400, ...(causes ? { details: causes } : {}) } as Status;
}

describe('apply report', () => {
  it('names objects like kubectl: kind.group/name, no group for the core API', () => {
    expect(kubectlName('apps/v1', 'Deployment', 'nginx')).toBe('deployment.apps/nginx');
    expect(kubectlName('v1', 'ConfigMap', 'demo')).toBe('configmap/demo');
  });

  it('reports each document in order and marks the refused one at the field its message names', () => {
    const manifest = `${configMap}---\n${deployment}`;
    const outcomes: ApplyOutcome[] = [
      { ok: true, action: 'created', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo' } } as KubeObject },
      {
        ok: false,
        document: 2,
        line: 6,
        status: badRequest('failed to create typed patch object (apps/v1, Kind=Deployment): .spec.replica: field not declared in schema'),
      },
    ];
    const report = applyReport(manifest, outcomes);
    expect(report.lines).toEqual([
      { ok: true, text: 'configmap/demo created' },
      { ok: false, text: 'Error from server (BadRequest): failed to create typed patch object (apps/v1, Kind=Deployment): .spec.replica: field not declared in schema' },
    ]);
    // "replica:" is on line 11 of the whole manifest (5 lines of ConfigMap, the separator, then line 6 of the Deployment).
    expect(report.markers).toHaveLength(1);
    expect(report.markers[0]).toMatchObject({ line: 11, column: 3 });
  });

  it('takes field paths from causes and from strict-decoding messages', () => {
    const status = badRequest('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicaz"', {
      causes: [{ field: 'spec.template.spec.containers[0].image', message: 'Required value' }],
    });
    expect(statusFieldPaths(status)).toEqual(['spec.template.spec.containers[0].image', 'spec.replicaz']);
  });

  it('reports syntax errors with line and column, and says nothing was applied', () => {
    const docs = parseManifests(`${configMap}---\nmetadata: [unclosed\n`);
    const markers = syntaxMarkers(docs);
    expect(markers).toHaveLength(1);
    expect(markers[0].line).toBeGreaterThanOrEqual(6);
    const lines = syntaxReport(docs);
    expect(lines).toHaveLength(1);
    expect(lines[0].text).toMatch(/^error: document 2: error parsing manifest at line \d+, column \d+: .* \(nothing was applied\)$/);
  });

  it('names the position once: the parser\'s own "at line N, column M" suffix is dropped', () => {
    const lines = syntaxReport(parseManifests('apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: tabbed\n'));
    expect(lines.map((l) => l.text)).toEqual(['error: document 1: error parsing manifest at line 4, column 1: Tabs are not allowed as indentation (nothing was applied)']);
  });

  it('reports an unknown kind as kubectl\'s REST mapper does, not as a server NotFound', () => {
    const manifest = 'apiVersion: apps/v1\nkind: Deploymnt\nmetadata:\n  name: web\n  namespace: demo\n';
    const status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'no matches for kind "Deploymnt" in version "apps/v1"', reason: 'NotFound', code: 404 } as const;
    const { lines } = applyReport(manifest, [{ ok: false, document: 1, status }]);
    expect(lines).toEqual([
      {
        ok: false,
        text: 'error: resource mapping not found for name: "web" namespace: "demo" from "editor": no matches for kind "Deploymnt" in version "apps/v1"\nensure CRDs are installed first',
      },
    ]);
  });

  it('says so when the manifest holds no objects', () => {
    expect(applyReport('', []).lines).toEqual([{ ok: false, text: 'error: no objects passed to apply' }]);
  });
});
