// field.Error from apimachinery/pkg/util/validation/field/errors.go: same type strings and rendering.

export const FieldErrorType = {
  NotFound: 'FieldValueNotFound',
  Required: 'FieldValueRequired',
  Duplicate: 'FieldValueDuplicate',
  Invalid: 'FieldValueInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  TooLong: 'FieldValueTooLong',
  TooMany: 'FieldValueTooMany',
  TooFew: 'FieldValueTooFew',
  TypeInvalid: 'FieldValueTypeInvalid',
  Internal: 'InternalError',
} as const;
export type FieldErrorType = (typeof FieldErrorType)[keyof typeof FieldErrorType];

const typeStrings: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTooFew: 'Too few',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

/** Marker for "no bad value": Kubernetes omits the value part for Required, Forbidden, TooLong… */
export const omitValue: unique symbol = Symbol('omitValue');

export interface FieldError {
  type: FieldErrorType;
  field: string; // "spec.template.spec.containers[0].image"
  badValue: unknown | typeof omitValue;
  detail: string;
}

/** Renders a bad value the way field.Error does: strings quoted, numbers and bools bare, others as JSON. */
export function formatBadValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value === null || value === undefined) return 'null';
  return JSON.stringify(value);
}

/** "<field>: <Type>[: <value>][: <detail>]"; withField=false gives ErrorBody() (what causes[].message holds). */
export function fieldErrorToString(e: FieldError, withField = true): string {
  let body = typeStrings[e.type];
  if (e.badValue !== omitValue) body += `: ${formatBadValue(e.badValue)}`;
  if (e.detail) body += `: ${e.detail}`;
  return withField ? `${e.field}: ${body}` : body;
}

export const fieldErr = {
  required: (field: string, detail = ''): FieldError => ({ type: FieldErrorType.Required, field, badValue: omitValue, detail }),
  invalid: (field: string, value: unknown, detail: string): FieldError => ({ type: FieldErrorType.Invalid, field, badValue: value, detail }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldError => ({
    type: FieldErrorType.NotSupported,
    field,
    badValue: value,
    detail: supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
  }),
  forbidden: (field: string, detail: string): FieldError => ({ type: FieldErrorType.Forbidden, field, badValue: omitValue, detail }),
  duplicate: (field: string, value: unknown): FieldError => ({ type: FieldErrorType.Duplicate, field, badValue: value, detail: '' }),
  notFound: (field: string, value: unknown): FieldError => ({ type: FieldErrorType.NotFound, field, badValue: value, detail: '' }),
  tooLong: (field: string, maxBytes: number): FieldError => ({
    type: FieldErrorType.TooLong,
    field,
    badValue: omitValue,
    detail: `may not be more than ${maxBytes} bytes`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: FieldErrorType.TooMany,
    field,
    badValue: actual,
    detail: `must have at most ${max} items`,
  }),
  typeInvalid: (field: string, value: unknown, detail: string): FieldError => ({ type: FieldErrorType.TypeInvalid, field, badValue: value, detail }),
  internal: (field: string, detail: string): FieldError => ({ type: FieldErrorType.Internal, field, badValue: omitValue, detail }),
};

/** Builds field paths like field.Path: child("spec").child("containers").index(0) → "spec.containers[0]". */
export class FieldPath {
  private constructor(private readonly parts: string) {}
  static root(name = ''): FieldPath {
    return new FieldPath(name);
  }
  child(name: string, ...more: string[]): FieldPath {
    let p = this.parts ? `${this.parts}.${name}` : name;
    for (const m of more) p += `.${m}`;
    return new FieldPath(p);
  }
  index(i: number): FieldPath {
    return new FieldPath(`${this.parts}[${i}]`);
  }
  key(k: string): FieldPath {
    return new FieldPath(`${this.parts}[${k}]`);
  }
  toString(): string {
    return this.parts;
  }
}
