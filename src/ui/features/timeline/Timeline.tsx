// The bottom timeline: the cluster's Events and the API requests, newest at the bottom.
import { useLayoutEffect, useRef, useState } from 'react';
import { formatSimTime } from '../../lib/sim-time';
import { selectEventRows, selectRequests } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import { findObject, type ObjectReference } from '../../state/find-object';
import { ConsolePanel } from '../console/Console';

const Tab = { Events: 'events', Requests: 'requests', Console: 'console' } as const;
type Tab = (typeof Tab)[keyof typeof Tab];

/** Opens an Event's object in the inspector (when the page still holds it). */
function inspectInvolved(ref: ObjectReference): void {
  const state = appStore.getState();
  const found = findObject(state.resources, ref);
  if (found) state.select(found);
  else state.showNotice(`${ref.kind ?? 'object'}/${ref.name ?? ''} no longer exists.`);
}

export function Timeline() {
  const [tab, setTab] = useState<Tab>(Tab.Events);
  const events = useAppStore(selectEventRows);
  const requests = useAppStore(selectRequests);
  const body = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  // Follow the newest entries unless the user scrolled up to read older ones.
  useLayoutEffect(() => {
    const el = body.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [events, requests, tab]);
  const onScroll = () => {
    const el = body.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };
  return (
    <section className="timeline" aria-label="Timeline">
      <div role="tablist" aria-label="Timeline" className="tabs">
        <button type="button" role="tab" aria-selected={tab === Tab.Events} aria-controls="timeline-events" id="timeline-events-tab" onClick={() => setTab(Tab.Events)}>
          Events ({events.length})
        </button>
        <button type="button" role="tab" aria-selected={tab === Tab.Requests} aria-controls="timeline-requests" id="timeline-requests-tab" onClick={() => setTab(Tab.Requests)}>
          API requests ({requests.length})
        </button>
        <button type="button" role="tab" aria-selected={tab === Tab.Console} aria-controls="timeline-console" id="timeline-console-tab" onClick={() => setTab(Tab.Console)}>
          Console
        </button>
      </div>
      {tab === Tab.Console && <ConsolePanel />}
      <div className="timeline-body" ref={body} onScroll={onScroll} hidden={tab === Tab.Console}>
        {tab === Tab.Events ? (
          <table id="timeline-events" role="tabpanel" aria-labelledby="timeline-events-tab" className="compact">
            <thead>
              <tr>
                <th scope="col">Last seen</th>
                <th scope="col">Type</th>
                <th scope="col">Reason</th>
                <th scope="col">Object</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {events.slice(-200).map((e) => (
                <tr key={e.id}>
                  <td className="mono">{e.time.slice(11, 19)}</td>
                  <td>{e.type}</td>
                  <td>{e.reason}</td>
                  <td className="mono">
                    <button type="button" className="inspect-link" aria-label={`Inspect ${e.object}`} onClick={() => inspectInvolved(e.involved)}>
                      {e.object}
                    </button>
                  </td>
                  <td>
                    {e.message}
                    {e.count > 1 ? ` (x${e.count})` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <table id="timeline-requests" role="tabpanel" aria-labelledby="timeline-requests-tab" className="compact">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">User</th>
                <th scope="col">Verb</th>
                <th scope="col">Resource</th>
                <th scope="col">Code</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr key={r.seq} className={r.code >= 400 ? 'failed' : undefined}>
                  <td className="mono">{formatSimTime(r.time).slice(11, 19)}</td>
                  <td className="mono">{r.user}</td>
                  <td>{r.verb}</td>
                  <td className="mono">
                    {r.resource}
                    {r.name ? `/${r.name}` : ''}
                    {r.namespace ? ` (${r.namespace})` : ''}
                  </td>
                  <td className="mono">{r.code}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
