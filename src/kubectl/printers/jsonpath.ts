// kubectl's -o jsonpath=… / jsonpath-as-json=… printer (cli-runtime pkg/printers/jsonpath.go) and the relaxed
// field expressions of custom-columns and --sort-by (RelaxedJSONPathExpression). The JSONPath dialect itself
// (client-go util/jsonpath) lives with the API server, which needs it for CRD printer columns.
//
//   const p = newJsonPathPrinter('{range .items[*]}{.metadata.name}{"\n"}{end}');
//   p.print(list)          // "web-0\nweb-1\n"
import {
  executeJsonPath,
  goSyntax,
  JsonPathError,
  parseJsonPath,
  type JsonPath,
} from '../../control-plane/apiserver/printers/jsonpath';
import { CommandError } from '../resource-builder';

export interface JsonPathPrinter {
  /** The text the template produces for obj (no newline added: kubectl prints exactly the template's output). */
  print(obj: unknown): string;
}

/** NewJSONPathPrinter: `error parsing jsonpath <template>, <err>` when the template does not parse. */
export function newJsonPathPrinter(template: string, options: { allowMissingKeys?: boolean; asJson?: boolean } = {}): JsonPathPrinter {
  let jp: JsonPath;
  try {
    jp = parseJsonPath(template);
  } catch (err) {
    throw new CommandError(`error parsing jsonpath ${template}, ${(err as Error).message}`);
  }
  const allowMissingKeys = options.allowMissingKeys ?? true;
  return {
    print(obj) {
      try {
        return executeJsonPath(jp, obj, { allowMissingKeys, asJson: options.asJson });
      } catch (err) {
        if (!(err instanceof JsonPathError)) throw err;
        const debug =
          `Error executing template: ${err.message}. Printing more information for debugging the template:\n` +
          `\ttemplate was:\n\t\t${template}\n` +
          `\tobject given to jsonpath engine was:\n\t\t${goSyntax(obj)}\n\n`;
        throw new CommandError(`error executing jsonpath ${JSON.stringify(template)}: ${debug}\n`);
      }
    },
  };
}

const jsonRegexp = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/;

/** RelaxedJSONPathExpression: "name1.name2", ".name1.name2", "{name1.name2}" and "{.name1.name2}" all mean {.name1.name2}. */
export function relaxedJsonPathExpression(pathExpression: string): string {
  if (pathExpression.length === 0) return pathExpression;
  const m = jsonRegexp.exec(pathExpression);
  if (!m) throw new CommandError("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'");
  return `{.${m[1] ?? m[2]}}`;
}
