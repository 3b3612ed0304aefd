import { memo, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppStore } from '../../state/store';
import {
  abnormalConditions,
  formatCpu,
  formatMemory,
  isCordoned,
  nodeAllocatable,
  nodeReadiness,
  nodeStatusText,
  nodeTaints,
  nodeVolumes,
  nodeZone,
  requestedOnNode,
} from './node-model';
import { selectNode, selectPodsOnNode } from './node-selectors';
import { PodChipList } from './PodChipList';
import { ResourceBar } from './ResourceBar';
import type { KubeletState, NodeActions } from './use-node-actions';
import { drainCommand } from './use-node-actions';

interface Props {
  name: string;
  kubelet: KubeletState | undefined;
  actions: NodeActions;
}

const formatCount = (n: number) => String(n);

/** One Node: its health, its pods, what they request of it, and the buttons that break or tend it. */
export const NodeCard = memo(function NodeCard({ name, kubelet, actions }: Props) {
  const node = useAppStore((s) => selectNode(s, name));
  const pods = useAppStore(useShallow((s) => selectPodsOnNode(s, name)));
  const requested = useMemo(() => requestedOnNode(pods), [pods]);
  const [busy, setBusy] = useState<string | undefined>(undefined);

  if (!node) return null;
  const readiness = nodeReadiness(node);
  const cordoned = isCordoned(node);
  const zone = nodeZone(node);
  const taints = nodeTaints(node);
  const volumes = nodeVolumes(node);
  const status = nodeStatusText(node);
  const conditions = abnormalConditions(node);
  const allocatable = nodeAllocatable(node);
  const partitioned = kubelet === 'partitioned';

  const run = async (what: string, action: () => Promise<void>) => {
    setBusy(what);
    try {
      await action();
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <section className="node-card" role="region" aria-label={`Node ${name}`} data-ready={readiness}>
      <header className="node-head">
        <h3 className="node-name">{name}</h3>
        <span className="badge" data-ready={readiness} aria-label={`Status ${status}`}>
          {status}
        </span>
        {cordoned && <span className="badge badge-cordoned">SchedulingDisabled</span>}
        {kubelet && (
          <span className="kubelet-state" data-state={kubelet}>
            kubelet: {kubelet}
          </span>
        )}
      </header>
      <dl className="node-facts">
        {zone && (
          <>
            <dt>Zone</dt>
            <dd>{zone}</dd>
          </>
        )}
        {taints.length > 0 && (
          <>
            <dt>Taints</dt>
            <dd>
              <ul className="taints" aria-label={`Taints of ${name}`}>
                {taints.map((t) => (
                  <li key={t}>{t}</li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {volumes.length > 0 && (
          <>
            <dt>Volumes</dt>
            <dd>
              <ul className="taints" aria-label={`Volumes of ${name}`}>
                {volumes.map((v) => (
                  <li key={v.name}>{`${v.name} (${v.state})`}</li>
                ))}
              </ul>
            </dd>
          </>
        )}
        {conditions.length > 0 && (
          <>
            <dt>Conditions</dt>
            <dd>
              <ul className="conditions" aria-label={`Conditions of ${name}`}>
                {conditions.map((c) => (
                  <li key={c.type} title={c.message}>
                    {`${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
      <div className="resources">
        <ResourceBar label="cpu" node={name} requested={requested.cpuMillis} allocatable={allocatable.cpuMillis} format={formatCpu} />
        <ResourceBar label="memory" node={name} requested={requested.memoryBytes} allocatable={allocatable.memoryBytes} format={formatMemory} />
        <ResourceBar label="pods" node={name} requested={requested.pods} allocatable={allocatable.pods} format={formatCount} />
      </div>
      <PodChipList pods={pods} label={`Pods on ${name}`} />
      <div className="node-actions">
        <button type="button" className="node-button" aria-label={`Kill ${name}`} disabled={busy !== undefined || kubelet === 'stopped'} onClick={() => run('kill', () => actions.fault({ kind: 'kill-node', node: name }))}>
          Kill
        </button>
        <button type="button" className="node-button" aria-label={`Restart ${name}`} disabled={busy !== undefined} onClick={() => run('restart', () => actions.fault({ kind: 'restart-node', node: name }))}>
          Restart
        </button>
        <button
          type="button"
          className="node-button"
          aria-label={`${partitioned ? 'Heal' : 'Partition'} ${name}`}
          disabled={busy !== undefined || kubelet === 'stopped'}
          onClick={() => run('partition', () => actions.fault({ kind: 'partition-node', node: name, on: !partitioned }))}
        >
          {partitioned ? 'Heal' : 'Partition'}
        </button>
        <button
          type="button"
          className="node-button"
          aria-label={`${cordoned ? 'Uncordon' : 'Cordon'} ${name}`}
          disabled={busy !== undefined}
          onClick={() => run('cordon', () => actions.kubectl({ command: cordoned ? 'uncordon' : 'cordon', node: name }))}
        >
          {cordoned ? 'Uncordon' : 'Cordon'}
        </button>
        <button type="button" className="node-button" aria-label={`Drain ${name}`} disabled={busy !== undefined} onClick={() => run('drain', () => actions.kubectl(drainCommand(name)))}>
          {busy === 'drain' ? 'Draining…' : 'Drain'}
        </button>
        <button type="button" className="node-button node-danger" aria-label={`Remove ${name}`} disabled={busy !== undefined} onClick={() => run('remove', () => actions.fault({ kind: 'remove-node', node: name }))}>
          Remove node
        </button>
      </div>
    </section>
  );
});
