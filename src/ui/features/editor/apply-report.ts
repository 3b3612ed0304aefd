// Turns api/apply's outcomes into kubectl's report lines and editor markers. Field errors are placed with
// locateFieldPath on the document they came from; YAML syntax errors are found before anything is sent.
import type { Status } from '../../../shared/api/status';
import { parseApiVersion } from '../../../shared/api/types';
import type { ParsedDocument } from '../../../shared/lib/yaml';
import { locateFieldPath, parseManifests } from '../../../shared/lib/yaml';
import type { ApplyOutcome } from '../../../shared/protocol/methods';
import type { ApplyLine, EditorMarker } from '../../state/editor-slice';

/** kubectl's name for an object: "deployment.apps/nginx", "service/web". */
export function kubectlName(apiVersion: string, kind: string, name: string | undefined): string {
  const { group } = parseApiVersion(apiVersion);
  return `${kind.toLowerCase()}${group ? `.${group}` : ''}/${name ?? ''}`;
}

/** The markers of every YAML syntax error in the manifest; empty when it parses. */
export function syntaxMarkers(docs: readonly ParsedDocument[]): EditorMarker[] {
  const out: EditorMarker[] = [];
  for (const d of docs) {
    if (!d.error) continue;
    out.push({ message: d.error.message, line: d.error.line, column: d.error.column, endLine: d.error.line, endColumn: d.error.column + 1 });
  }
  return out;
}

export function syntaxReport(docs: readonly ParsedDocument[]): ApplyLine[] {
  return docs.flatMap((d, i) =>
    d.error ? [{ ok: false, text: `error: document ${i + 1}: error parsing manifest at line ${d.error.line}, column ${d.error.column}: ${withoutPosition(d.error.message)} (nothing was applied)` }] : [],
  );
}

/**
 * Paths named in decoding messages: strict decoding's `unknown field "spec.replica"` and server-side apply's
 * `.spec.replica: field not declared in schema`.
 */
const messagePaths = [/(?:unknown|duplicate) field "([^"]+)"/g, /(\.[^\s:]+): field not declared in schema/g];

function pathsInMessage(message: string): string[] {
  return messagePaths.flatMap((re) => [...message.matchAll(re)].map((m) => m[1]));
}

/** Field paths a Status points at: its causes' fields, and the paths its messages name. */
export function statusFieldPaths(status: Status): string[] {
  const paths: string[] = [];
  for (const c of status.details?.causes ?? []) {
    if (c.field) paths.push(c.field);
    paths.push(...pathsInMessage(c.message ?? ''));
  }
  paths.push(...pathsInMessage(status.message));
  return [...new Set(paths)];
}

function markerFor(doc: ParsedDocument, status: Status): EditorMarker | undefined {
  let fallback: EditorMarker | undefined;
  for (const path of statusFieldPaths(status)) {
    const pos = locateFieldPath(doc, path);
    if (!pos) continue;
    const marker = { message: status.message, line: pos.line, column: pos.column, endLine: pos.endLine, endColumn: pos.endColumn };
    if (pos.exact) return marker;
    fallback ??= marker;
  }
  return fallback;
}

export interface ApplyReport {
  lines: ApplyLine[];
  markers: EditorMarker[];
}

/** The parser's first message line without its own " at line N, column M:" suffix (the report already says where). */
function withoutPosition(message: string): string {
  return message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * An unknown kind is refused by kubectl's REST mapper before any request, so it reads as kubectl's error, not as
 * an API server's NotFound.
 */
function failureText(status: Status, doc: ParsedDocument | undefined): string {
  if (status.message.startsWith('no matches for kind ')) {
    const meta = (doc?.object as { metadata?: { name?: unknown; namespace?: unknown } } | undefined)?.metadata;
    const name = typeof meta?.name === 'string' ? meta.name : '';
    const namespace = typeof meta?.namespace === 'string' ? meta.namespace : '';
    return `error: resource mapping not found for name: ${JSON.stringify(name)} namespace: ${JSON.stringify(namespace)} from "editor": ${status.message}\nensure CRDs are installed first`;
  }
  return `Error from server (${status.reason || 'Unknown'}): ${status.message}`;
}

/** The report of an api/apply call on `manifest`: one line per document, a marker per refused document. */
export { parseManifests };

export function applyReport(manifest: string, outcomes: readonly ApplyOutcome[]): ApplyReport {
  const docs = parseManifests(manifest);
  const lines: ApplyLine[] = [];
  const markers: EditorMarker[] = [];
  for (const o of outcomes) {
    if (o.ok) {
      const m = o.object.metadata;
      lines.push({ ok: true, text: `${kubectlName(o.object.apiVersion, o.object.kind, m.name)} ${o.action}` });
      for (const w of o.warnings ?? []) lines.push({ ok: true, text: `Warning: ${w}` });
      continue;
    }
    const doc = docs[o.document - 1];
    lines.push({ ok: false, text: failureText(o.status, doc) });
    const marker = doc ? markerFor(doc, o.status) : undefined;
    const line = marker?.line ?? o.line ?? doc?.range.startLine ?? 1;
    markers.push(marker ?? { message: o.status.message, line, column: o.column ?? 1, endLine: line, endColumn: (o.column ?? 1) + 1 });
  }
  if (outcomes.length === 0) lines.push({ ok: false, text: 'error: no objects passed to apply' });
  return { lines, markers };
}
