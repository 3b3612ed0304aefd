// "Send traffic": a small non-modal panel that sends HTTP requests through the simulated data plane from outside the
// cluster or from a pod, and shows what came back — status, the body as text (never HTML), curl's error, the hops.
import { memo, useEffect, useMemo, useRef } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import type { TrafficHop, TrafficResult } from '../../../shared/protocol/network';
import { useAppStore } from '../../state/store';
import type { AppState } from '../../state/store';
import { useClient } from '../../worker-client/context';
import { OutsideTheCluster, sendTraffic, summarizeResults, useTrafficUi } from './traffic-state';
import { trafficUi } from './traffic-state';
import './traffic.css';

const noPods: readonly string[] = [];
let lastPods: ReadonlyMap<string, KubeObject> | undefined;
let lastPodKeys: readonly string[] = noPods;

/** "namespace/name" of every pod with an IP (one that can send), memoised on the pods map. */
function selectSendingPods(s: AppState): readonly string[] {
  const pods = s.resources['/pods']?.objects;
  if (pods === lastPods) return lastPodKeys;
  lastPods = pods;
  const keys: string[] = [];
  for (const [key, pod] of pods ?? []) if ((pod.status as { podIP?: string } | undefined)?.podIP) keys.push(key);
  lastPodKeys = keys.sort();
  return lastPodKeys;
}

export const TrafficPanel = memo(function TrafficPanel() {
  const open = useTrafficUi((s) => s.open);
  return open ? <OpenPanel /> : null;
});

function OpenPanel() {
  const client = useClient();
  const { target, from, url, host, sending, results, error } = useTrafficUi((s) => s);
  const pods = useAppStore(selectSendingPods);
  const title = target ? `Send traffic to ${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}` : 'Send traffic';
  const set = trafficUi.getState().set;
  // The inspector scrolls: bring each answer into view as it arrives.
  const resultRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (results.length || error) resultRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [results, error]);
  return (
    <section role="dialog" aria-modal="false" aria-label="Send traffic" className="traffic-panel">
      <div className="panel-bar">
        <h3>{title}</h3>
        <button type="button" className="small" onClick={() => trafficUi.getState().close()}>
          Close send traffic
        </button>
      </div>
      <form
        className="traffic-form"
        onSubmit={(e) => {
          e.preventDefault();
          void sendTraffic(client, 1);
        }}
      >
        <label>
          From{' '}
          <select value={from} onChange={(e) => set({ from: e.target.value })}>
            <option value={OutsideTheCluster}>Outside the cluster</option>
            {(from === OutsideTheCluster || pods.includes(from) ? pods : [...pods, from]).map((p) => (
              <option key={p} value={p}>
                Pod {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          URL <input type="text" className="mono" value={url} spellCheck={false} onChange={(e) => set({ url: e.target.value })} />
        </label>
        <label>
          Host header <input type="text" className="mono" value={host} placeholder="(from the URL)" spellCheck={false} onChange={(e) => set({ host: e.target.value })} />
        </label>
        <div className="traffic-actions">
          <button type="submit" disabled={sending}>
            Send
          </button>
          <button type="button" className="small neutral" disabled={sending} onClick={() => void sendTraffic(client, 10)}>
            Send 10
          </button>
        </div>
      </form>
      <div ref={resultRef} role="region" aria-label="Traffic result" className="traffic-result">
        {error && (
          <p role="alert" className="failed">
            {error}
          </p>
        )}
        {results.length > 1 && <MultiSummary results={results} />}
        {results.length > 0 && <ResultView result={results[results.length - 1]} />}
      </div>
    </section>
  );
}

function MultiSummary({ results }: { results: readonly TrafficResult[] }) {
  const byPod = useMemo(() => answeredBy(results), [results]);
  return (
    <p className="traffic-summary">
      {summarizeResults(results)}
      {byPod.length > 0 && ` — answered by ${byPod.map(([pod, n]) => `${pod} (${n})`).join(', ')}`}
    </p>
  );
}

/** Which pods answered, and how often: kube-proxy's spread over the endpoints. */
export function answeredBy(results: readonly TrafficResult[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const r of results) {
    const pod = r.hops.findLast((h) => h.kind === 'pod' && h.ok && h.object)?.object;
    if (pod) counts.set(pod.name, (counts.get(pod.name) ?? 0) + 1);
  }
  return [...counts];
}

export function ResultView({ result }: { result: TrafficResult }) {
  return (
    <div className="traffic-result-one">
      {/* Only the outcome is announced, not the whole body. */}
      <p role="status" className={result.ok ? 'ok' : 'failed'}>
        {result.ok ? `HTTP ${result.status ?? ''}` : 'No response'} <span className="muted">({result.durationMs} ms)</span>
      </p>
      {result.error && <pre className="traffic-error">{result.error}</pre>}
      <ol aria-label="Hops" className="traffic-hops">
        {result.hops.map((h, i) => (
          <HopItem key={i} hop={h} />
        ))}
      </ol>
      {result.body !== undefined && (
        // Text, never HTML: React escapes it, and a <pre> keeps the page's own layout.
        <pre aria-label="Response body" className="traffic-body">
          {result.body}
        </pre>
      )}
    </div>
  );
}

function HopItem({ hop }: { hop: TrafficHop }) {
  return (
    <li className={hop.ok ? 'ok' : 'failed'} data-kind={hop.kind}>
      <span className="traffic-hop-kind">{hop.kind}</span> {hop.detail}
      {!hop.ok && <span className="visually-hidden"> (stopped here)</span>}
    </li>
  );
}
