// Summary: identity (uid, resourceVersion, labels, creation) and the conditions table, live.
import { memo } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { useAppStore } from '../../state/store';
import { conditionRows } from './conditions';
import { selectNowSeconds } from './inspector-selectors';

export const SummaryPanel = memo(function SummaryPanel({ obj }: { obj: KubeObject }) {
  const now = useAppStore(selectNowSeconds);
  const conditions = now ? conditionRows(obj, now) : [];
  const m = obj.metadata;
  const labels = Object.entries(m.labels ?? {});
  const label = `${obj.kind.toLowerCase()}/${m.name ?? ''}`;
  return (
    <>
      <dl className="inspector-details">
        <dt>UID</dt>
        <dd className="mono">{m.uid}</dd>
        <dt>Resource version</dt>
        <dd className="mono">{m.resourceVersion}</dd>
        <dt>Created</dt>
        <dd className="mono">{m.creationTimestamp}</dd>
        {m.deletionTimestamp && (
          <>
            <dt>Deleting since</dt>
            <dd className="mono">{m.deletionTimestamp}</dd>
          </>
        )}
        {(m.finalizers?.length ?? 0) > 0 && (
          <>
            <dt>Finalizers</dt>
            <dd className="mono">{m.finalizers!.join(', ')}</dd>
          </>
        )}
        <dt>Labels</dt>
        <dd className="mono">{labels.length ? labels.map(([k, v]) => `${k}=${v}`).join(', ') : '<none>'}</dd>
      </dl>
      {conditions.length === 0 ? (
        <p className="muted">No conditions.</p>
      ) : (
        <div className="table-scroll">
          <table className="compact inspector-table" aria-label={`Conditions of ${label}`}>
            <caption>Conditions</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">Message</th>
                <th scope="col">Last transition</th>
              </tr>
            </thead>
            <tbody>
              {conditions.map((c) => (
                <tr key={c.type} className={c.status === 'True' ? undefined : 'condition-off'}>
                  <th scope="row">{c.type}</th>
                  <td>{c.status}</td>
                  <td>{c.reason}</td>
                  <td className="wrap">{c.message}</td>
                  <td>{c.lastTransition}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
});
