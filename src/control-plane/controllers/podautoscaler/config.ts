// The HPA controller's metrics source rides on the controller manager's configuration, as kube-controller-manager
// gets a metrics client at start. Declared here (interface merging) so the config contract stays as it is.
import type { ResourceMetricsSource } from '../../metrics/metrics-server';

declare module '../controller-context' {
  interface ControllerManagerConfig {
    /** The resource metrics API (metrics.k8s.io) the HPA controller reads; without it every HPA reports failed metrics. */
    resourceMetrics?: ResourceMetricsSource;
    /** --horizontal-pod-autoscaler-sync-period, ms. Default 15 s. */
    horizontalPodAutoscalerSyncPeriodMs?: number;
    /** --horizontal-pod-autoscaler-downscale-stabilization, ms. Default 5 min. */
    horizontalPodAutoscalerDownscaleStabilizationMs?: number;
  }
}

export {};
