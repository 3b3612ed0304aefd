// What "Import cluster" tells the user: how many objects the API server accepted, and why the others were refused
// (each with its document number, as kubectl apply -f prints one line per object).
import type { ApplyResult } from '../../../shared/protocol/methods';

export interface ImportSummary {
  applied: number;
  failed: number;
  /** "document 3: configmaps \"x\" is forbidden: …" for each refused object. */
  errors: string[];
}

export function summarizeImport(result: ApplyResult): ImportSummary {
  const errors: string[] = [];
  let applied = 0;
  for (const o of result.outcomes) {
    if (o.ok) applied++;
    else errors.push(`document ${o.document}: ${o.status.message}`);
  }
  return { applied, failed: errors.length, errors };
}

export function importNotice(s: ImportSummary): string {
  const objects = (n: number) => `${n} object${n === 1 ? '' : 's'}`;
  return s.failed === 0 ? `Imported ${objects(s.applied)}.` : `Imported ${objects(s.applied)}; ${objects(s.failed)} refused.`;
}
