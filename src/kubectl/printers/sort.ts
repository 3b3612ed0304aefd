// kubectl get --sort-by (kubectl pkg/cmd/get/sorter.go): order a Table's rows (by their objects) or a List's items
// by the first value a relaxed JSONPath finds. Numbers compare as numbers, strings as quantities when both parse
// ("100Mi" < "1Gi"), else byte-wise; objects without the field sort first.
//
//   sortTableRows(table, '.metadata.creationTimestamp');
//   const items = sortObjects(list.items, '{.status.podIP}');
import { findResults, parseJsonPath, type JsonPath } from '../../control-plane/apiserver/printers/jsonpath';
import type { Table } from '../../control-plane/apiserver/printers/table';
import type { KubeObject } from '../../shared/api/types';
import { compareQuantities, parseQuantity } from '../../shared/lib/quantity';
import { CommandError } from '../resource-builder';
import { relaxedJsonPathExpression } from './jsonpath';

function parser(field: string): JsonPath {
  try {
    return parseJsonPath(field);
  } catch (err) {
    throw new CommandError(`sorting error: ${(err as Error).message}`);
  }
}

function firstValue(jp: JsonPath, obj: unknown): { found: boolean; value?: unknown } {
  const results = findResults(jp, obj, { allowMissingKeys: true });
  if (results.length === 0 || results[0].length === 0) return { found: false };
  return { found: true, value: results[0][0] };
}

function tryQuantity(s: string): ReturnType<typeof parseQuantity> | undefined {
  try {
    return parseQuantity(s);
  } catch {
    return undefined;
  }
}

/** isLess for the JSON values kubectl sees in unstructured objects. */
function isLess(a: unknown, b: unknown): boolean {
  if (a === null && b === null) return false;
  if (a === null) return true;
  if (b === null) return false;
  if (typeof a === 'number' && typeof b === 'number') return a < b;
  if (typeof a === 'string' && typeof b === 'string') {
    const qa = tryQuantity(a);
    const qb = qa ? tryQuantity(b) : undefined;
    if (qa && qb) return compareQuantities(qa, qb) < 0;
    return a < b;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) if (!isLess(a[i], b[i])) return false;
    return true;
  }
  const kind = (v: unknown): string => (v === null ? 'nil' : Array.isArray(v) ? 'slice' : typeof v === 'object' ? 'map' : typeof v);
  throw new CommandError(`unsortable type: ${kind(a) === 'map' ? 'map[string]interface {}' : kind(a)}`);
}

function sortBy<T>(items: T[], values: { found: boolean; value?: unknown }[]): T[] {
  const indexed = items.map((item, i) => ({ item, v: values[i] }));
  // Stable, like Go's insertion sort for small inputs.
  indexed.sort((x, y) => {
    const less = (i: typeof x, j: typeof x): boolean => (!i.v.found ? true : !j.v.found ? false : isLess(i.v.value, j.v.value));
    if (less(x, y) && !less(y, x)) return -1;
    if (less(y, x) && !less(x, y)) return 1;
    return 0;
  });
  return indexed.map((e) => e.item);
}

/** TableSorter: sorts the rows of a Table whose rows carry their objects (includeObject=Object). */
export function sortTableRows(table: Table, sortField: string): void {
  if (table.rows.length <= 1) return;
  let field: string;
  try {
    field = relaxedJsonPathExpression(sortField);
  } catch {
    field = sortField;
  }
  const jp = parser(field);
  const values = table.rows.map((r) => firstValue(jp, r.object));
  if (!values.some((v) => v.found)) throw new CommandError(`couldn't find any field with path ${JSON.stringify(field)} in the list of objects`);
  table.rows = sortBy(table.rows, values);
}

/** SortObjects: the items sorted by the field. */
export function sortObjects(items: KubeObject[], sortField: string): KubeObject[] {
  if (items.length === 0) return items;
  const field = relaxedJsonPathExpression(sortField);
  const jp = parser(field);
  const values = items.map((o) => firstValue(jp, o));
  if (!values.some((v) => v.found)) throw new CommandError(`couldn't find any field with path ${JSON.stringify(field)} in the list of objects`);
  return sortBy(items, values);
}
