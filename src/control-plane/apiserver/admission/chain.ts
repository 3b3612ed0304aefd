// The admission plugins a kubeadm v1.32 API server enables by default, in kube-apiserver's order
// (pkg/kubeapiserver/options/plugins.go AllOrderedPlugins). The mutating pass runs every plugin's Admit in this
// order, then the validating pass every Validate; webhooks and ResourceQuota come last. PodSecurity,
// RuntimeClass, the webhooks and the rest of the default-on list are not simulated yet.
import type { MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../types';
import { defaultStorageClass } from './default-storage-class';
import { defaultIngressClass } from './default-ingress-class';
import { defaultTolerationSecondsPlugin, newDefaultTolerationSecondsPlugin } from './default-toleration-seconds';
import { LimitRanger } from './limit-ranger';
import { namespaceLifecycle } from './namespace-lifecycle';
import type { PlaygroundLimitsSource } from '../../config/live-playground-limits';
import { PlaygroundLimitsAdmission } from './playground-limits';
import { PriorityAdmission } from './priority';
import { ResourceQuotaAdmission } from './resource-quota';
import { ServiceAccountAdmission } from './service-account';

export interface AdmissionChain {
  mutating: MutatingAdmissionPlugin[];
  validating: ValidatingAdmissionPlugin[];
}

/** kube-apiserver admission flags the playground exposes; each is read at every admission (live settings). */
export interface AdmissionFlags {
  /** --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds. Default 300. */
  defaultTolerationSeconds?: () => number;
  /**
   * kubeplay's own playground-wide caps (config/playground-limits.ts), enforced by the PlaygroundLimits plugin
   * just before ResourceQuota. Absent: no caps (a bare API server in a test, a benchmark).
   */
  playgroundLimits?: PlaygroundLimitsSource;
}

/**
 * Both passes, sharing the plugin instances that implement both interfaces (LimitRanger, ServiceAccount).
 * `rng` draws generated names (the kube-api-access-xxxxx volume); pass the cluster's seeded stream.
 */
export function defaultAdmissionChain(rng?: () => number, flags: AdmissionFlags = {}): AdmissionChain {
  const limitRanger = new LimitRanger();
  const serviceAccount = new ServiceAccountAdmission(rng);
  const priority = new PriorityAdmission();
  const defaultToleration = flags.defaultTolerationSeconds
    ? newDefaultTolerationSecondsPlugin(flags.defaultTolerationSeconds)
    : defaultTolerationSecondsPlugin;
  return {
    // NamespaceLifecycle, LimitRanger, ServiceAccount, Priority, DefaultTolerationSeconds, DefaultStorageClass, DefaultIngressClass.
    mutating: [namespaceLifecycle, limitRanger, serviceAccount, priority, defaultToleration, defaultStorageClass, defaultIngressClass],
    // LimitRanger, ServiceAccount, Priority, [PlaygroundLimits,] ResourceQuota.
    validating: [
      limitRanger,
      serviceAccount,
      priority,
      ...(flags.playgroundLimits ? [new PlaygroundLimitsAdmission(flags.playgroundLimits)] : []),
      new ResourceQuotaAdmission(),
    ],
  };
}

export function defaultMutatingPlugins(rng?: () => number): MutatingAdmissionPlugin[] {
  return defaultAdmissionChain(rng).mutating;
}

export function defaultValidatingPlugins(): ValidatingAdmissionPlugin[] {
  return defaultAdmissionChain().validating;
}
