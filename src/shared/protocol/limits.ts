// 'cluster/limits': kubeplay's own playground-wide caps with the current usage, for the Settings dialog
// (control-plane/config/playground-limits.ts builds it).
export interface PlaygroundLimitView {
  key: 'maxObjects' | 'maxStoredBytes' | 'maxReplicasPerWorkload' | 'maxEventsPerMinute';
  label: string;
  unit: 'objects' | 'bytes' | 'replicas' | 'events per minute';
  limit: number;
  defaultLimit: number;
  /** Current usage; absent for replicas (a per-workload cap has no cluster-wide usage). */
  used?: number;
  description: string;
}

export interface PlaygroundLimitsView {
  limits: PlaygroundLimitView[];
}
