import { memo } from 'react';
import type { ApiErrorView } from '../state/feedback-slice';

interface Props {
  error: ApiErrorView | undefined;
  onDismiss(): void;
}

/** The API's Status message for the last failed action; an always-present live region so it is announced. */
export const ErrorArea = memo(function ErrorArea({ error, onDismiss }: Props) {
  return (
    <div role="alert" className="feedback feedback-error" hidden={!error}>
      {error && (
        <>
          <p className="feedback-message">{error.message}</p>
          {error.code > 0 && (
            <p className="feedback-detail">
              {error.code} {error.reason}
            </p>
          )}
          <button type="button" className="link-button" onClick={onDismiss}>
            Dismiss
          </button>
        </>
      )}
    </div>
  );
});
