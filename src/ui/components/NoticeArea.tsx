import { memo } from 'react';

/** kubectl-like confirmation of the last successful action ("configmap/demo created"). */
export const NoticeArea = memo(function NoticeArea({ notice }: { notice: string | undefined }) {
  return (
    <p role="status" className="feedback feedback-notice">
      {notice ?? ''}
    </p>
  );
});
