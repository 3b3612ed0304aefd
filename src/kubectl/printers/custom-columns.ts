// kubectl's -o custom-columns=HEADER:.path,… printer (kubectl pkg/cmd/get/customcolumn.go): one column per spec,
// each cell the JSONPath's values joined with ",", "<none>" when the path finds nothing. The header line is
// printed once per printer (once per type in Go); layout through the tabwriter like every kubectl table.
//
//   const p = newCustomColumnsPrinter('NAME:.metadata.name,IMAGE:.spec.containers[*].image');
//   p.print(list, tabwriter);
import { findResults, goSprint, parseJsonPath, type JsonPath } from '../../control-plane/apiserver/printers/jsonpath';
import type { KubeObject } from '../../shared/api/types';
import { CommandError } from '../resource-builder';
import { relaxedJsonPathExpression } from './jsonpath';
import { escapeTerminal } from './table-printer';
import type { TabWriter } from './tabwriter';

export interface CustomColumn {
  header: string;
  /** The JSONPath template, "{.metadata.name}". */
  fieldSpec: string;
}

export interface CustomColumnsPrinter {
  readonly columns: CustomColumn[];
  /** Prints an object, or each item of a List, as rows (the header first, once). */
  print(obj: KubeObject, w: TabWriter): void;
}

/** NewCustomColumnsPrinterFromSpec: "HEADER:path,HEADER2:path2". */
export function parseCustomColumnsSpec(spec: string): CustomColumn[] {
  if (spec.length === 0) throw new CommandError('custom-columns format specified but no custom columns given');
  return spec.split(',').map((part) => {
    const i = part.indexOf(':');
    if (i < 0) throw new CommandError(`unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`);
    return { header: part.slice(0, i), fieldSpec: relaxedJsonPathExpression(part.slice(i + 1)) };
  });
}

export function newCustomColumnsPrinter(spec: string, options: { noHeaders?: boolean } = {}): CustomColumnsPrinter {
  const columns = parseCustomColumnsSpec(spec);
  const parsers: JsonPath[] = columns.map((c) => {
    try {
      return parseJsonPath(c.fieldSpec);
    } catch (err) {
      throw new CommandError((err as Error).message);
    }
  });
  let printedHeader = false;
  const printOne = (obj: unknown, w: TabWriter): void => {
    const cells = parsers.map((jp) => {
      const values = findResults(jp, obj, { allowMissingKeys: true });
      const strings: string[] = [];
      if (values.length === 0 || values[0].length === 0) strings.push('<none>');
      for (const arrValues of values) for (const v of arrValues) strings.push(escapeTerminal(goSprint(v)));
      return strings.join(',');
    });
    w.write(`${cells.join('\t')}\n`);
  };
  return {
    columns,
    print(obj, w) {
      if (!options.noHeaders && !printedHeader) {
        w.write(`${columns.map((c) => c.header).join('\t')}\n`);
        printedHeader = true;
      }
      const items = (obj as { items?: unknown }).items;
      if (Array.isArray(items)) for (const item of items) printOne(item, w);
      else printOne(obj, w);
    },
  };
}
