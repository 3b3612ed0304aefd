// The panel a clicked token (or a recent request) opens: what the trace said about the event, the object it was
// about (a button selects it in the inspector) and what changed, from the versions the page saw.
import type { KubeObject } from '../../../shared/api/types';
import { formatSimTime } from '../../lib/sim-time';
import { objectHistory } from '../../state/object-history';
import { appStore, useAppStore } from '../../state/store';
import { changeAt, formatChange } from './object-diff';
import { tokenStore, useTokens } from './token-store';
import type { FlowDelivery, FlowRequest, ObjectRef } from './trace-flow';
import { componentName, deliveryLabel, parseStoreKey, requestLabel, requestObject } from './trace-flow';

const close = () => tokenStore.show(undefined);
const simClock = (ms: number) => formatSimTime(ms).slice(11, 19);

export function TokenDetails() {
  const detail = useTokens((s) => s.detail);
  if (!detail) return null;
  const title = detail.kind === 'request' ? requestLabel(detail.request) : deliveryLabel(detail.delivery);
  return (
    <aside className="cp-details" aria-label="Token details">
      <div className="cp-details-head">
        <h3>{title}</h3>
        <button type="button" className="cp-dismiss" aria-label="Close details" onClick={close}>
          ×
        </button>
      </div>
      {detail.kind === 'request' ? <RequestDetails request={detail.request} /> : <DeliveryDetails delivery={detail.delivery} />}
    </aside>
  );
}

function RequestDetails({ request: r }: { request: FlowRequest }) {
  const ref = requestObject(r);
  return (
    <>
      <dl className="cp-facts">
        <dt>From</dt>
        <dd>
          {componentName(r.from)} <span className="mono">({r.user || 'anonymous'})</span>
        </dd>
        <dt>Request</dt>
        <dd className="mono">
          {r.verb} {r.group ? `${r.group}/` : ''}
          {r.resource}
          {r.namespace ? ` -n ${r.namespace}` : ''}
          {r.name ? ` ${r.name}` : ''}
        </dd>
        <dt>Response</dt>
        <dd className="mono" data-failed={r.code >= 400 || undefined}>
          {r.code}
          {r.reason ? ` ${r.reason}` : ''} at {simClock(r.time)}
        </dd>
        {r.revision !== undefined && (
          <>
            <dt>Committed</dt>
            <dd>revision {r.revision}</dd>
          </>
        )}
      </dl>
      <ol className="cp-detail-stages" aria-label="Stages">
        {r.stages.map((s, i) => (
          <li key={i} data-decision={s.decision} title={s.message}>
            {s.decision === 'refuse' ? '✗' : '✓'} {s.stage}
          </li>
        ))}
      </ol>
      {r.message && <p className="cp-detail-message" data-failed={r.code >= 400 || undefined}>{r.message}</p>}
      {ref && <ObjectChange objectRef={ref} request={r} />}
    </>
  );
}

function inspectLabel(ref: ObjectRef, obj: KubeObject | undefined): string {
  const kind = (obj?.kind ?? ref.resource).toLowerCase();
  return `Show ${kind}/${ref.name}${ref.namespace ? ` in ${ref.namespace}` : ''} in the inspector`;
}

function InspectButton({ objectRef }: { objectRef: ObjectRef }) {
  const obj = useAppStore((s) => s.resources[objectRef.resourceKey]?.objects.get(objectRef.key));
  if (!obj) return <span className="mono">{objectRef.key} (not in the page's view now)</span>;
  return (
    <button type="button" className="inspect-link" onClick={() => appStore.getState().select({ resourceKey: objectRef.resourceKey, key: objectRef.key })}>
      {inspectLabel(objectRef, obj)}
    </button>
  );
}

function ObjectChange({ objectRef, request: r }: { objectRef: ObjectRef; request: FlowRequest }) {
  // Re-render when the object changes: its new version may arrive after the token.
  useAppStore((s) => s.resources[objectRef.resourceKey]?.objects.get(objectRef.key));
  const writes = r.writes.filter((w) => parseStoreKey(w.key)?.key === objectRef.key);
  const deleted = writes.some((w) => w.type === 'DELETE');
  const isWrite = r.verb === 'update' || r.verb === 'patch';
  const change = isWrite && r.revision !== undefined ? changeAt(objectHistory.versions(objectRef.resourceKey, objectRef.key), r.revision) : undefined;
  return (
    <section className="cp-detail-object" aria-label="Object">
      <InspectButton objectRef={objectRef} />
      {r.refusedAt !== undefined || r.code >= 400 ? (
        <p className="muted">Nothing was written.</p>
      ) : r.verb === 'create' && r.revision !== undefined ? (
        <p className="muted">Created at revision {r.revision}.</p>
      ) : deleted ? (
        <p className="muted">Deleted at revision {r.revision}.</p>
      ) : isWrite && r.revision === undefined ? (
        <p className="muted">Nothing changed: the API server wrote no new revision.</p>
      ) : isWrite && !change ? (
        <p className="muted">The page did not see the version before this write, so it cannot show the change.</p>
      ) : change ? (
        <>
          <p className="muted">
            What changed (resourceVersion {change.from} → {change.to}
            {change.exact ? '' : ', several writes in one frame'}):
          </p>
          {change.changes.length ? (
            <ul className="cp-diff mono" aria-label="What changed">
              {change.changes.map((c) => (
                <li key={c.path} data-op={c.op}>
                  {formatChange(c)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No field changed.</p>
          )}
        </>
      ) : null}
    </section>
  );
}

function DeliveryDetails({ delivery: d }: { delivery: FlowDelivery }) {
  const refs = d.keys.map(parseStoreKey).filter((r): r is ObjectRef => r !== undefined);
  return (
    <>
      <dl className="cp-facts">
        <dt>Watcher</dt>
        <dd>
          {d.to ? componentName(d.to) : 'unknown'} {d.user ? <span className="mono">({d.user})</span> : null}
        </dd>
        <dt>Watch</dt>
        <dd className="mono">
          {d.group ? `${d.group}/` : ''}
          {d.resource} ({d.watch})
        </dd>
        <dt>Delivered</dt>
        <dd>
          {d.count} {d.count === 1 ? 'event' : 'events'}
          {d.revision !== undefined ? ` at revision ${d.revision}` : ''}, {simClock(d.time)}
        </dd>
      </dl>
      {refs.length > 0 && (
        <ul className="cp-detail-keys" aria-label="Objects">
          {refs.slice(0, 8).map((ref) => (
            <li key={`${ref.resourceKey}|${ref.key}`}>
              <InspectButton objectRef={ref} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
