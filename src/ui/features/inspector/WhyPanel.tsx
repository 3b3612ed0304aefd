// "Why does this exist?": the causal chain of trace events from a root cause (usually a user's request) to this
// object's creation, root first, as sentences with their simulated time.
import { memo, useMemo, useState } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import type { WhyParams } from '../../../shared/protocol/introspection';
import { formatSimTime } from '../../lib/sim-time';
import type { ObjectSelection } from '../../state/ui-slice';
import { splitResourceKey } from './edit';
import { useWorkerCall } from './use-worker-call';
import { isKeyStep, whyLines } from './why-lines';

export const WhyPanel = memo(function WhyPanel({ selection, obj }: { selection: ObjectSelection; obj: KubeObject }) {
  const [everyStep, setEveryStep] = useState(false);
  const params = useMemo<WhyParams>(() => {
    const { group, resource } = splitResourceKey(selection.resourceKey);
    const p: WhyParams = { group, resource, name: obj.metadata.name ?? '' };
    if (obj.metadata.namespace) p.namespace = obj.metadata.namespace;
    if (obj.metadata.uid) p.uid = obj.metadata.uid;
    return p;
  }, [selection.resourceKey, obj.metadata.name, obj.metadata.namespace, obj.metadata.uid]);
  const { result, error, loading, refresh } = useWorkerCall('trace/why', params, `${selection.resourceKey}|${selection.key}|${obj.metadata.uid ?? ''}`);
  const lines = useMemo(() => {
    const chain = result?.chain ?? [];
    const all = whyLines(chain, obj.metadata.name);
    return everyStep ? all : all.filter((_, i) => isKeyStep(chain[i], i, chain));
  }, [result, everyStep, obj.metadata.name]);
  const label = `${obj.kind.toLowerCase()}/${obj.metadata.name ?? ''}`;

  return (
    <>
      <div className="why-controls">
        <label className="inline-label">
          <input type="checkbox" checked={everyStep} onChange={(e) => setEveryStep(e.target.checked)} />
          Show every step
        </label>
        <button type="button" className="small neutral" onClick={refresh} disabled={loading}>
          Refresh chain
        </button>
      </div>
      {error ? (
        <p className="inline-error">Could not trace why {label} exists: {error}</p>
      ) : !result ? (
        <p className="muted">Tracing…</p>
      ) : (
        <>
          {lines.length > 0 && (
            <ol className="why-chain" aria-label={`Why ${label} exists, root cause first`}>
              {lines.map((l) => (
                <li key={l.seq}>
                  <time className="mono muted" dateTime={new Date(l.time).toISOString()}>
                    {formatSimTime(l.time).slice(11, 19)}
                  </time>{' '}
                  {l.text}
                </li>
              ))}
            </ol>
          )}
          {(!result.complete || result.chain.length === 0) && <p className="muted why-note">{result.note ?? 'The trace no longer holds the start of this chain.'}</p>}
        </>
      )}
    </>
  );
});
