// kubectl's human-readable printer (cli-runtime pkg/printers/tableprinter.go HumanReadablePrinter): lays out the
// Tables the API server printed. Headers are the column names upper-cased; priority-1 columns only with -o wide;
// -A adds NAMESPACE, -L and --show-labels add label columns, --show-kind (or several kinds) prefixes names with
// "kind.group/". Headers are printed once per run of tables with the same columns (a watch prints them once).
//
//   const printer = new HumanReadablePrinter({ wide: false, withNamespace: true });
//   printer.printTable(table, tabwriter);   // NAMESPACE   NAME   READY   STATUS   RESTARTS   AGE …
import type { Table, TableCell, TableColumnDefinition, TableRow } from '../../control-plane/apiserver/printers/table';
import type { KubeObject } from '../../shared/api/types';
import type { TabWriter } from './tabwriter';

export interface PrintOptions {
  noHeaders?: boolean;
  /** -o wide: show priority > 0 columns. */
  wide?: boolean;
  /** -A: a leading NAMESPACE column. */
  withNamespace?: boolean;
  /** --show-kind (or several kinds requested): names as "<kind>[.<group>]/<name>", lower-cased. */
  withKind?: boolean;
  /** The GroupKind string of the objects ("Deployment.apps", "Pod"). */
  kind?: string;
  /** -L: one column per label key (header: the key's last path segment, upper-cased). */
  columnLabels?: string[];
  /** --show-labels: a LABELS column at the end. */
  showLabels?: boolean;
}

/** kubectl's --output-watch-events column values. */
const formattedEventType: Record<string, string> = {
  ADDED: 'ADDED   ',
  MODIFIED: 'MODIFIED',
  DELETED: 'DELETED ',
  ERROR: 'ERROR   ',
};

/** labels.FormatLabels. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort();
  if (keys.length === 0) return '<none>';
  return keys.map((k) => `${k}=${labels![k]}`).join(',');
}

function formatLabelHeaders(columnLabels: string[]): string[] {
  return columnLabels.map((l) => {
    const p = l.split('/');
    return p[p.length - 1].toUpperCase();
  });
}

/** fmt.Sprint of a cell: numbers without a fraction as integers, booleans as true/false. */
export function cellText(cell: TableCell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell.toFixed(0) : String(cell);
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  // Cut at the first line break (printTable), marking the cut with "...".
  const brk = cell.search(/[\f\n\r]/);
  return brk >= 0 ? `${escapeTerminal(cell.slice(0, brk))}...` : escapeTerminal(cell);
}

/** printers.EscapeTerminal: terminal control characters made visible. */
export function escapeTerminal(s: string): string {
  return s.replace(/\x1b/g, '^[').replace(/\r/g, '\\r');
}

export class HumanReadablePrinter {
  private lastColumns: TableColumnDefinition[] | undefined;
  private printedHeaders = false;

  constructor(readonly options: PrintOptions) {}

  /** PrintObj for a Table (optionally a watch event's, which adds the EVENT column). */
  printTable(input: Table, w: TabWriter, eventType?: string): void {
    const table: Table = { ...input, columnDefinitions: input.columnDefinitions ?? [], rows: (input.rows ?? []).map((r) => ({ ...r, cells: [...r.cells] })) };
    const local: PrintOptions = { ...this.options };
    if (this.printedHeaders && (table.columnDefinitions.length === 0 || sameColumns(table.columnDefinitions, this.lastColumns))) local.noHeaders = true;
    if (table.columnDefinitions.length === 0) table.columnDefinitions = this.lastColumns ?? [];
    else if (!sameColumns(table.columnDefinitions, this.lastColumns)) {
      this.lastColumns = table.columnDefinitions;
      this.printedHeaders = false;
    }
    if (table.rows.length > 0) this.printedHeaders = true;

    decorateTable(table, local);
    if (eventType) {
      table.columnDefinitions = [{ name: 'Event', type: 'string', format: '', description: '', priority: 0 }, ...table.columnDefinitions];
      for (const row of table.rows) row.cells = [formattedEventType[eventType] ?? eventType, ...row.cells];
    }
    printTable(table, w, local);
  }

  /**
   * The client-side fallback for objects the server did not print (--server-print=false): NAME and AGE
   * (printObjectMeta), headers once per run.
   */
  printObjectMeta(objects: KubeObject[], now: number, w: TabWriter, humanDuration: (ms: number) => string): void {
    const columns: TableColumnDefinition[] = [
      { name: 'Name', type: 'string', format: 'name', description: '', priority: 0 },
      { name: 'Age', type: 'string', format: '', description: '', priority: 0 },
    ];
    const rows: TableRow[] = objects.map((o) => {
      const ts = o.metadata?.creationTimestamp;
      const t = ts ? Date.parse(ts) : NaN;
      return { cells: [o.metadata?.name ?? '', Number.isNaN(t) ? '<unknown>' : humanDuration(now - t)], object: o };
    });
    this.printTable({ kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, columnDefinitions: columns, rows }, w);
  }
}

function sameColumns(a: TableColumnDefinition[] | undefined, b: TableColumnDefinition[] | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return a.every((c, i) => c.name === b[i].name && c.type === b[i].type && c.format === b[i].format && c.priority === b[i].priority && c.description === b[i].description);
}

/** decorateTable: namespace, kind prefix and label columns. */
function decorateTable(table: Table, options: PrintOptions): void {
  const columnLabels = options.columnLabels ?? [];
  const width = table.columnDefinitions.length + columnLabels.length + (options.withNamespace ? 1 : 0) + (options.showLabels ? 1 : 0);
  let columns = table.columnDefinitions;
  let nameColumn = -1;
  if (options.withKind && options.kind) nameColumn = columns.findIndex((c) => c.format === 'name' && c.type === 'string');

  if (width !== table.columnDefinitions.length) {
    const plain = (name: string): TableColumnDefinition => ({ name, type: 'string', format: '', description: '', priority: 0 });
    columns = [
      ...(options.withNamespace ? [plain('Namespace')] : []),
      ...table.columnDefinitions,
      ...formatLabelHeaders(columnLabels).map(plain),
      ...(options.showLabels ? [plain('Labels')] : []),
    ];
  }

  const includeLabels = columnLabels.length > 0 || !!options.showLabels;
  if (includeLabels || options.withNamespace || nameColumn !== -1) {
    for (const row of table.rows) {
      if (nameColumn !== -1) row.cells[nameColumn] = `${options.kind!.toLowerCase()}/${cellText(row.cells[nameColumn])}`;
      const meta = row.object?.metadata;
      if (!meta) {
        if (options.withNamespace) row.cells.unshift(null);
        while (row.cells.length < width) row.cells.push(null);
        continue;
      }
      if (options.withNamespace) row.cells.unshift(meta.namespace ?? '');
      if (includeLabels) {
        for (const key of columnLabels) row.cells.push(meta.labels?.[key] ?? '');
        if (options.showLabels) row.cells.push(formatLabels(meta.labels));
      }
    }
  }
  table.columnDefinitions = columns;
}

/** printTable: the header (unless noHeaders, or there are no rows), then one line per row. */
function printTable(table: Table, w: TabWriter, options: PrintOptions): void {
  const visible = (c: TableColumnDefinition): boolean => !!options.wide || c.priority === 0;
  if (!options.noHeaders) {
    if (table.rows.length === 0) return;
    w.write(`${table.columnDefinitions.filter(visible).map((c) => c.name.toUpperCase()).join('\t')}\n`);
  }
  for (const row of table.rows) {
    const cells: string[] = [];
    row.cells.forEach((cell, i) => {
      if (i >= table.columnDefinitions.length) return;
      if (!visible(table.columnDefinitions[i])) return;
      cells.push(cellText(cell));
    });
    w.write(`${cells.join('\t')}\n`);
  }
}
