// Stage 2 (only for --as/--as-group requests): the authenticated user must be allowed to impersonate the
// target user and groups; the rest of the request then acts as the target.
import { applyImpersonation } from '../authentication/authenticator';
import { Stage, runStage, type RequestContext } from './context';

export function impersonationStage(ctx: RequestContext): void {
  if (!ctx.req.impersonate) return;
  ctx.user = runStage(ctx, Stage.Impersonation, (note) => {
    const user = applyImpersonation(ctx.req, ctx.user, ctx.server.authorizer);
    note(`acting as ${JSON.stringify(user.username)}`);
    return user;
  });
}
