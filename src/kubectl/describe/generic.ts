// GenericDescriberFor: for kinds without a describer of their own, the object's fields as nested "Smart Label:"
// lines (printUnstructuredContent), then its events.
import type { ResourceType } from '../../shared/api/resources';
import type { KubeObject } from '../../shared/api/types';
import type { Describer } from './context';
import { describeEvents, searchEvents } from './events';
import { safeEvents } from './pod';
import { byteOrder, LEVEL_0, printAnnotationsMultiline, printLabelsMultiline, tabbedString, type PrefixWriter } from './writer';

const commonAcronyms = ['API', 'URL', 'UID', 'OSB', 'GUID'];

/** fatih/camelcase.Split. */
function camelSplit(s: string): string[] {
  const classOf = (ch: string) => (/[a-z]/.test(ch) ? 1 : /[A-Z]/.test(ch) ? 2 : /[0-9]/.test(ch) ? 3 : 4);
  const runs: string[][] = [];
  let last = 0;
  for (const ch of s) {
    const c = classOf(ch);
    if (c === last && runs.length) runs[runs.length - 1].push(ch);
    else runs.push([ch]);
    last = c;
  }
  // "PDFLoader" → "PDF", "Loader": an upper run followed by a lower run gives its last letter to it.
  for (let i = 0; i < runs.length - 1; i++) {
    if (classOf(runs[i][0]) === 2 && classOf(runs[i + 1][0]) === 1) {
      runs[i + 1].unshift(runs[i].pop()!);
    }
  }
  return runs.filter((r) => r.length > 0).map((r) => r.join(''));
}

/** smartLabelFor: "creationTimestamp" → "Creation Timestamp", "uid" → "UID"; other characters: as is. */
export function smartLabelFor(field: string): string {
  if (/[^\p{L}-]/u.test(field)) return field;
  return camelSplit(field)
    .filter((p) => p !== '_')
    .map((p) => (commonAcronyms.includes(p.toUpperCase()) ? p.toUpperCase() : p.replace(/(^|[^\p{L}])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase())))
    .join(' ');
}

/** fmt's %v of a JSON scalar. */
function scalar(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

export function printUnstructuredContent(w: PrefixWriter, level: number, content: Record<string, unknown>, skipPrefix: string, skip: readonly string[]): void {
  for (const field of Object.keys(content).sort(byteOrder)) {
    const value = content[field];
    const skipExpr = `${skipPrefix}.${field}`;
    if (skip.includes(skipExpr)) continue;
    if (Array.isArray(value)) {
      w.write(level, `${smartLabelFor(field)}:\n`);
      for (const child of value) {
        if (child !== null && typeof child === 'object' && !Array.isArray(child)) printUnstructuredContent(w, level + 1, child as Record<string, unknown>, skipExpr, skip);
        else w.write(level + 1, `${Array.isArray(child) ? `[${child.map(scalar).join(' ')}]` : scalar(child)}\n`);
      }
    } else if (value !== null && typeof value === 'object') {
      w.write(level, `${smartLabelFor(field)}:\n`);
      printUnstructuredContent(w, level + 1, value as Record<string, unknown>, skipExpr, skip);
    } else {
      w.write(level, `${smartLabelFor(field)}:\t${scalar(value)}\n`);
    }
  }
}

export function genericDescriber(rt: ResourceType): Describer {
  return (s, namespace, name) => {
    const obj = s.client.resource({ group: rt.group, version: rt.version, resource: rt.resource }).get(name, { namespace: rt.namespaced ? namespace : undefined }) as KubeObject;
    const events = s.showEvents ? safeEvents(() => searchEvents(s.client, { name: obj.metadata.name!, namespace: obj.metadata.namespace, kind: obj.kind, uid: obj.metadata.uid })) : undefined;
    return tabbedString((w) => {
      w.write(LEVEL_0, `Name:\t${obj.metadata.name}\n`);
      w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
      printLabelsMultiline(w, 'Labels', obj.metadata.labels);
      printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
      printUnstructuredContent(w, LEVEL_0, obj as unknown as Record<string, unknown>, '', ['.metadata.managedFields', '.metadata.name', '.metadata.namespace', '.metadata.labels', '.metadata.annotations']);
      if (events) describeEvents(events, w, s.now);
    });
  };
}
