// Builds a ResourceStrategy from a kind's rules, supplying what every strategy.go in Kubernetes repeats:
// ObjectMeta validation with the kind's name rule, status reset on main-resource writes for kinds with a status
// subresource, generation = 1 on create and +1 on a spec change for kinds that track it, and a status strategy
// that keeps everything but status (and metadata) from the stored object.
import type { FieldError } from '../../../../shared/api/field-errors';
import type { KubeObject } from '../../../../shared/api/types';
import type { ResourceType } from '../../../../shared/api/resources';
import { nameIsDNSSubdomain, type ValidateNameFunc } from '../../../../shared/lib/validation';
import type { ResourceStrategy, StrategyContext } from '../../types';
import { validateKubeObjectMeta, validateKubeObjectMetaUpdate } from './kubemeta';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta';
import { meta, semanticEqual, setOwn } from './util';
import { deepCopy } from '../../patch/json-value';
import { SharedSubtrees } from '../../storage/recent-values';

export interface KindRules {
  /** metadata.name rule; DNS-1123 subdomain unless the kind says otherwise. */
  nameFn?: ValidateNameFunc;
  /** SetDefaults_* for the kind (must be idempotent: it runs after decoding and again after admission). */
  applyDefaults?(obj: KubeObject, ctx: StrategyContext): void;
  /**
   * Whether an update changed what generation counts ("spec changed"). Present = the kind tracks generation:
   * create sets 1 and an update bumps it when this returns true. Absent = generation is left alone.
   */
  generationChanged?(obj: KubeObject, old: KubeObject): boolean;
  /**
   * Main-resource writes may not set status (create clears it, update keeps the stored one).
   * Defaults to whether the kind has a status subresource.
   */
  resetStatus?: boolean;
  /** Kind-specific PrepareForCreate, after the generic part. */
  prepareForCreate?(obj: KubeObject, ctx: StrategyContext): void;
  /** Kind-specific PrepareForUpdate, after status is restored and before the generation bump. */
  prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
  /** Validation of everything but ObjectMeta: run on create, and on update for the new object. */
  validateSpec?(obj: KubeObject, ctx: StrategyContext): FieldError[];
  /** Replaces the whole create validation (for kinds that compose ObjectMeta validation themselves). */
  validateFull?(obj: KubeObject, ctx: StrategyContext): FieldError[];
  /**
   * ObjectMeta rules: 'kube' (the default, as pkg/apis/core/validation: standard finalizer names) or 'generic'
   * (apimachinery only, as custom resources and a few API groups use).
   */
  metaRules?: 'kube' | 'generic';
  /** Extra update rules (immutable fields), after ObjectMeta update validation and validateSpec. */
  validateUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  /** Replaces the whole update validation (for kinds whose update does not re-validate the spec). */
  validateUpdateFull?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  status?: {
    /** After the generic part (everything but metadata and status copied from old). */
    prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
    /** Status validation; ObjectMeta update validation is added in front. */
    validate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
  };
  allowUnconditionalUpdate?: boolean;
  scale?: ResourceStrategy['scale'];
  defaultGracePeriodSeconds?(obj: KubeObject): number;
  defaultGarbageCollectionPolicy?: ResourceStrategy['defaultGarbageCollectionPolicy'];
  /** Fields beyond metadata.name and metadata.namespace that field selectors may use. */
  selectableFields?(obj: KubeObject): Record<string, string>;
  /** One of selectableFields' values without the others (undefined: not one of them). */
  selectableField?(obj: KubeObject, field: string): string | undefined;
  /**
   * Paths of subtrees many objects of the kind repeat ("*" for each element of an array): a created or updated
   * object is stored with one frozen copy of each, shared with recent equal ones (SharedSubtrees). Memory only:
   * the values are the same JSON.
   */
  sharedSubtrees?: readonly (readonly string[])[];
  /** Like sharedSubtrees, for values many interleaved writers repeat (one per node): remembered by JSON text. */
  sharedByText?: readonly (readonly string[])[];
  /** ResourceStrategy.keptStoredParts: applyDefaults must then skip a frozen part. */
  keptStoredParts?: readonly string[];
}

/** Everything in the object except metadata and status: what "spec changed" means for most kinds. */
export function nonMetaNonStatus(obj: KubeObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue;
    setOwn(out, k, obj[k]);
  }
  return out;
}

export const specChanged = (obj: KubeObject, old: KubeObject): boolean => !semanticEqual(obj.spec, old.spec);

// old is the stored object's view. Its subtrees are frozen and shared with the stored value: the write keeps
// them as they are (toStored shares frozen subtrees instead of copying or comparing them), and the answer
// carries them frozen, as it carries the shared managed-fields documents. An old object that is not frozen
// (a strategy test's own object) is copied; deepCopy is exact for plain JSON and far cheaper than structuredClone.
function keepOld(v: unknown): unknown {
  return typeof v === 'object' && v !== null && !Object.isFrozen(v) ? deepCopy(v) : v;
}

/** Restores old.status into obj (or removes status when old has none). */
export function keepOldStatus(obj: KubeObject, old: KubeObject): void {
  if (old.status === undefined) delete obj.status;
  else obj.status = keepOld(old.status);
}

/** For status writes: every top-level field but metadata and status comes from the stored object. */
export function keepOldNonStatus(obj: KubeObject, old: KubeObject): void {
  for (const k of Object.keys(obj)) {
    if (k !== 'metadata' && k !== 'status' && k !== 'apiVersion' && k !== 'kind' && !(k in old)) delete obj[k];
  }
  for (const k of Object.keys(old)) {
    if (k !== 'metadata' && k !== 'status' && k !== 'apiVersion' && k !== 'kind') setOwn(obj, k, keepOld(old[k]));
  }
}

export function baseSelectableFields(obj: KubeObject, namespaced: boolean): Record<string, string> {
  const out: Record<string, string> = { 'metadata.name': baseSelectableField(obj, 'metadata.name', namespaced)! };
  if (namespaced) out['metadata.namespace'] = baseSelectableField(obj, 'metadata.namespace', namespaced)!;
  return out;
}

/** One of baseSelectableFields' values (undefined: not one of them). */
function baseSelectableField(obj: KubeObject, field: string, namespaced: boolean): string | undefined {
  if (field === 'metadata.name') return obj.metadata?.name ?? '';
  if (field === 'metadata.namespace' && namespaced) return obj.metadata?.namespace ?? '';
  return undefined;
}

export function defineStrategy(rt: ResourceType, rules: KindRules): ResourceStrategy {
  const nameFn = rules.nameFn ?? nameIsDNSSubdomain;
  const resetStatus = rules.resetStatus ?? rt.subresources.status;
  const tracksGeneration = rules.generationChanged !== undefined;

  const validateSpec = (obj: KubeObject, ctx: StrategyContext): FieldError[] => rules.validateSpec?.(obj, ctx) ?? [];
  const metaCreate = rules.metaRules === 'generic' ? validateObjectMeta : validateKubeObjectMeta;
  const metaUpdate = rules.metaRules === 'generic' ? validateObjectMetaUpdate : validateKubeObjectMetaUpdate;

  const strategy: ResourceStrategy = {
    namespaceScoped: rt.namespaced,
    allowUnconditionalUpdate: rules.allowUnconditionalUpdate ?? true,

    applyDefaults(obj, ctx) {
      rules.applyDefaults?.(obj, ctx);
    },

    prepareForCreate(obj, ctx) {
      if (resetStatus) delete obj.status;
      if (tracksGeneration) meta(obj).generation = 1;
      rules.prepareForCreate?.(obj, ctx);
    },

    prepareForUpdate(obj, old, ctx) {
      // rest.BeforeUpdate: requests cannot set generation; the strategy alone may bump it.
      if (old.metadata.generation !== undefined) meta(obj).generation = old.metadata.generation;
      else delete meta(obj).generation;
      if (resetStatus) keepOldStatus(obj, old);
      rules.prepareForUpdate?.(obj, old, ctx);
      if (tracksGeneration && rules.generationChanged!(obj, old)) {
        meta(obj).generation = (old.metadata.generation ?? 0) + 1;
      }
    },

    validate(obj, ctx) {
      if (rules.validateFull) return rules.validateFull(obj, ctx);
      return [...metaCreate(obj.metadata, rt.namespaced, nameFn), ...validateSpec(obj, ctx)];
    },

    validateUpdate(obj, old, ctx) {
      if (rules.validateUpdateFull) return rules.validateUpdateFull(obj, old, ctx);
      return [
        ...metaUpdate(obj.metadata, old.metadata),
        ...validateSpec(obj, ctx),
        ...(rules.validateUpdate?.(obj, old, ctx) ?? []),
      ];
    },

    defaultGracePeriodSeconds(obj) {
      return rules.defaultGracePeriodSeconds?.(obj) ?? 0;
    },

    selectableFields(obj) {
      const out = baseSelectableFields(obj, rt.namespaced);
      const extra = rules.selectableFields?.(obj);
      return extra ? Object.assign(out, extra) : out;
    },
  };
  if (rules.selectableField) {
    const kindField = rules.selectableField;
    strategy.selectableField = (obj, field) => baseSelectableField(obj, field, rt.namespaced) ?? kindField(obj, field);
  }

  if (rules.sharedSubtrees || rules.sharedByText) {
    strategy.storedSharing = new SharedSubtrees(rules.sharedSubtrees ?? [], rules.sharedByText).sharing;
  }
  if (rules.defaultGarbageCollectionPolicy) strategy.defaultGarbageCollectionPolicy = rules.defaultGarbageCollectionPolicy;
  if (rules.keptStoredParts) strategy.keptStoredParts = rules.keptStoredParts;

  if (rt.subresources.status) {
    strategy.status = {
      prepareForUpdate(obj, old, ctx) {
        if (old.metadata.generation !== undefined) meta(obj).generation = old.metadata.generation;
        else delete meta(obj).generation;
        keepOldNonStatus(obj, old);
        rules.status?.prepareForUpdate?.(obj, old, ctx);
      },
      validateUpdate(obj, old, ctx) {
        return [...metaUpdate(obj.metadata, old.metadata), ...(rules.status?.validate?.(obj, old, ctx) ?? [])];
      },
    };
  }
  if (rules.scale) strategy.scale = rules.scale;
  return strategy;
}
