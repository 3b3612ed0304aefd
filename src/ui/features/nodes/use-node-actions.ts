// The Nodes view's link to the worker: the fault state (polled, and refreshed after every action) and the
// actions the buttons run. Failures go to the page's error area as the API's Status.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { CommandOutput, Fault, FaultState, NodeCommand } from '../../../shared/protocol/methods';
import type { ProtocolClient } from '../../../shared/protocol/client';
import { toErrorView } from '../../state/errors';
import { appStore } from '../../state/store';

export const KubeletState = { Running: 'running', Stopped: 'stopped', Partitioned: 'partitioned', None: 'none' } as const;
export type KubeletState = (typeof KubeletState)[keyof typeof KubeletState];

/** What the simulation says about a node's kubelet; "none" for a Node object no simulated machine backs. */
export function kubeletState(faults: FaultState | undefined, node: string): KubeletState | undefined {
  if (!faults) return undefined;
  const entry = faults.nodes.find((n) => n.name === node);
  if (!entry) return KubeletState.None;
  if (!entry.running) return KubeletState.Stopped;
  if (!entry.reachable) return KubeletState.Partitioned;
  return KubeletState.Running;
}

export interface LogLine {
  id: number;
  stream: 'stdout' | 'stderr' | 'command';
  text: string;
}

const maxLogLines = 200;
export const faultPollMs = 2000;

export interface NodeActions {
  fault(fault: Fault): Promise<void>;
  kubectl(cmd: NodeCommand): Promise<void>;
}

export function drainCommand(node: string): NodeCommand {
  return { command: 'drain', node, flags: { ignoreDaemonSets: true, deleteEmptyDirData: true, force: true } };
}

function commandText(cmd: NodeCommand): string {
  if (cmd.command !== 'drain') return `kubectl ${cmd.command} ${cmd.node}`;
  const f = cmd.flags ?? {};
  const flags = [f.ignoreDaemonSets && '--ignore-daemonsets', f.deleteEmptyDirData && '--delete-emptydir-data', f.force && '--force'].filter(Boolean);
  return `kubectl drain ${cmd.node}${flags.length ? ` ${flags.join(' ')}` : ''}`;
}

export function useNodeActions(client: ProtocolClient) {
  const [faults, setFaults] = useState<FaultState | undefined>(undefined);
  const [log, setLog] = useState<LogLine[]>([]);
  const nextId = useRef(0);

  const refresh = useCallback(async () => {
    try {
      setFaults(await client.call('sim/faults'));
    } catch {
      // The worker is resetting or gone; the next poll tells.
    }
  }, [client]);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      await refresh();
      if (!stopped) timer = setTimeout(poll, faultPollMs);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [refresh]);

  const appendLog = useCallback((lines: Omit<LogLine, 'id'>[]) => {
    setLog((prev) => {
      const next = [...prev, ...lines.map((l) => ({ ...l, id: nextId.current++ }))];
      return next.length > maxLogLines ? next.slice(next.length - maxLogLines) : next;
    });
  }, []);

  const actions: NodeActions = useMemo(
    () => ({
      async fault(fault) {
        try {
          const result = await client.call('sim/fault', fault);
          setFaults(result.state);
          if (fault.kind === 'add-node' && result.node) appStore.getState().showNotice(`node/${result.node} added`);
        } catch (err) {
          appStore.getState().showError(toErrorView(err));
          void refresh();
        }
      },
      async kubectl(cmd) {
        appendLog([{ stream: 'command', text: `$ ${commandText(cmd)}` }]);
        try {
          const out: CommandOutput = await client.call('kubectl/node', cmd);
          appendLog(out.lines);
        } catch (err) {
          const view = toErrorView(err);
          appendLog([{ stream: 'stderr', text: `error: ${view.message}` }]);
          appStore.getState().showError(view);
        }
        void refresh();
      },
    }),
    [client, refresh, appendLog],
  );

  const clearLog = useCallback(() => setLog([]), []);

  return { faults, log, actions, clearLog };
}
