// rest.BeforeCreate / rest.BeforeUpdate (apiserver/pkg/registry/rest): the order in which the generic store runs a
// strategy, for the request handlers to call in one step. They mutate obj and throw 422 Invalid StatusErrors.
import type { FieldError } from '../../../../shared/api/field-errors';
import { newInvalid } from '../../../../shared/api/status';
import type { KubeObject } from '../../../../shared/api/types';
import { validatePathSegmentName } from '../../../../shared/lib/validation';
import type { ResourceStrategy, StrategyContext } from '../../types';
import { validateObjectMeta, validateObjectMetaUpdate } from './objectmeta';
import { dedupeErrors, meta as mutableMeta } from './util';

function invalid(obj: KubeObject, ctx: StrategyContext, errs: FieldError[]): never {
  throw newInvalid({ group: ctx.resourceType.group, kind: ctx.resourceType.kind }, obj.metadata?.name ?? '', errs);
}

/**
 * PrepareForCreate, then the strategy's validation, then (only if that passed, so the specific messages win)
 * the generic ObjectMeta check every resource gets (path-segment names, namespace presence).
 * Expects uid/creationTimestamp already filled and the name already generated.
 */
export function beforeCreate(strategy: ResourceStrategy, obj: KubeObject, ctx: StrategyContext): void {
  strategy.prepareForCreate(obj, ctx);
  const errs = strategy.validate(obj, ctx);
  if (errs.length) invalid(obj, ctx, errs);
  const common = validateObjectMeta(obj.metadata, strategy.namespaceScoped, validatePathSegmentName);
  if (common.length) invalid(obj, ctx, common);
}

/**
 * Generation from old, PrepareForUpdate, system fields restored from old (uid when empty, creationTimestamp,
 * deletionTimestamp, deletionGracePeriodSeconds), then common and strategy validation. For an unconditional
 * update the caller sets metadata.resourceVersion to the stored one first, as the generic store does.
 * Kubernetes reports an error found by both the common and the strategy check twice; we report it once.
 */
export function beforeUpdate(
  strategy: ResourceStrategy,
  obj: KubeObject,
  old: KubeObject,
  ctx: StrategyContext,
  subresource?: 'status',
): void {
  const meta = mutableMeta(obj);
  const oldMeta = old.metadata;
  if (oldMeta.generation !== undefined) meta.generation = oldMeta.generation;
  else delete meta.generation;
  const s = subresource === 'status' && strategy.status ? strategy.status : strategy;
  s.prepareForUpdate(obj, old, ctx);
  if (!meta.uid && oldMeta.uid) meta.uid = oldMeta.uid;
  if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
  if (oldMeta.deletionTimestamp) meta.deletionTimestamp = oldMeta.deletionTimestamp;
  if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
  }
  const errs = dedupeErrors([
    ...validateObjectMeta(meta, strategy.namespaceScoped, validatePathSegmentName),
    ...validateObjectMetaUpdate(meta, oldMeta),
    ...s.validateUpdate(obj, old, ctx),
  ]);
  if (errs.length) invalid(obj, ctx, errs);
}
