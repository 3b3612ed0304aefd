// The manager a write is recorded under: options.fieldManager, else the first segment of the User-Agent
// (prefixFromUserAgent: "kubelet/v1.32.0 (linux/amd64) kubernetes/70d3cc9" → "kubelet"), capped at the 128
// characters ValidateFieldManager allows. A request with neither (one handed to the server directly, without a
// client) is recorded under the acting user's name.
import type { RequestContext } from '../pipeline/context';

export function fieldManagerName(ctx: RequestContext): string {
  const explicit = ctx.req.options?.fieldManager;
  if (explicit) return explicit;
  const agent = ctx.req.userAgent;
  if (!agent) return ctx.user.username.slice(0, 128);
  // A component sends the same User-Agent on every request: its prefix is worked out once.
  if (agent !== lastAgent) {
    lastAgent = agent;
    lastPrefix = agent.split('/', 1)[0]!.slice(0, 128);
  }
  return lastPrefix || ctx.user.username.slice(0, 128);
}

let lastAgent = '';
let lastPrefix = '';
