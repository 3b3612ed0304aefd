// Defaulting (SetDefaults_*): after decoding, and again after mutating admission so that whatever a plugin
// added is defaulted too (the AdmissionWebhook "apply defaults after mutation" conformance test).
import type { KubeObject } from '../../../shared/api/types';
import { Stage, passStage, refuseStage, strategyContext, type ResourceContext } from './context';

export function defaultingStage(ctx: ResourceContext, obj: KubeObject, subresource?: 'status' | 'scale'): void {
  try {
    ctx.strategy.applyDefaults(obj, strategyContext(ctx, subresource));
  } catch (err) {
    throw refuseStage(ctx, Stage.Defaulting, err);
  }
  passStage(ctx, Stage.Defaulting);
}
