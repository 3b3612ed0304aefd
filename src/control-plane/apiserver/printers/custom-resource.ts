// The table convertor of custom resources (apiextensions-apiserver pkg/registry/customresource/tableconvertor):
// NAME, then the CRD version's additionalPrinterColumns, or AGE when it declares none
// (serveDefaultColumnsIfEmpty). Cells come from each column's JSONPath; "date" columns print as ages.
import type { KubeObject } from '../../../shared/api/types';
import { humanDuration } from '../../../shared/lib/duration';
import { findResults, parseJsonPath, printResults, type JsonPath } from './jsonpath';
import { column, nameColumn, objectMeta, type KindPrinter, type TableCell, type TableColumnDefinition } from './table';

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

const defaultColumns: PrinterColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' }];

/** The printer columns a CRD declares for the served version (spec.versions[].additionalPrinterColumns). */
export function printerColumnsOf(crd: KubeObject | undefined, version: string): PrinterColumn[] {
  const versions = ((crd as { spec?: { versions?: { name?: string; additionalPrinterColumns?: PrinterColumn[] }[] } } | undefined)?.spec?.versions ?? []);
  const v = versions.find((x) => x.name === version);
  const cols = v?.additionalPrinterColumns ?? [];
  return cols.length > 0 ? cols : defaultColumns;
}

/** A printer for a custom resource with the given columns (already defaulted). */
export function customResourcePrinter(columns: PrinterColumn[]): KindPrinter {
  const paths: (JsonPath | undefined)[] = columns.map((c) => {
    try {
      return parseJsonPath(`{${c.jsonPath}}`);
    } catch {
      return undefined;
    }
  });
  const headers: TableColumnDefinition[] = [
    nameColumn(),
    ...columns.map((c) => ({
      ...column(c.name, c.type, c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`, { priority: c.priority ?? 0 }),
      format: c.format ?? '',
    })),
  ];
  return {
    columns: headers,
    cells(obj, { now }) {
      const cells: TableCell[] = [obj.metadata?.name ?? ''];
      columns.forEach((c, i) => {
        const path = paths[i];
        let results: unknown[][];
        try {
          results = path ? findResults(path, obj, { allowMissingKeys: true }) : [];
        } catch {
          results = [];
        }
        if (results.length === 0 || results[0].length === 0) {
          cells.push(null);
          return;
        }
        // Simple JSON paths yield one result (or none, handled above).
        const value = results[0][0];
        if (c.type === 'string') {
          cells.push(printResults([value]));
          return;
        }
        cells.push(cellForJSONValue(c.type, value, now));
      });
      return cells;
    },
  };
}

function cellForJSONValue(type: string, value: unknown, now: number): TableCell {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = Date.parse(value);
      if (Number.isNaN(t)) return '<invalid>';
      return humanDuration(now - t);
    }
    default:
      return null;
  }
}

/** The default table convertor (apiserver pkg/registry/rest/table.go): NAME and CREATED AT (RFC 3339, UTC). */
export const defaultPrinter: KindPrinter = {
  columns: [nameColumn(), column('Created At', 'date', `${objectMeta}#creationTimestamp`)],
  cells(obj) {
    const ts = obj.metadata?.creationTimestamp;
    const t = ts ? Date.parse(ts) : NaN;
    const created = Number.isNaN(t) ? '0001-01-01T00:00:00Z' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return [obj.metadata?.name ?? '', created];
  },
};
