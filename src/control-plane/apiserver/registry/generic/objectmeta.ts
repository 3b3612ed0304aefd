// ObjectMeta validation: apimachinery/pkg/api/validation/objectmeta.go, same checks, order and texts.
import { fieldErr, type FieldError } from '../../../../shared/api/field-errors';
import type { ObjectMeta, OwnerReference } from '../../../../shared/api/types';
import { parseApiVersion } from '../../../../shared/api/types';
import { isQualifiedName, validateNamespaceName, type ValidateNameFunc } from '../../../../shared/lib/validation';
import { validateLabels } from './metav1';
import { invalidEach, isObj, semanticEqual, validateImmutableField, validateNonnegativeField } from './util';

/** 256 KiB: the sum of all annotation key and value lengths. */
export const TotalAnnotationSizeLimitB = 256 * (1 << 10);

export const FinalizerOrphanDependents = 'orphan';
export const FinalizerDeleteDependents = 'foregroundDeletion';

const encoder = new TextEncoder();

export function validateAnnotations(annotations: unknown, path: string): FieldError[] {
  if (!isObj(annotations)) return [];
  const errs: FieldError[] = [];
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) {
    // Keys are checked lower-cased, so "Example.com/X" is accepted.
    errs.push(...invalidEach(path, k, isQualifiedName(k.toLowerCase())));
    total += encoder.encode(k).length + encoder.encode(typeof v === 'string' ? v : String(v)).length;
  }
  if (total > TotalAnnotationSizeLimitB) errs.push(fieldErr.tooLong(path, TotalAnnotationSizeLimitB));
  return errs;
}

function validateOwnerReference(ref: OwnerReference, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = ref.apiVersion ?? '';
  const kind = ref.kind ?? '';
  const gv = parseApiVersion(apiVersion);
  if (!gv.version) errs.push(fieldErr.invalid(`${path}.apiVersion`, apiVersion, 'version must not be empty'));
  if (!kind) errs.push(fieldErr.invalid(`${path}.kind`, kind, 'kind must not be empty'));
  if (!ref.name) errs.push(fieldErr.invalid(`${path}.name`, ref.name ?? '', 'name must not be empty'));
  if (!ref.uid) errs.push(fieldErr.invalid(`${path}.uid`, ref.uid ?? '', 'uid must not be empty'));
  if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
    errs.push(fieldErr.invalid(path, ref, `/v1, Kind=Event is disallowed from being an owner`));
  }
  return errs;
}

export function validateOwnerReferences(refs: OwnerReference[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    errs.push(...validateOwnerReference(ref, path));
    if (ref.controller === true) {
      const name = `${ref.kind}/${ref.name}`;
      if (firstController) {
        errs.push(
          fieldErr.invalid(
            path,
            refs,
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${name}`,
          ),
        );
      } else {
        firstController = name;
      }
    }
  }
  return errs;
}

export function validateFinalizerName(name: string, path: string): FieldError[] {
  return invalidEach(path, name, isQualifiedName(name));
}

export function validateFinalizers(finalizers: string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let orphan = false;
  let foreground = false;
  for (const f of finalizers ?? []) {
    errs.push(...validateFinalizerName(f, path));
    if (f === FinalizerOrphanDependents) orphan = true;
    if (f === FinalizerDeleteDependents) foreground = true;
  }
  if (orphan && foreground) {
    errs.push(
      fieldErr.invalid(path, finalizers, `finalizer ${FinalizerOrphanDependents} and ${FinalizerDeleteDependents} cannot be both set`),
    );
  }
  return errs;
}

/** Go's %#v of a sorted []string, as ValidateNoNewFinalizers prints it: []string{"a", "b"}. */
function goStrings(values: string[]): string {
  return `[]string{${values.map((v) => JSON.stringify(v)).join(', ')}}`;
}

export function validateNoNewFinalizers(newF: string[] | undefined, oldF: string[] | undefined, path: string): FieldError[] {
  const old = new Set(oldF ?? []);
  const extra = [...new Set((newF ?? []).filter((f) => !old.has(f)))].sort();
  if (!extra.length) return [];
  return [fieldErr.forbidden(path, `no new finalizers can be added if the object is being deleted, found new finalizers ${goStrings(extra)}`)];
}

/** The ObjectMeta fields validation names in its errors. */
const metaFields = [
  'generateName',
  'name',
  'namespace',
  'generation',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
] as const;

/** The field paths under one ObjectMeta path ("metadata.name"…), made once per path (every write validates its metadata). */
type MetaPaths = Record<(typeof metaFields)[number], string>;

const metaPathsByPath = new Map<string, MetaPaths>();

function metaPaths(path: string): MetaPaths {
  let p = metaPathsByPath.get(path);
  if (!p) {
    if (metaPathsByPath.size >= 256) metaPathsByPath.clear();
    p = Object.fromEntries(metaFields.map((f) => [f, `${path}.${f}`])) as MetaPaths;
    metaPathsByPath.set(path, p);
  }
  return p;
}

/**
 * ValidateObjectMeta: name (or generateName) per the kind's name rule, namespace presence per scope,
 * generation, labels, annotations, ownerReferences and finalizers.
 */
export function validateObjectMeta(
  meta: ObjectMeta | undefined,
  requiresNamespace: boolean,
  nameFn: ValidateNameFunc,
  path = 'metadata',
): FieldError[] {
  const m = meta ?? {};
  const p = metaPaths(path);
  const errs: FieldError[] = [];
  if (m.generateName) errs.push(...invalidEach(p.generateName, m.generateName, nameFn(m.generateName, true)));
  if (!m.name) errs.push(fieldErr.required(p.name, 'name or generateName is required'));
  else errs.push(...invalidEach(p.name, m.name, nameFn(m.name, false)));
  if (requiresNamespace) {
    if (!m.namespace) errs.push(fieldErr.required(p.namespace, ''));
    else errs.push(...invalidEach(p.namespace, m.namespace, validateNamespaceName(m.namespace, false)));
  } else if (m.namespace) {
    errs.push(fieldErr.forbidden(p.namespace, 'not allowed on this type'));
  }
  errs.push(...validateNonnegativeField(m.generation, p.generation));
  errs.push(...validateLabels(m.labels, p.labels));
  errs.push(...validateAnnotations(m.annotations, p.annotations));
  errs.push(...validateOwnerReferences(m.ownerReferences, p.ownerReferences));
  errs.push(...validateFinalizers(m.finalizers, p.finalizers));
  return errs;
}

/** ValidateObjectMetaUpdate: immutable identity fields, no generation decrement, no new finalizers while deleting. */
export function validateObjectMetaUpdate(newMeta: ObjectMeta | undefined, oldMeta: ObjectMeta | undefined, path = 'metadata'): FieldError[] {
  const n = newMeta ?? {};
  const o = oldMeta ?? {};
  const p = metaPaths(path);
  const errs: FieldError[] = [];
  if (o.deletionTimestamp) errs.push(...validateNoNewFinalizers(n.finalizers, o.finalizers, p.finalizers));
  if (!n.resourceVersion) errs.push(fieldErr.invalid(p.resourceVersion, n.resourceVersion ?? '', 'must be specified for an update'));
  if ((n.generation ?? 0) < (o.generation ?? 0)) {
    errs.push(fieldErr.invalid(p.generation, n.generation ?? 0, 'must not be decremented'));
  }
  errs.push(...validateImmutableField(n.name ?? '', o.name ?? '', p.name));
  errs.push(...validateImmutableField(n.namespace ?? '', o.namespace ?? '', p.namespace));
  errs.push(...validateImmutableField(n.uid ?? '', o.uid ?? '', p.uid));
  errs.push(...validateImmutableField(n.creationTimestamp ?? null, o.creationTimestamp ?? null, p.creationTimestamp));
  errs.push(...validateImmutableField(n.deletionTimestamp ?? null, o.deletionTimestamp ?? null, p.deletionTimestamp));
  errs.push(...validateImmutableField(n.deletionGracePeriodSeconds ?? null, o.deletionGracePeriodSeconds ?? null, p.deletionGracePeriodSeconds));
  errs.push(...validateLabels(n.labels, p.labels));
  errs.push(...validateAnnotations(n.annotations, p.annotations));
  errs.push(...validateOwnerReferences(n.ownerReferences, p.ownerReferences));
  return errs;
}

/** Whether two ObjectMetas differ in what a user edits (labels, annotations, ownerReferences, finalizers). */
export function userMetaChanged(a: ObjectMeta | undefined, b: ObjectMeta | undefined): boolean {
  const pick = (m: ObjectMeta | undefined) => ({
    labels: m?.labels,
    annotations: m?.annotations,
    ownerReferences: m?.ownerReferences,
    finalizers: m?.finalizers,
  });
  return !semanticEqual(pick(a), pick(b));
}
