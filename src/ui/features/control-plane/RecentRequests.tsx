// The recent API requests as a list under the graph (newest first): the same requests the tokens stand for,
// readable and reachable by keyboard; each opens the request's details.
import { useState } from 'react';
import { formatSimTime } from '../../lib/sim-time';
import { selectRequests } from '../../state/selectors';
import type { AppState } from '../../state/store';
import { useAppStore } from '../../state/store';
import { tokenStore } from './token-store';
import { requestLabel } from './trace-flow';

const shown = 40;
const selectUserRequests = (s: AppState) => s.userRequests;

export function RecentRequests() {
  const [open, setOpen] = useState(true);
  const [onlyUser, setOnlyUser] = useState(false);
  const all = useAppStore(selectRequests);
  const mine = useAppStore(selectUserRequests);
  const requests = onlyUser ? mine : all;
  const recent = requests.slice(-shown).reverse();
  return (
    <section className="cp-recent" aria-label="Recent requests">
      <button type="button" className="cp-recent-toggle" aria-expanded={open} aria-controls="cp-recent-list" onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'} Recent requests ({requests.length})
      </button>
      <button type="button" className="cp-recent-filter" aria-pressed={onlyUser} onClick={() => setOnlyUser(!onlyUser)}>
        Only the user's
      </button>
      {open &&
        (recent.length === 0 ? (
          <p className="muted cp-recent-empty">No requests yet.</p>
        ) : (
          <ol id="cp-recent-list" className="cp-recent-list" aria-label="Recent API requests">
            {recent.map((r) => (
              <li key={r.seq} className={r.code >= 400 ? 'failed' : 'ok'}>
                <button type="button" className="cp-recent-item" onClick={() => tokenStore.show({ kind: 'request', request: r.request })}>
                  <span className="mono">{formatSimTime(r.time).slice(11, 19)}</span> {requestLabel(r.request)}
                  {r.namespace ? ` -n ${r.namespace}` : ''} → <span className="mono">{r.code}</span>
                  {r.request.refusedAt ? ` refused at ${r.request.refusedAt}` : ''}
                </button>
              </li>
            ))}
          </ol>
        ))}
    </section>
  );
}
