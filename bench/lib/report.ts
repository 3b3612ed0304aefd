// What every benchmark returns: figures, each with its target (when the issue sets one), printed as a table.
export const TargetOp = { AtLeast: '>=', AtMost: '<=' } as const;
export type TargetOp = (typeof TargetOp)[keyof typeof TargetOp];

export interface Target {
  op: TargetOp;
  value: number;
}

export interface Figure {
  /** "engine 1000x10000 pods/s" */
  name: string;
  value: number;
  unit: string;
  target?: Target;
  /** Settings and side figures (virtual time, revisions, …), printed after the verdict. */
  note?: string;
}

export function verdict(f: Figure): 'PASS' | 'MISS' | 'info' {
  if (!f.target || !Number.isFinite(f.value)) return 'info';
  const ok = f.target.op === TargetOp.AtLeast ? f.value >= f.target.value : f.value <= f.target.value;
  return ok ? 'PASS' : 'MISS';
}

export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  const abs = Math.abs(v);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function formatTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) => [
    f.name,
    `${formatNumber(f.value)} ${f.unit}`,
    f.target ? `${f.target.op} ${formatNumber(f.target.value)} ${f.unit}` : '-',
    verdict(f),
    f.note ?? '',
  ]);
  const head = ['benchmark', 'figure', 'target', '', 'settings / notes'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
