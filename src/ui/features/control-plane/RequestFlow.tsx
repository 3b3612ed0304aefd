// The Control plane view, for now: the API requests the trace channel reports, newest first, as they happen.
import { selectRequests } from '../../state/selectors';
import { useAppStore } from '../../state/store';
import { formatSimTime } from '../../lib/sim-time';

export function RequestFlow() {
  const requests = useAppStore(selectRequests);
  const recent = requests.slice(-50).reverse();
  return (
    <section className="request-flow" aria-labelledby="request-flow-title">
      <h2 id="request-flow-title">API server requests</h2>
      {recent.length === 0 ? (
        <p className="muted">No requests yet.</p>
      ) : (
        <ol className="request-list" aria-label="Recent API requests">
          {recent.map((r) => (
            <li key={r.seq} className={r.code >= 400 ? 'failed' : 'ok'}>
              <span className="mono">{formatSimTime(r.time).slice(11, 19)}</span> <span className="mono">{r.user || 'anonymous'}</span>{' '}
              <strong>{r.verb}</strong> {r.resource}
              {r.name ? `/${r.name}` : ''}
              {r.namespace ? ` -n ${r.namespace}` : ''} → <span className="mono">{r.code}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
