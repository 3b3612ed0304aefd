// The manager a write is recorded under: options.fieldManager, else the first segment of the User-Agent
// (prefixFromUserAgent: "kubelet/v1.32.0 (linux/amd64) kubernetes/70d3cc9" → "kubelet"), capped at the 128
// characters ValidateFieldManager allows. A request with neither (one handed to the server directly, without a
// client) is recorded under the acting user's name.
import type { RequestContext } from '../pipeline/context';

export function fieldManagerName(ctx: RequestContext): string {
  const explicit = ctx.req.options?.fieldManager;
  if (explicit) return explicit;
  const agent = ctx.req.userAgent;
  const prefix = agent ? agent.split('/', 1)[0] : '';
  return (prefix || ctx.user.username).slice(0, 128);
}
