// CustomResourceDefinition strategy (apiextensions-apiserver pkg/registry/customresourcedefinition): the name is
// plural.group, versions have exactly one storage version and (in v1) a schema, names are DNS-1035 labels; group
// and plural never change, scope and kind stop changing once the CRD is established.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isDNS1035Label, isDNS1123Subdomain, nameIsDNSSubdomain, type ValidateNameFunc } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateObjectMeta } from '../../generic/objectmeta';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, arrAt, ensureObj, isObj, objAt, objItems, setDefault, setDefaultString, str, validateImmutableField } from '../../generic/util';

export function defaultCRD(crd: KubeObject): void {
  const spec = ensureObj(crd as Obj, 'spec');
  const names = ensureObj(spec, 'names');
  if (!names.singular && str(names.kind)) names.singular = str(names.kind).toLowerCase();
  if (!names.listKind && str(names.kind)) names.listKind = `${str(names.kind)}List`;
  setDefault(spec, 'conversion', { strategy: 'None' });
  const conversion = spec.conversion;
  if (isObj(conversion) && conversion.strategy === 'Webhook' && isObj(conversion.webhook)) {
    const service = objAt(conversion.webhook, 'clientConfig', 'service');
    if (service) setDefault(service, 'port', 443);
  }
}

export function storageVersion(crd: KubeObject): string | undefined {
  const v = objItems(crd.spec, 'versions').find((x) => x.storage === true);
  return v ? str(v.name) : undefined;
}

function crdNameFn(crd: KubeObject): ValidateNameFunc {
  return (name, prefix) => {
    const msgs = nameIsDNSSubdomain(name, prefix);
    const names = objAt(crd, 'spec', 'names') ?? {};
    if (name !== `${str(names.plural)}.${str(objAt(crd, 'spec')?.group)}`) msgs.push('must be spec.names.plural+"."+spec.group');
    return msgs;
  };
}

function dns1035(value: string, path: string, prefix = ''): FieldError[] {
  const errs = isDNS1035Label(value);
  return errs.length ? [fieldErr.invalid(path, value, prefix + errs.join(','))] : [];
}

function validateNames(names: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['plural', 'singular', 'kind', 'listKind']) if (!str(names[f])) errs.push(fieldErr.required(`${path}.${f}`, ''));
  if (str(names.plural)) errs.push(...dns1035(str(names.plural), `${path}.plural`));
  if (str(names.singular)) errs.push(...dns1035(str(names.singular), `${path}.singular`));
  for (const f of ['kind', 'listKind']) {
    const v = str(names[f]);
    const msgs = v ? isDNS1035Label(v.toLowerCase()) : [];
    if (msgs.length) errs.push(fieldErr.invalid(`${path}.${f}`, v, `may have mixed case, but should otherwise match: ${msgs.join(',')}`));
  }
  arrAt(names, 'shortNames').forEach((s, i) => errs.push(...dns1035(String(s), `${path}.shortNames[${i}]`)));
  if (str(names.kind) && names.kind === names.listKind) errs.push(fieldErr.invalid(`${path}.listKind`, names.listKind, 'kind and listKind may not be the same'));
  arrAt(names, 'categories').forEach((c, i) => errs.push(...dns1035(String(c), `${path}.categories[${i}]`)));
  return errs;
}

function validateCRDSpec(crd: KubeObject): FieldError[] {
  const spec = isObj(crd.spec) ? crd.spec : {};
  const errs: FieldError[] = [];
  const group = str(spec.group);
  if (!group) errs.push(fieldErr.required('spec.group', ''));
  else if (isDNS1123Subdomain(group).length) errs.push(fieldErr.invalid('spec.group', group, isDNS1123Subdomain(group).join(',')));
  else if (group.split('.').length < 2) errs.push(fieldErr.invalid('spec.group', group, 'should be a domain with at least one dot'));
  const scope = str(spec.scope);
  if (!scope) errs.push(fieldErr.required('spec.scope', ''));
  else if (scope !== 'Cluster' && scope !== 'Namespaced') errs.push(fieldErr.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  const versions = objItems(spec, 'versions');
  const seen = new Set<string>();
  let unique = true;
  let storageCount = 0;
  versions.forEach((v, i) => {
    const p = `spec.versions[${i}]`;
    const name = str(v.name);
    if (v.storage === true) storageCount++;
    if (seen.has(name)) unique = false;
    seen.add(name);
    errs.push(...dns1035(name, `${p}.name`));
    const schema = objAt(v, 'schema', 'openAPIV3Schema');
    if (!schema) errs.push(fieldErr.required(`${p}.schema.openAPIV3Schema`, 'schemas are required'));
    else if (!str(schema.type)) errs.push(fieldErr.required(`${p}.schema.openAPIV3Schema.type`, 'must not be empty at the root'));
    const scale = objAt(v, 'subresources', 'scale');
    if (scale) {
      if (!str(scale.specReplicasPath)) errs.push(fieldErr.required(`${p}.subresources.scale.specReplicasPath`, ''));
      if (!str(scale.statusReplicasPath)) errs.push(fieldErr.required(`${p}.subresources.scale.statusReplicasPath`, ''));
    }
  });
  if (versions.length === 0 || storageCount !== 1) {
    errs.push(fieldErr.invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  }
  if (!unique) errs.push(fieldErr.invalid('spec.versions', versions, 'must contain unique version names'));
  errs.push(...validateNames(isObj(spec.names) ? spec.names : {}, 'spec.names'));
  const strategy = objAt(spec, 'conversion')?.strategy;
  if (strategy !== undefined && strategy !== 'None' && strategy !== 'Webhook') errs.push(fieldErr.notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook']));
  return errs;
}

function isEstablished(crd: KubeObject): boolean {
  return objItems(crd.status, 'conditions').some((c) => c.type === 'Established' && c.status === 'True');
}

function validateCRDUpdate(crd: KubeObject, old: KubeObject): FieldError[] {
  const spec = isObj(crd.spec) ? crd.spec : {};
  const oldSpec = isObj(old.spec) ? old.spec : {};
  const errs: FieldError[] = [];
  if (isEstablished(old)) {
    errs.push(...validateImmutableField(spec.scope, oldSpec.scope, 'spec.scope'));
    errs.push(...validateImmutableField(objAt(spec, 'names')?.kind, objAt(oldSpec, 'names')?.kind, 'spec.names.kind'));
  }
  errs.push(...validateImmutableField(spec.group, oldSpec.group, 'spec.group'));
  errs.push(...validateImmutableField(objAt(spec, 'names')?.plural, objAt(oldSpec, 'names')?.plural, 'spec.names.plural'));
  return errs;
}

/** Adds the storage version to status.storedVersions (it is never removed automatically). */
function recordStoredVersion(crd: KubeObject): void {
  const v = storageVersion(crd);
  if (!v) return;
  const status = ensureObj(crd as Obj, 'status');
  const stored = arrAt(status, 'storedVersions').map(String);
  if (!stored.includes(v)) status.storedVersions = [...stored, v];
}

export function customResourceDefinitionStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultCRD,
    generationChanged: specChanged,
    prepareForCreate(crd) {
      crd.status = { acceptedNames: { kind: '', plural: '' }, conditions: [], storedVersions: [] };
      recordStoredVersion(crd);
    },
    prepareForUpdate: (crd) => recordStoredVersion(crd),
    validateFull: (crd) => [...validateObjectMeta(crd.metadata, false, crdNameFn(crd)), ...validateCRDSpec(crd)],
    validateSpec: validateCRDSpec,
    metaRules: 'generic',
    validateUpdate: validateCRDUpdate,
    allowUnconditionalUpdate: false,
    status: {
      validate(crd) {
        const stored = arrAt(crd.status, 'storedVersions').map(String);
        const errs: FieldError[] = [];
        if (stored.length === 0) errs.push(fieldErr.invalid('status.storedVersions', stored, 'must have at least one stored version'));
        const v = storageVersion(crd);
        if (v && !stored.includes(v)) errs.push(fieldErr.invalid('status.storedVersions', stored, `must have the storage version ${v}`));
        return errs;
      },
    },
  });
}

/** spec.names/scope/subresources of the version a CR request targets: what the CR strategy needs from its CRD. */
export function crdVersion(crd: KubeObject, version: string): Obj | undefined {
  return objItems(crd.spec, 'versions').find((v) => v.name === version);
}
