// cmdutil.CheckErr for the rollout/set/edit commands: how kubectl prints the error a command returns
// (k8s.io/kubectl/pkg/cmd/util/helpers.go checkErr, v0.32.4):
//
//   - an aggregate of one error is that error;
//   - an Invalid StatusError with details: `The Deployment "x" is invalid: <field>: <msg>` (several causes: the
//     prefix line, then `* <field>: <msg>` per cause);
//   - another API error: `Error from server (<Reason>): <message>`;
//   - an aggregate of several: each message on its own line, without the `error: ` prefix;
//   - anything else: `error: <message>` (not doubled when the message already starts with it).
//
//   return checkErr(io, new AggregateError([errA, errB]));   // prints, returns exit code 1
import { isStatusError, StatusReason } from '../../shared/api/status';
import type { CommandIO } from '../cli/command';
import { kubectlErrorMessage } from '../cordon';

/** utilerrors.Aggregate: several errors a command collected before failing. */
export class AggregateError extends Error {
  constructor(readonly errors: unknown[]) {
    super(errors.map(messageOf).join(', '));
    this.name = 'AggregateError';
  }
}

/** Prints err as kubectl's CheckErr does and returns the exit code (1). */
export function checkErr(io: CommandIO, err: unknown): number {
  for (const line of errorLines(err)) io.stderr(line);
  return 1;
}

/** The lines CheckErr prints for err. */
export function errorLines(err: unknown): string[] {
  if (err instanceof AggregateError && err.errors.length === 1) err = err.errors[0];
  if (err instanceof AggregateError) return err.errors.flatMap((e) => splitLines(standardMessage(e) ?? messageOf(e)));
  if (isStatusError(err) && err.reason === StatusReason.Invalid) return invalidLines(err.status);
  const standard = standardMessage(err);
  if (standard !== undefined) return splitLines(standard);
  const msg = messageOf(err);
  return splitLines(msg.startsWith('error: ') ? msg : `error: ${msg}`);
}

function invalidLines(status: { message: string; details?: { kind?: string; name?: string; causes?: { field?: string; message?: string }[] } }): string[] {
  const details = status.details;
  let s = 'The request is invalid';
  if (!details) return [status.message ? `${s}: ${status.message}` : s];
  if (details.kind || details.name) s = `The ${details.kind ?? ''} ${JSON.stringify(details.name ?? '')} is invalid`;
  else if (status.message && !details.causes?.length) s += `: ${status.message}`;
  const causes = [...new Set((details.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`))];
  if (causes.length === 0) return [s];
  if (causes.length === 1) return splitLines(`${s}: ${causes[0]}`);
  return [`${s}: `, ...causes.map((c) => `* ${c}`)];
}

/** StandardErrorMessage: the text for an API error, undefined for other errors. */
function standardMessage(err: unknown): string | undefined {
  return isStatusError(err) ? kubectlErrorMessage(err) : undefined;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** One io call per line; a message's trailing newline (kubectl's "...\n" errors) adds no empty line. */
function splitLines(text: string): string[] {
  return text.replace(/\n+$/, '').split('\n');
}
