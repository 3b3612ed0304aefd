// The last stage: one store transaction holding the object's write (guarded by a compare on its
// modRevision: 0 = must not exist) and every side write admission queued, so they commit at one revision or
// not at all. Dry-run requests never get here.
import { newInternalError } from '../../../shared/api/status';
import { objectKey } from '../../store/keys';
import type { Compare, TxnOp, TxnResult } from '../../store/types';
import type { SideWrite } from '../types';
import { fromStored, toStored } from '../storage/object-codec';
import { Stage, passStage, refuseStage, type ResourceContext } from './context';

export interface PrimaryWrite {
  key: string;
  /** The modRevision the key must have (0: must not exist). */
  expectModRevision: number;
  op: TxnOp;
}

/** onFailure gives the error for a failed compare (AlreadyExists for a create, Conflict for an update). */
export function persistenceStage(
  ctx: ResourceContext,
  primary: PrimaryWrite,
  sideWrites: SideWrite[],
  onFailure: () => Error,
): TxnResult {
  let result: TxnResult;
  try {
    const compares: Compare[] = [{ key: primary.key, modRevision: primary.expectModRevision }];
    const ops: TxnOp[] = [primary.op];
    for (const w of sideWrites) {
      const rt = ctx.server.registry.forGroupResource(w.gr);
      if (!rt) throw newInternalError(`side write to unknown resource ${w.gr.resource}.${w.gr.group}`);
      const key = objectKey(rt, rt.namespaced ? w.namespace : undefined, w.name);
      if (key === primary.key || ops.some((o) => o.key === key)) continue;
      const current = ctx.server.store.get(key);
      const next = w.mutate(current ? fromStored(current) : undefined);
      if (next === undefined) continue;
      compares.push({ key, modRevision: current?.modRevision ?? 0 });
      ops.push({ type: 'put', key, value: toStored(next) });
    }
    result = ctx.server.store.txn(compares, ops);
    if (!result.succeeded) throw onFailure();
    ctx.server.afterCommit(ctx.rt);
  } catch (err) {
    throw refuseStage(ctx, Stage.Persistence, err);
  }
  passStage(ctx, Stage.Persistence, result.results[0] ? `committed at revision ${result.revision}` : 'no change');
  return result;
}
