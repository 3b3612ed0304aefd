// intstr.IntOrString (apimachinery/pkg/util/intstr): a field that holds either an integer or a string such as
// "25%" (maxSurge, maxUnavailable, targetPort, minAvailable). In JSON it is simply a number or a string.

export type IntOrString = number | string;

export function isIntOrString(v: unknown): v is IntOrString {
  return typeof v === 'number' || typeof v === 'string';
}

/** The value as kubectl and error messages print it: 1 → "1", "25%" → "25%". */
export function intOrStringToString(v: IntOrString): string {
  return typeof v === 'number' ? String(v) : v;
}

/** intstr.IntValue(): the integer, or the string parsed as an integer (0 when it is not one, as strconv.Atoi's error is ignored). */
export function intOrStringIntValue(v: IntOrString): number {
  if (typeof v === 'number') return v;
  return /^[+-]?[0-9]+$/.test(v) ? Number.parseInt(v, 10) : 0;
}

/**
 * GetScaledValueFromIntOrPercent: an integer as is, or a percentage of total rounded up or down.
 * Strings that are not "<int>%" are an error, exactly as in Kubernetes ("invalid value for IntOrString: …").
 * Example: "25%" of 10 replicas → 3 rounded up (maxSurge), 2 rounded down (maxUnavailable).
 */
export function getScaledValueFromIntOrPercent(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined || v === null) throw new Error('nil value for IntOrString');
  if (typeof v === 'number') return v;
  if (!v.endsWith('%')) throw new Error('invalid value for IntOrString: invalid type: string is not a percentage');
  const digits = v.slice(0, -1);
  if (!/^[+-]?[0-9]+$/.test(digits)) {
    throw new Error(`invalid value for IntOrString: invalid value ${JSON.stringify(v)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax`);
  }
  const pct = Number.parseInt(digits, 10);
  const scaled = (pct * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** The percentage of a "N%" string, or undefined when the value is not a well-formed percentage. */
export function percentValue(v: IntOrString): number | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^([0-9]+)%$/.exec(v);
  return m ? Number.parseInt(m[1], 10) : undefined;
}
