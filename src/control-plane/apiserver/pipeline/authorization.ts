// Stage 3: RBAC. The request verb is the RBAC verb (get, list, watch, create, update, patch, delete,
// deletecollection); subresources are authorized as "<resource>/<subresource>". A refusal is the 403 of
// responsewriters.Forbidden, before anything is decoded or admitted.
import { forbiddenError } from '../rbac/forbidden';
import { Decision, type AuthorizationAttributes } from '../types';
import { Stage, passStage, refuseStage, type RequestContext } from './context';

export function authorizationAttributes(ctx: RequestContext): AuthorizationAttributes {
  const req = ctx.req;
  const attrs: AuthorizationAttributes = {
    user: ctx.user,
    verb: req.verb,
    group: req.group,
    resource: req.resource,
  };
  if (req.subresource) attrs.subresource = req.subresource;
  if (req.namespace) attrs.namespace = req.namespace;
  if (req.name) attrs.name = req.name;
  return attrs;
}

export function authorizationStage(ctx: RequestContext): void {
  let reason: string;
  try {
    const attrs = authorizationAttributes(ctx);
    const result = ctx.server.authorizer.authorize(attrs);
    if (result.decision !== Decision.Allow) throw forbiddenError(attrs, result.reason);
    reason = result.reason;
  } catch (err) {
    throw refuseStage(ctx, Stage.Authorization, err);
  }
  passStage(ctx, Stage.Authorization, reason || 'allowed');
}
