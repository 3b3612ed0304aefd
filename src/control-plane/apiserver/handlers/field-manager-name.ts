// The manager a write is recorded under: options.fieldManager, else (the real server derives it from the
// User-Agent, which in-process requests do not have) the acting user's name, capped at the 128 characters
// ValidateFieldManager allows.
import type { RequestContext } from '../pipeline/context';

export function fieldManagerName(ctx: RequestContext): string {
  const explicit = ctx.req.options?.fieldManager;
  if (explicit) return explicit;
  return ctx.user.username.slice(0, 128);
}
