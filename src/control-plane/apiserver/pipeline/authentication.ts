// Stage 1: who is asking. The playground has no credentials; the authenticator takes the user the request
// claims (or the session's current user) and adds the groups a real authenticator would.
import { authenticate } from '../authentication/authenticator';
import type { UserInfo } from '../types';
import { Stage, runStage, type RequestContext } from './context';

export function authenticationStage(ctx: RequestContext, currentUser: UserInfo): void {
  ctx.user = runStage(ctx, Stage.Authentication, (note) => {
    const user = authenticate(ctx.req, currentUser);
    note(`user ${JSON.stringify(user.username)}, groups ${JSON.stringify(user.groups)}`);
    return user;
  });
}
