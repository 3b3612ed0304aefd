// Stage 1: who is asking. The playground has no credentials; the authenticator takes the user the request
// claims (or the session's current user) and adds the groups a real authenticator would.
import { authenticate } from '../authentication/authenticator';
import type { UserInfo } from '../types';
import { Stage, passStage, refuseStage, type RequestContext } from './context';

/** One claimed user's authentication: the user it became and the stage's note, with what they were built from. */
interface Authenticated {
  username: string;
  groups: readonly string[];
  uid: string | undefined;
  extra: UserInfo['extra'];
  user: UserInfo;
  note: string;
}

/**
 * Components and clients claim the same user object on every request, so its authentication (a new user with
 * the added groups, and the note's JSON of them) is made once per claimed object, and again only if that
 * object's fields changed since. The shared result is frozen: nothing downstream may change who asked.
 */
const authenticated = new WeakMap<UserInfo, Authenticated>();

export function authenticationStage(ctx: RequestContext, currentUser: UserInfo): void {
  const claimed = ctx.req.user ?? currentUser;
  let done = authenticated.get(claimed);
  if (!done || !sameClaim(done, claimed)) {
    let user: UserInfo;
    try {
      user = authenticate(ctx.req, currentUser);
    } catch (err) {
      throw refuseStage(ctx, Stage.Authentication, err);
    }
    Object.freeze(user.groups);
    Object.freeze(user);
    const note = `user ${JSON.stringify(user.username)}, groups ${JSON.stringify(user.groups)}`;
    done = { username: claimed.username, groups: [...claimed.groups], uid: claimed.uid, extra: claimed.extra, user, note };
    authenticated.set(claimed, done);
  }
  ctx.user = done.user;
  passStage(ctx, Stage.Authentication, done.note);
}

function sameClaim(done: Authenticated, claimed: UserInfo): boolean {
  if (done.username !== claimed.username || done.uid !== claimed.uid || done.extra !== claimed.extra) return false;
  const groups = claimed.groups;
  if (groups.length !== done.groups.length) return false;
  for (let i = 0; i < groups.length; i++) if (groups[i] !== done.groups[i]) return false;
  return true;
}
