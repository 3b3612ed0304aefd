// metav1.Status and the constructors of apimachinery/pkg/api/errors/errors.go, with the same message texts.
import type { FieldError } from './field-errors';
import { fieldErrorToString } from './field-errors';
import { type GroupResource, groupKindString, groupResourceString } from './types';

export const StatusReason = {
  Unknown: '',
  Unauthorized: 'Unauthorized',
  Forbidden: 'Forbidden',
  NotFound: 'NotFound',
  AlreadyExists: 'AlreadyExists',
  Conflict: 'Conflict',
  Gone: 'Gone',
  Invalid: 'Invalid',
  ServerTimeout: 'ServerTimeout',
  Timeout: 'Timeout',
  TooManyRequests: 'TooManyRequests',
  BadRequest: 'BadRequest',
  MethodNotAllowed: 'MethodNotAllowed',
  NotAcceptable: 'NotAcceptable',
  RequestEntityTooLarge: 'RequestEntityTooLarge',
  UnsupportedMediaType: 'UnsupportedMediaType',
  InternalError: 'InternalError',
  Expired: 'Expired',
  ServiceUnavailable: 'ServiceUnavailable',
} as const;
export type StatusReason = (typeof StatusReason)[keyof typeof StatusReason];

export interface StatusCause {
  reason?: string; // a CauseType such as FieldValueInvalid
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message: string;
  reason: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** Thrown by the control plane; carries a plain Status that crosses the worker boundary as JSON. */
export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message);
    this.name = 'StatusError';
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): StatusReason {
    return this.status.reason;
  }
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'Status';
}

export function isStatusError(err: unknown, reason?: StatusReason): err is StatusError {
  return err instanceof StatusError && (reason === undefined || err.status.reason === reason);
}

function failure(code: number, reason: StatusReason, message: string, details?: StatusDetails): StatusError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  if (details) status.details = details;
  return new StatusError(status);
}

/**
 * failure() without capturing a stack trace, for the answers clients expect in normal operation and act on by
 * reason (a lookup that finds nothing, a create that lost a race, a stale resourceVersion): these are thrown
 * on hot paths, where V8's stack capture through the deep synchronous call chain costs more than the rest of
 * the request's error handling. Same class, name, message and status; only `stack` has no frames.
 */
function expectedFailure(code: number, reason: StatusReason, message: string, details?: StatusDetails): StatusError {
  const ErrorWithLimit = Error as { stackTraceLimit?: number };
  const limit = ErrorWithLimit.stackTraceLimit;
  if (typeof limit !== 'number') return failure(code, reason, message, details);
  ErrorWithLimit.stackTraceLimit = 0;
  try {
    return failure(code, reason, message, details);
  } finally {
    ErrorWithLimit.stackTraceLimit = limit;
  }
}

export function newNotFound(gr: GroupResource, name: string): StatusError {
  return expectedFailure(404, StatusReason.NotFound, `${groupResourceString(gr)} "${name}" not found`, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

export function newAlreadyExists(gr: GroupResource, name: string): StatusError {
  return expectedFailure(409, StatusReason.AlreadyExists, `${groupResourceString(gr)} "${name}" already exists`, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

export function newGenerateNameConflict(gr: GroupResource, name: string, retryAfterSeconds: number): StatusError {
  return failure(
    409,
    StatusReason.AlreadyExists,
    `${groupResourceString(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`,
    { name, group: gr.group, kind: gr.resource, retryAfterSeconds },
  );
}

export function newConflict(gr: GroupResource, name: string, reason: string): StatusError {
  return expectedFailure(409, StatusReason.Conflict, `Operation cannot be fulfilled on ${groupResourceString(gr)} "${name}": ${reason}`, {
    name,
    group: gr.group,
    kind: gr.resource,
  });
}

export const OptimisticLockErrorMsg =
  'the object has been modified; please apply your changes to the latest version and try again';

export function newInvalid(gk: { group: string; kind: string }, name: string, errs: FieldError[]): StatusError {
  const causes: StatusCause[] = errs.map((e) => ({ reason: e.type, message: fieldErrorToString(e, false), field: e.field }));
  const body = errs.length === 1 ? fieldErrorToString(errs[0]) : `[${errs.map((e) => fieldErrorToString(e)).join(', ')}]`;
  return failure(422, StatusReason.Invalid, `${groupKindString(gk)} "${name}" is invalid: ${body}`, {
    name,
    group: gk.group,
    kind: gk.kind,
    causes,
  });
}

export function newForbidden(gr: GroupResource, name: string, reason: string): StatusError {
  // errors.go: an empty GroupResource gives "forbidden: <reason>" (non-resource requests).
  const subject = name ? `${groupResourceString(gr)} "${name}"` : groupResourceString(gr);
  const message = gr.resource ? `${subject} is forbidden: ${reason}` : `forbidden: ${reason}`;
  return failure(403, StatusReason.Forbidden, message, {
    name: name || undefined,
    group: gr.group,
    kind: gr.resource,
  });
}

export function newBadRequest(message: string): StatusError {
  return failure(400, StatusReason.BadRequest, message);
}

export function newMethodNotAllowed(gr: GroupResource, action: string): StatusError {
  return failure(405, StatusReason.MethodNotAllowed, `${action} is not supported on resources of kind "${groupResourceString(gr)}"`, {
    group: gr.group,
    kind: gr.resource,
  });
}

/** 410 Expired, as the watch cache and list path return for compacted revisions. */
export function newResourceExpired(message: string): StatusError {
  return failure(410, StatusReason.Expired, message);
}

/** "too old resource version: N (M)", M being the oldest revision still available. */
export function newTooOldResourceVersion(requested: number, oldest: number): StatusError {
  return newResourceExpired(`too old resource version: ${requested} (${oldest})`);
}

export function newTimeout(message: string, retryAfterSeconds = 0): StatusError {
  return failure(504, StatusReason.Timeout, `Timeout: ${message}`, { retryAfterSeconds });
}

export function newTooLargeResourceVersion(requested: number, current: number): StatusError {
  return newTimeout(`Too large resource version: ${requested}, current: ${current}`, 1);
}

export function newInternalError(message: string): StatusError {
  return failure(500, StatusReason.InternalError, `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });
}

export function newRequestEntityTooLarge(message: string): StatusError {
  return failure(413, StatusReason.RequestEntityTooLarge, `Request entity too large: ${message}`);
}

export function newServiceUnavailable(message: string): StatusError {
  return failure(503, StatusReason.ServiceUnavailable, message);
}

/** Any thrown value as a Status: StatusErrors pass through, anything else is an internal error. */
export function toStatus(err: unknown): Status {
  if (err instanceof StatusError) return err.status;
  if (isStatus(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return newInternalError(message).status;
}

export function successStatus(details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', message: '', reason: '', code: 200 };
  if (details) s.details = details;
  return s;
}
