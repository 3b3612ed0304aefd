// meta.k8s.io/v1 Table: what the API server answers when a client asks for `as=Table` (kubectl get). The
// server prints; clients only lay the cells out. Cells are strings, numbers, booleans or null (an empty cell).
//
//   { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '42' },
//     columnDefinitions: [{ name: 'Name', type: 'string', format: 'name', description: '…', priority: 0 }, …],
//     rows: [{ cells: ['web-0', '1/1', 'Running', '0', '5m'], object: { kind: 'PartialObjectMetadata', … } }] }
//
// Like the real server (pkg/printers/storage TableConvertor: GenerateOptions{Wide: true}), every row carries the
// cells of every column, priority 1 ("-o wide") ones included; the client decides which to show.
import type { KubeObject } from '../../../shared/api/types';
import { definition, resolveRef } from '../../../shared/api/schemas';
import { humanDuration } from '../../../shared/lib/duration';

export interface TableColumnDefinition {
  name: string;
  /** OpenAPI type: string, integer, number, boolean, date. */
  type: string;
  /** "name" for the column holding the object's name (kubectl prefixes it with the kind). */
  format: string;
  description: string;
  /** 0: always shown; 1: shown with -o wide. */
  priority: number;
}

export type TableCell = string | number | boolean | null;

export interface TableRowCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

export interface TableRow {
  cells: TableCell[];
  conditions?: TableRowCondition[];
  /** The object (includeObject=Object) or its PartialObjectMetadata (the default, includeObject=Metadata). */
  object?: KubeObject;
}

export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumnDefinition[];
  rows: TableRow[];
}

/** How much of each object a Table row carries (the includeObject query parameter). */
export type IncludeObjectPolicy = 'None' | 'Metadata' | 'Object';

/** What a printer needs besides the object: the time (AGE cells are computed by the server at request time). */
export interface PrintContext {
  now: number;
}

/** One kind's printer: its columns and the cells of one object (cells.length === columns.length). */
export interface KindPrinter {
  columns: TableColumnDefinition[];
  cells(obj: KubeObject, ctx: PrintContext): TableCell[];
  /** Row conditions (pods report Completed when they succeeded or failed). */
  conditions?(obj: KubeObject): TableRowCondition[] | undefined;
}

/** A column definition; descriptions may name a schema field ("io.k8s.api.core.v1.PodSpec#nodeName"). */
export function column(name: string, type: string, description: string, options: { priority?: number; format?: string } = {}): TableColumnDefinition {
  return { name, type, format: options.format ?? '', description: swaggerDoc(description), priority: options.priority ?? 0 };
}

/** The Name column every built-in printer starts with. */
export const nameColumn = (): TableColumnDefinition => column('Name', 'string', `${objectMeta}#name`, { format: 'name' });

/** The Age column (creationTimestamp, printed as a duration). */
export const ageColumn = (): TableColumnDefinition => column('Age', 'string', `${objectMeta}#creationTimestamp`);

export const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** "Definition#field" resolves to the field's description in the API schemas (the SwaggerDoc the real printers use). */
function swaggerDoc(text: string): string {
  const m = /^([\w.]+)#(\w+)$/.exec(text);
  if (!m) return text;
  const def = definition(m[1]);
  const prop = def?.properties?.[m[2]];
  if (!prop) return text;
  return prop.description ?? (prop.$ref ? (resolveRef(prop).description ?? '') : '');
}

/** translateTimestampSince: the age of an RFC 3339 timestamp at `now`, "<unknown>" when unset. */
export function translateTimestampSince(timestamp: string | undefined | null, now: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<unknown>';
  return humanDuration(now - t);
}

/** labels.FormatLabels: "k=v,…" sorted by key, "<none>" when empty. */
export function formatLabels(labels: Record<string, string> | undefined | null): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

/** layoutContainerCells: container names and images, comma-separated. */
export function layoutContainerCells(containers: readonly { name?: string; image?: string }[] | undefined): [string, string] {
  const list = containers ?? [];
  return [list.map((c) => c.name ?? '').join(','), list.map((c) => c.image ?? '').join(',')];
}

/** printBoolPtr: "True"/"False", "<unset>" when nil. */
export function printBoolPtr(value: boolean | undefined | null): string {
  if (value === undefined || value === null) return '<unset>';
  return value ? 'True' : 'False';
}

/** Reads a loosely typed field path of a plain JSON object. */
export function field(obj: unknown, ...path: (string | number)[]): unknown {
  let cur: unknown = obj;
  for (const p of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[p];
  }
  return cur;
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

export function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

export function arr<T = unknown>(v: unknown): T[] {
  return Array.isArray(v) ? (v as T[]) : [];
}

export function rec<T = unknown>(v: unknown): Record<string, T> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, T>) : {};
}
