// resource.Quantity as validation reads it: values in stored objects are strings (or numbers from YAML) that may
// not parse. These helpers turn a failed parse into `undefined` so each check can decide what that means.
import {
  type Quantity,
  compareQuantities as cmp,
  parseQuantityJSON,
  quantityToString,
  sign,
  toNumber,
} from '../../../../shared/lib/quantity';

export function parseQuantityOrUndefined(q: unknown): Quantity | undefined {
  try {
    return parseQuantityJSON(q);
  } catch {
    return undefined;
  }
}

/** The quantity's approximate value, or undefined when it is not a valid quantity. */
export function quantityValue(q: unknown): number | undefined {
  if (q === undefined || q === null) return undefined;
  const parsed = parseQuantityOrUndefined(q);
  return parsed ? toNumber(parsed) : undefined;
}

export function quantitySign(q: unknown): -1 | 0 | 1 | undefined {
  const parsed = parseQuantityOrUndefined(q);
  return parsed ? sign(parsed) : undefined;
}

export function isValidQuantity(q: unknown): boolean {
  return q !== undefined && q !== null && parseQuantityOrUndefined(q) !== undefined;
}

/** Quantity.String(), as error messages print it ("2", "500m", "1Gi"); the raw text when it does not parse. */
export function quantityString(q: unknown): string {
  const parsed = q === undefined || q === null ? undefined : parseQuantityOrUndefined(q);
  return parsed ? quantityToString(parsed) : String(q ?? '');
}

/** Quantity.Cmp; undefined when either side is not a quantity. */
export function compareQuantities(a: unknown, b: unknown): number | undefined {
  const x = a === undefined || a === null ? undefined : parseQuantityOrUndefined(a);
  const y = b === undefined || b === null ? undefined : parseQuantityOrUndefined(b);
  return x && y ? cmp(x, y) : undefined;
}
