// The object's Events, oldest first, with kubectl describe's columns; new ones appear as the watch brings them.
import { memo, useMemo } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { useAppStore } from '../../state/store';
import { selectEventObjects, selectNowSeconds } from './inspector-selectors';
import { describeEventRow, eventsFor } from './object-events';

export const EventsPanel = memo(function EventsPanel({ obj }: { obj: KubeObject }) {
  const all = useAppStore(selectEventObjects);
  const now = useAppStore(selectNowSeconds);
  // Matching is keyed on the object's identity, not its every version.
  const events = useMemo(() => eventsFor(obj, all?.values()), [all, obj.kind, obj.metadata.name, obj.metadata.namespace, obj.metadata.uid]);
  const label = `${obj.kind.toLowerCase()}/${obj.metadata.name ?? ''}`;
  if (events.length === 0) return <p className="muted">No events for {label}.</p>;
  return (
    <div className="table-scroll">
      <table className="compact inspector-table" aria-label={`Events of ${label}`}>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Reason</th>
            <th scope="col">Age</th>
            <th scope="col">From</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => {
            const row = describeEventRow(e, now);
            return (
              <tr key={row.id} className={row.type === 'Warning' ? 'warning' : undefined}>
                <td>{row.type}</td>
                <td>{row.reason}</td>
                <td>{row.age}</td>
                <td>{row.from}</td>
                <td className="wrap">{row.message}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
});
