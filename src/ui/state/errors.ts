// Turns whatever a call rejected with into what the error area shows: the API Status when there is one.
import type { ApiErrorView } from './feedback-slice';

export function toErrorView(err: unknown): ApiErrorView {
  const status = (err as { status?: { message?: unknown; reason?: unknown; code?: unknown } } | undefined)?.status;
  if (status && typeof status.message === 'string') {
    return { message: status.message, reason: String(status.reason ?? ''), code: Number(status.code ?? 0) };
  }
  return { message: err instanceof Error ? err.message : String(err), reason: '', code: 0 };
}
