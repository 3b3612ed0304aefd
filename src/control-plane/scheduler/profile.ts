// The default profile (pkg/scheduler/apis/config/v1/default_plugins.go, v1.32): the in-tree plugins in their
// order, with their score weights. Of the volume plugins only VolumeBinding's claim checks run; ImageLocality
// is not simulated.
import type { Handle } from './framework/handle';
import { Framework, type WeightedPlugin } from './framework/runtime';
import { DefaultBinder } from './plugins/defaultbinder/default-binder';
import { DefaultPreemption } from './plugins/defaultpreemption/default-preemption';
import { InterPodAffinity } from './plugins/interpodaffinity/inter-pod-affinity';
import { NodeAffinity } from './plugins/nodeaffinity/node-affinity';
import { NodeName } from './plugins/nodename/node-name';
import { NodePorts } from './plugins/nodeports/node-ports';
import { BalancedAllocation } from './plugins/noderesources/balanced-allocation';
import { Fit } from './plugins/noderesources/fit';
import { NodeUnschedulable } from './plugins/nodeunschedulable/node-unschedulable';
import { PodTopologySpread } from './plugins/podtopologyspread/pod-topology-spread';
import { TaintToleration } from './plugins/tainttoleration/taint-toleration';
import { VolumeBinding } from './plugins/volumebinding/volume-binding';

export const DefaultSchedulerName = 'default-scheduler';

export interface SchedulerProfile {
  /** Pods whose spec.schedulerName is this are ours. Default "default-scheduler". */
  schedulerName?: string;
  /**
   * percentageOfNodesToScore: 0/undefined is the adaptive default (50% − nodes/125, at least 5%, at least 100
   * nodes); small clusters (< 100 nodes) are always searched whole.
   */
  percentageOfNodesToScore?: number;
  podInitialBackoffSeconds?: number;
  podMaxBackoffSeconds?: number;
  /** Plugins turned off by name (e.g. "DefaultPreemption"). */
  disabledPlugins?: string[];
  /** Score weights by plugin name, overriding the defaults. */
  weights?: Record<string, number>;
}

/** The default plugins, in the order their extension points run. */
export function defaultPlugins(handle: Handle): WeightedPlugin[] {
  return [
    { plugin: new NodeUnschedulable() },
    { plugin: new NodeName() },
    { plugin: new TaintToleration(), weight: 3 },
    { plugin: new NodeAffinity(), weight: 2 },
    { plugin: new NodePorts() },
    { plugin: new Fit(), weight: 1 },
    { plugin: new VolumeBinding(handle) },
    { plugin: new PodTopologySpread(handle), weight: 2 },
    { plugin: new InterPodAffinity(handle), weight: 2 },
    { plugin: new DefaultPreemption(handle) },
    { plugin: new BalancedAllocation(), weight: 1 },
    { plugin: new DefaultBinder(handle.client) },
  ];
}

/** The framework for a profile: the default plugins minus the disabled ones, with weight overrides. */
export function newFramework(handle: Handle, profile: SchedulerProfile = {}): Framework {
  const disabled = new Set(profile.disabledPlugins ?? []);
  const plugins = defaultPlugins(handle)
    .filter((p) => !disabled.has(p.plugin.name))
    .map((p) => (profile.weights?.[p.plugin.name] !== undefined ? { ...p, weight: profile.weights[p.plugin.name] } : p));
  const fw = new Framework(profile.schedulerName ?? DefaultSchedulerName, plugins);
  for (const p of plugins) if (p.plugin instanceof DefaultPreemption) p.plugin.framework = fw;
  return fw;
}
