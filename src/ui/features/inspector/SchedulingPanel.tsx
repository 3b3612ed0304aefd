// Scheduling: kube-scheduler's recorded attempts for this pod (sim/decisions), the latest as a table with a
// column per node — which filter plugin rejected it and why, or each score plugin's score and the total —
// the chosen node highlighted. Asked again whenever the pod's resourceVersion changes.
import { memo, useMemo } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import type { SchedulingDecisionView } from '../../../shared/protocol/introspection';
import { formatSimTime } from '../../lib/sim-time';
import { useAppStore } from '../../state/store';
import { decisionSummary, decisionTable } from './decision-table';
import { selectEventObjects } from './inspector-selectors';
import { eventsFor } from './object-events';
import { useWorkerCall } from './use-worker-call';

export const SchedulingPanel = memo(function SchedulingPanel({ pod }: { pod: KubeObject }) {
  const namespace = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
  const params = useMemo(() => ({ namespace, name }), [namespace, name]);
  const { result, error, loading, refresh } = useWorkerCall('sim/decisions', params, `${namespace}/${name}@${pod.metadata.resourceVersion ?? ''}`);
  const allEvents = useAppStore(selectEventObjects);
  const failed = useMemo(() => eventsFor(pod, allEvents?.values()).filter((e) => e.reason === 'FailedScheduling').at(-1), [pod, allEvents]);
  // Only this incarnation's attempts (a recreated pod of the same name has another uid).
  const decisions = (result ?? []).filter((d) => !pod.metadata.uid || d.uid === pod.metadata.uid);
  const latest = decisions.at(-1);

  return (
    <>
      <div className="why-controls">
        <p>
          {nodeName ? (
            <>
              Bound to <strong>{nodeName}</strong>.
            </>
          ) : (
            'Not bound to a node yet.'
          )}
        </p>
        <button type="button" className="small neutral" onClick={refresh} disabled={loading}>
          Refresh decisions
        </button>
      </div>
      {!nodeName && failed && failed.message !== latest?.message && (
        <p className="inline-error">
          FailedScheduling: {failed.message}
        </p>
      )}
      {error ? (
        <p className="inline-error">Could not read the scheduler’s decisions: {error}</p>
      ) : !result ? (
        <p className="muted">Asking the scheduler…</p>
      ) : !latest ? (
        <p className="muted">
          {nodeName
            ? 'The scheduler has no recorded attempt for this pod (it was bound before the scheduler’s history, or by someone else).'
            : 'The scheduler has not tried this pod yet.'}
        </p>
      ) : (
        <>
          <DecisionView decision={latest} podLabel={`${namespace}/${name}`} />
          {decisions.length > 1 && (
            <details className="earlier-attempts">
              <summary>Earlier attempts ({decisions.length - 1})</summary>
              <ol aria-label="Earlier scheduling attempts">
                {decisions.slice(0, -1).map((d) => (
                  <li key={`${d.cycle}-${d.attempt}`}>
                    <SimClock time={d.time} /> attempt {d.attempt}: {decisionSummary(d)}
                  </li>
                ))}
              </ol>
            </details>
          )}
        </>
      )}
    </>
  );
});

/** The simulated wall-clock time of day, like the timeline's "17:34:15". */
function SimClock({ time }: { time: number }) {
  return (
    <time className="mono muted" dateTime={new Date(time).toISOString()}>
      {formatSimTime(time).slice(11, 19)}
    </time>
  );
}

function DecisionView({ decision, podLabel }: { decision: SchedulingDecisionView; podLabel: string }) {
  const table = useMemo(() => decisionTable(decision), [decision]);
  return (
    <>
      <p className={decision.result === 'Scheduled' ? 'decision-summary' : 'decision-summary inline-error'}>
        <SimClock time={decision.time} /> attempt {decision.attempt}: {decisionSummary(decision)}
      </p>
      <div className="table-scroll">
        <table className="compact inspector-table decision-table" aria-label={`Scheduling decision for ${podLabel}`}>
          <thead>
            <tr>
              <th scope="col">Plugin</th>
              {table.columns.map((c) => (
                <th key={c.node} scope="col" className={c.chosen ? 'chosen' : c.filtered ? 'filtered' : undefined}>
                  {c.node}
                  {c.chosen && ' (chosen)'}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((r) => (
              <tr key={r.label} className={r.label === 'Total' ? 'total' : undefined}>
                <th scope="row">
                  {r.label}
                  {r.weight !== undefined && <span className="muted"> ×{r.weight}</span>}
                </th>
                {r.cells.map((cell, i) => (
                  <td key={table.columns[i].node} className={[table.columns[i].chosen ? 'chosen' : '', r.label === 'Filter' && table.columns[i].filtered ? 'filtered wrap' : ''].join(' ').trim() || undefined}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
