// framework.Status (pkg/scheduler/framework/interface.go): what a plugin answers at an extension point. Success
// is `undefined`, as Go's nil *Status is. Unschedulable may be resolved by preemption; UnschedulableAndUnresolvable
// may not (preemption skips such nodes); Skip tells the framework to skip this plugin's later points for the pod.

export const Code = {
  Success: 'Success',
  Error: 'Error',
  Unschedulable: 'Unschedulable',
  UnschedulableAndUnresolvable: 'UnschedulableAndUnresolvable',
  Wait: 'Wait',
  Skip: 'Skip',
  Pending: 'Pending',
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export interface Status {
  readonly code: Code;
  /** The user-facing reasons ("Insufficient cpu"), counted per node in the FitError message. */
  readonly reasons: readonly string[];
  /** The plugin that returned it (set by the framework). */
  plugin?: string;
  /** The error behind an Error status (e.g. the API server's StatusError from a bind). */
  error?: unknown;
}

export function newStatus(code: Code, ...reasons: string[]): Status {
  return { code, reasons };
}

/** framework.AsStatus(err): an Error status carrying the error's message. */
export function asStatus(err: unknown): Status {
  return { code: Code.Error, reasons: [err instanceof Error ? err.message : String(err)], error: err };
}

export function isSuccess(s: Status | undefined): boolean {
  return s === undefined || s.code === Code.Success;
}

/** IsRejected: Unschedulable, UnschedulableAndUnresolvable or Pending. */
export function isRejected(s: Status | undefined): boolean {
  return !!s && (s.code === Code.Unschedulable || s.code === Code.UnschedulableAndUnresolvable || s.code === Code.Pending);
}

/** Status.Message(): the reasons joined by ", ". */
export function statusMessage(s: Status | undefined): string {
  return s ? s.reasons.join(', ') : '';
}
