// A compact field diff of two versions of one object, for "what changed": one line per changed leaf
// (spec.replicas: 3 → 2), arrays compared by index, bookkeeping fields left out, long values shortened.
import type { KubeObject } from '../../../shared/api/types';

export interface FieldChange {
  /** kubectl-style path: "spec.template.spec.containers[0].image". */
  path: string;
  op: 'add' | 'remove' | 'change';
  before?: string;
  after?: string;
}

/** Fields every write changes (or that only the API server keeps): they say nothing about what a request did. */
const ignored = new Set(['metadata.resourceVersion', 'metadata.managedFields']);

const valueCap = 60;

/** A value as one short line of JSON. */
export function shortValue(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > valueCap ? `${s.slice(0, valueCap - 1)}…` : s;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function join(path: string, key: string): string {
  if (!path) return key;
  // Keys with dots or slashes (annotations, labels) read as ["app.kubernetes.io/name"].
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function walk(a: unknown, b: unknown, path: string, out: FieldChange[], limit: number): void {
  if (out.length >= limit || ignored.has(path)) return;
  if (Object.is(a, b)) return;
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of [...keys].sort()) walk(a[k], b[k], join(path, k), out, limit);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}[${i}]`, out, limit);
    return;
  }
  if (a === undefined) out.push({ path, op: 'add', after: shortValue(b) });
  else if (b === undefined) out.push({ path, op: 'remove', before: shortValue(a) });
  else if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path, op: 'change', before: shortValue(a), after: shortValue(b) });
}

/** The leaves that differ between two versions, at most `limit` of them, in path order. */
export function objectChanges(before: KubeObject, after: KubeObject, limit = 30): FieldChange[] {
  const out: FieldChange[] = [];
  walk(before, after, '', out, limit);
  return out;
}

/** One line per change: "spec.replicas: 3 → 2", "+ metadata.labels.tier: \"web\"", "- spec.paused: true". */
export function formatChange(c: FieldChange): string {
  if (c.op === 'add') return `+ ${c.path}: ${c.after}`;
  if (c.op === 'remove') return `- ${c.path}: ${c.before}`;
  return `${c.path}: ${c.before} → ${c.after}`;
}

/**
 * The object's change by this request: the version at the committed revision against the one before it. The
 * page sees versions per frame, so a version may hold several writes; then the nearest later one is shown, said so.
 */
export function changeAt(versions: readonly KubeObject[], revision: number): { changes: FieldChange[]; from: string; to: string; exact: boolean } | undefined {
  const rv = (o: KubeObject) => Number(o.metadata.resourceVersion ?? 0);
  const i = versions.findIndex((v) => rv(v) >= revision);
  if (i <= 0) return undefined;
  return {
    changes: objectChanges(versions[i - 1], versions[i]),
    from: versions[i - 1].metadata.resourceVersion ?? '',
    to: versions[i].metadata.resourceVersion ?? '',
    exact: rv(versions[i]) === revision,
  };
}
