// rest.BeforeCreate / rest.BeforeUpdate: the strategy prepares the object (status reset, generation) and
// validates it; every field error of the object comes back in one 422 Invalid.
import type { KubeObject } from '../../../shared/api/types';
import { beforeCreate, beforeUpdate } from '../registry/generic/rest';
import { Stage, passStage, refuseStage, strategyContext, type ResourceContext } from './context';

export function validateCreateStage(ctx: ResourceContext, obj: KubeObject): void {
  try {
    beforeCreate(ctx.strategy, obj, strategyContext(ctx));
  } catch (err) {
    throw refuseStage(ctx, Stage.Validation, err);
  }
  passStage(ctx, Stage.Validation);
}

export function validateUpdateStage(ctx: ResourceContext, obj: KubeObject, old: KubeObject, subresource?: 'status' | 'scale'): void {
  try {
    beforeUpdate(ctx.strategy, obj, old, strategyContext(ctx, subresource), subresource === 'status' ? 'status' : undefined);
  } catch (err) {
    throw refuseStage(ctx, Stage.Validation, err);
  }
  passStage(ctx, Stage.Validation);
}
