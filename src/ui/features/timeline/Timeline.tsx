// The bottom timeline: the cluster's Events and the API requests, newest at the bottom.
import { memo, useEffect, useRef, useState } from 'react';
import type { Ref, RefObject } from 'react';
import { useRowWindow } from '../../lib/use-row-window';
import { formatSimTime } from '../../lib/sim-time';
import type { EventRow } from '../../state/selectors';
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

/**
 * Keeps the newest entries in view unless the user scrolled up to read older ones, without reading the layout
 * from script: an IntersectionObserver on a marker under the table says whether the user is at the bottom, and
 * a ResizeObserver on the table scrolls to the bottom when it grew (its callback runs once the browser has laid
 * the page out, so scrollHeight costs nothing there). Reading scrollHeight after each render forced a layout of
 * the whole page, the object graph included, on every batch.
 */
function useFollowNewest(body: RefObject<HTMLDivElement | null>, content: RefObject<HTMLDivElement | null>, bottom: RefObject<HTMLDivElement | null>, tab: Tab): void {
  const following = useRef(true);
  useEffect(() => {
    const el = body.current;
    const table = content.current;
    const marker = bottom.current;
    if (!el || !table || !marker || typeof ResizeObserver !== 'function' || typeof IntersectionObserver !== 'function') return;
    const atBottom = new IntersectionObserver(([entry]) => (following.current = entry.isIntersecting), { root: el, rootMargin: '0px 0px 40px 0px' });
    atBottom.observe(marker);
    const grew = new ResizeObserver(() => {
      if (following.current) el.scrollTop = el.scrollHeight;
    });
    grew.observe(table);
    return () => {
      atBottom.disconnect();
      grew.disconnect();
    };
  }, [body, content, bottom]);
  // Another tab shows its newest entries first.
  useEffect(() => {
    following.current = true;
    const el = body.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [body, tab]);
}

/** One Event's row; memoised, so a new Event renders one row, not the 200 shown. */
const EventRowView = memo(function EventRowView({ e, rowRef }: { e: EventRow; rowRef?: Ref<HTMLTableRowElement> }) {
  return (
    <tr ref={rowRef}>
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
  );
});

/**
 * The body's rows change on every batch of a rollout: contained (its size is the panel's, nothing inside moves
 * anything outside), a new row lays out the timeline only, not the page with the object graph in it.
 */
const isolated = { contain: 'strict' } as const;

/** The newest Events the timeline lists. */
const shownEvents = 200;

/**
 * The rows around what the panel shows (some dozens of the 200): during a rollout every batch brings Events, and
 * laying out and painting 200 rows (4,300 px) for a panel a few rows high was most of the timeline's cost per frame.
 * A short list (what a small cluster has) renders whole.
 */
const eventWindow = { overscan: 20, fullBelow: 60 };

function EventRowsSpacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" className="row-spacer">
      <td colSpan={5} style={{ height }} />
    </tr>
  );
}

export function Timeline() {
  const [tab, setTab] = useState<Tab>(Tab.Events);
  const events = useAppStore(selectEventRows);
  const requests = useAppStore(selectRequests);
  const body = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const firstRow = useRef<HTMLTableRowElement>(null);
  useFollowNewest(body, content, bottom, tab);
  const newest = events.length > shownEvents ? events.slice(-shownEvents) : events;
  const win = useRowWindow(tab === Tab.Events ? newest.length : 0, body, firstRow, eventWindow);
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
      <div className="timeline-body" ref={body} hidden={tab === Tab.Console} style={isolated}>
        <div ref={content}>
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
              {win.above > 0 && <EventRowsSpacer height={win.above} />}
              {newest.slice(win.start, win.end).map((e, i) => (
                <EventRowView key={e.id} e={e} rowRef={i === 0 ? firstRow : undefined} />
              ))}
              {win.below > 0 && <EventRowsSpacer height={win.below} />}
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
        <div ref={bottom} className="timeline-bottom" aria-hidden="true" />
      </div>
    </section>
  );
}
