// DELETE on a collection: every object the selectors match is deleted with the same options, each through
// the full delete path (its own admission, finalizers, graceful deletion). The answer lists what was deleted.
import type { ApiRequest, ApiResponse } from '../types';
import type { ResourceContext } from '../pipeline/context';
import { listObjects } from './list';
import type { DeleteOutcome } from './delete';

export type Deleter = (ctx: ResourceContext, name: string, options: NonNullable<ApiRequest['options']>) => DeleteOutcome;

export function deleteCollectionHandler(ctx: ResourceContext, deleter: Deleter): ApiResponse<unknown> {
  const list = listObjects(ctx, { ...ctx.req.options, limit: undefined, continue: undefined, resourceVersion: undefined, resourceVersionMatch: undefined });
  const options = ctx.req.options ?? {};
  for (const item of list.items) {
    const name = item.metadata.name ?? '';
    const itemCtx = { ...ctx, namespace: ctx.rt.namespaced ? item.metadata.namespace : undefined };
    try {
      deleter(itemCtx, name, options);
    } catch (err) {
      // Someone else deleted it first: not an error for a collection delete.
      if ((err as { code?: number }).code !== 404) throw err;
    }
  }
  return { code: 200, body: list };
}
