// describe.go's PrefixWriter (two spaces per level, terminal escapes neutralised) over a buffer that is laid out
// with the standard library's tabwriter at the end (tabbedString), and the small printers every describer
// shares: multi-line labels, annotations, taints and tolerations, times and durations as kubectl formats them.
import { humanDuration } from '../../shared/lib/duration';
import type { Taint, Toleration } from 'kubernetes-types/core/v1';
import { tabbed } from './tabwriter';

export const LEVEL_0 = 0;
export const LEVEL_1 = 1;
export const LEVEL_2 = 2;
export const LEVEL_3 = 3;
export const LEVEL_4 = 4;

/** cli-runtime printers.EscapeTerminal. */
export function escapeTerminal(s: string): string {
  return s.replace(/\x1b/g, '^[').replace(/\r/g, '\\r');
}

export interface PrefixWriter {
  /** Writes text at an indentation level (the prefix goes before the text only, not after its newlines). */
  write(level: number, text: string): void;
  /** fmt.Sprintln of the operands, without indentation. */
  writeLine(...operands: string[]): void;
}

export class BufferPrefixWriter implements PrefixWriter {
  private buffer = '';

  write(level: number, text: string): void {
    this.buffer += escapeTerminal('  '.repeat(level) + text);
  }

  writeLine(...operands: string[]): void {
    this.buffer += escapeTerminal(`${operands.join(' ')}\n`);
  }

  /** The text laid out as tabbedString does. */
  render(): string {
    return tabbed(this.buffer);
  }
}

/** NewNestedPrefixWriter: every write is indent levels deeper. */
export function nestedPrefixWriter(out: PrefixWriter, indent: number): PrefixWriter {
  return {
    write: (level, text) => out.write(level + indent, text),
    writeLine: (...operands) => out.write(indent, `${operands.join(' ')}\n`),
  };
}

/** Runs a describer body against a fresh writer and returns the laid-out text (tabbedString). */
export function tabbedString(fn: (w: PrefixWriter) => void): string {
  const w = new BufferPrefixWriter();
  fn(w);
  return w.render();
}

const lastApplied = 'kubectl.kubernetes.io/last-applied-configuration';
const maxAnnotationLen = 140;

export function printLabelsMultiline(w: PrefixWriter, title: string, labels: Record<string, string> | undefined, initialIndent = '', innerIndent = '\t'): void {
  w.write(LEVEL_0, `${initialIndent}${title}:${innerIndent}`);
  const keys = Object.keys(labels ?? {}).sort(byteOrder);
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  keys.forEach((key, i) => {
    if (i !== 0) {
      w.write(LEVEL_0, initialIndent);
      w.write(LEVEL_0, innerIndent);
    }
    w.write(LEVEL_0, `${key}=${labels![key]}\n`);
  });
}

export function printAnnotationsMultiline(w: PrefixWriter, title: string, annotations: Record<string, string> | undefined): void {
  w.write(LEVEL_0, `${title}:\t`);
  const keys = Object.keys(annotations ?? {})
    .filter((k) => k !== lastApplied)
    .sort(byteOrder);
  if (keys.length === 0) {
    w.writeLine('<none>');
    return;
  }
  const indent = '\t';
  keys.forEach((key, i) => {
    if (i !== 0) w.write(LEVEL_0, indent);
    const value = annotations![key].replace(/\n$/, '');
    if (byteLength(value) + byteLength(key) + 2 > maxAnnotationLen || value.includes('\n')) {
      w.write(LEVEL_0, `${key}:\n`);
      for (const s of value.split('\n')) w.write(LEVEL_0, `${indent}  ${shorten(s, maxAnnotationLen - 2)}\n`);
    } else {
      w.write(LEVEL_0, `${key}: ${value}\n`);
    }
  });
}

function shorten(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}...` : s;
}

function byteLength(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** Go's sort.Strings: byte order (code unit order is the same for the ASCII keys Kubernetes allows). */
export function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Taint.ToString(): key=value:effect, key:effect, key=value or key. */
export function taintToString(t: Taint): string {
  if (!t.effect) return t.value ? `${t.key}=${t.value}` : t.key;
  return t.value ? `${t.key}=${t.value}:${t.effect}` : `${t.key}:${t.effect}`;
}

export function printTaintsMultiline(w: PrefixWriter, title: string, taints: Taint[] | undefined): void {
  w.write(LEVEL_0, `${title}:\t`);
  if (!taints?.length) {
    w.writeLine('<none>');
    return;
  }
  const sorted = [...taints].sort((a, b) => byteOrder(`${a.effect},${a.key}`, `${b.effect},${b.key}`));
  sorted.forEach((t, i) => {
    if (i !== 0) w.write(LEVEL_0, '\t');
    w.write(LEVEL_0, `${taintToString(t)}\n`);
  });
}

export function printTolerationsMultiline(w: PrefixWriter, title: string, tolerations: Toleration[] | undefined, initialIndent = ''): void {
  w.write(LEVEL_0, `${initialIndent}${title}:\t`);
  if (!tolerations?.length) {
    w.writeLine('<none>');
    return;
  }
  const sorted = [...tolerations].sort((a, b) => byteOrder(a.key ?? '', b.key ?? ''));
  sorted.forEach((t, i) => {
    if (i !== 0) {
      w.write(LEVEL_0, initialIndent);
      w.write(LEVEL_0, '\t');
    }
    let text = t.key ?? '';
    if (t.value) text += `=${t.value}`;
    if (t.effect) text += `:${t.effect}`;
    if (t.operator === 'Exists' && !t.value) text += t.key || t.effect ? ' op=Exists' : 'op=Exists';
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) text += ` for ${t.tolerationSeconds}s`;
    w.write(LEVEL_0, `${text}\n`);
  });
}

// ------------------------------------------------------------------ values

export function stringOrNone(s: string | undefined): string {
  return s ? s : '<none>';
}

export function printBool(v: boolean | undefined): string {
  return v ? 'True' : 'False';
}

export function printBoolPtr(v: boolean | undefined): string {
  return v === undefined || v === null ? '<unset>' : printBool(v);
}

/** labels.FormatLabels: "a=b,c=d" sorted by key, "<none>" when empty. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  const keys = Object.keys(labels ?? {}).sort(byteOrder);
  return keys.length ? keys.map((k) => `${k}=${labels![k]}`).join(',') : '<none>';
}

// ------------------------------------------------------------------ time

const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** time.RFC1123Z in UTC (kubeplay's clock has no local zone): "Thu, 01 Jan 2026 00:00:00 +0000". */
export function rfc1123z(timestamp: string | undefined): string {
  const ms = timestamp ? Date.parse(timestamp) : NaN;
  // A zero metav1.Time formats as Go's zero time.
  if (Number.isNaN(ms)) return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${weekdays[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

/** translateTimestampSince: the age of a timestamp at `now`, "<unknown>" when unset. */
export function timestampSince(timestamp: string | undefined | null, now: number): string {
  if (!timestamp) return '<unknown>';
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? '<unknown>' : humanDuration(now - ms);
}
