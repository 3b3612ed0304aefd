// The Nodes view: every Node as a card holding its pods, the unscheduled pods in a tray, and the chaos buttons
// (kill / restart / partition / remove a node, add one, stop / start the API server) with kubectl's output.
import { memo, useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../state/store';
import { useClient } from '../../worker-client/context';
import { NodeCard } from './NodeCard';
import { PodChipState } from './node-model';
import { selectNodeNames, selectUnscheduledPods } from './node-selectors';
import { PodChipList } from './PodChipList';
import type { LogLine } from './use-node-actions';
import { kubeletState, useNodeActions } from './use-node-actions';
import './nodes.css';

const UnscheduledTray = memo(function UnscheduledTray() {
  const pods = useAppStore(useShallow(selectUnscheduledPods));
  return (
    <section className="unscheduled" role="region" aria-label="Unscheduled pods">
      <h3>
        Unscheduled <span className="count">({pods.length})</span>
      </h3>
      {pods.length === 0 && <p className="muted">Every pod is bound to a node.</p>}
      <PodChipList pods={pods} label="Unscheduled pods list" />
    </section>
  );
});

/** What each chip colour means, in the chips' own vocabulary (their accessible names end with the same word). */
const legend: { state: PodChipState; meaning: string }[] = [
  { state: PodChipState.Running, meaning: 'Running, ready' },
  { state: PodChipState.NotReady, meaning: 'Running, not ready' },
  { state: PodChipState.Pending, meaning: 'Pending' },
  { state: PodChipState.CrashLoopBackOff, meaning: 'CrashLoopBackOff' },
  { state: PodChipState.ImagePullBackOff, meaning: 'ImagePullBackOff' },
  { state: PodChipState.Succeeded, meaning: 'Succeeded' },
  { state: PodChipState.Failed, meaning: 'Failed' },
  { state: PodChipState.Terminating, meaning: 'Terminating' },
];

const PodLegend = memo(function PodLegend() {
  return (
    <ul className="pod-legend" aria-label="Pod chip colours">
      {legend.map(({ state, meaning }) => (
        <li key={state}>
          <span className="pod-chip" data-state={state} aria-hidden="true" />
          {meaning}
        </li>
      ))}
    </ul>
  );
});

const NodeLog = memo(function NodeLog({ lines, onClear }: { lines: LogLine[]; onClear(): void }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [lines]);
  return (
    <section className="node-log" aria-label="kubectl output">
      <div className="node-log-head">
        <h3>kubectl output</h3>
        <button type="button" className="node-button" aria-label="Clear kubectl output" disabled={lines.length === 0} onClick={onClear}>
          Clear
        </button>
      </div>
      <pre ref={ref} role="log" aria-label="kubectl output lines">
        {lines.map((l) => (
          <span key={l.id} className="log-line" data-stream={l.stream}>
            {l.text}
            {'\n'}
          </span>
        ))}
      </pre>
    </section>
  );
});

export const NodesView = memo(function NodesView() {
  const client = useClient();
  const names = useAppStore(useShallow(selectNodeNames));
  const { faults, log, actions, clearLog } = useNodeActions(client);
  const [busy, setBusy] = useState(false);
  const apiServer = faults?.apiServer;

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="nodes-view" aria-label="Nodes">
      <div className="nodes-toolbar">
        <h2>Nodes</h2>
        <button type="button" className="node-button" aria-label="Add node" disabled={busy} onClick={() => run(() => actions.fault({ kind: 'add-node' }))}>
          Add node
        </button>
        <span className="apiserver-state" data-state={apiServer ?? 'unknown'}>
          API server: <strong>{apiServer ?? '…'}</strong>
        </span>
        {apiServer === 'stopped' ? (
          <button type="button" className="node-button" aria-label="Start API server" disabled={busy} onClick={() => run(() => actions.fault({ kind: 'start-apiserver' }))}>
            Start API server
          </button>
        ) : (
          <button type="button" className="node-button node-danger" aria-label="Stop API server" disabled={busy || apiServer === undefined} onClick={() => run(() => actions.fault({ kind: 'stop-apiserver' }))}>
            Stop API server
          </button>
        )}
      </div>
      <PodLegend />
      {names.length === 0 ? (
        <p className="muted">No nodes yet.</p>
      ) : (
        <div className="nodes-grid">
          {names.map((name) => (
            <NodeCard key={name} name={name} kubelet={kubeletState(faults, name)} actions={actions} />
          ))}
        </div>
      )}
      <UnscheduledTray />
      <NodeLog lines={log} onClear={clearLog} />
    </section>
  );
});

export default NodesView;
