// The data plane's contract with the page: one HTTP request sent through the simulated network ("send traffic",
// and what `kubectl exec … -- curl` does inside a pod), and the per-workload load levels the metrics follow.

/** Where a request starts: inside a pod (its network namespace, DNS search path and NetworkPolicy egress) or outside the cluster. */
export type TrafficSource = { pod: { namespace: string; name: string } } | { outside: true };

export interface TrafficParams {
  from: TrafficSource;
  /** http://<name>[:port][/path]: a Service DNS name (short names resolve from the pod's namespace), a pod or node IP, a NodePort, a LoadBalancer or Ingress address. */
  url: string;
  /** GET when omitted. */
  method?: string;
  /** Host header override (curl -H 'Host: …'), for name-based Ingress rules. */
  host?: string;
}

/** The object a hop passed through, so the page can animate Service → Pod and open it. */
export interface TrafficObjectRef {
  kind: string;
  namespace?: string;
  name: string;
}

export const TrafficHopKind = {
  Dns: 'dns', // name → ClusterIP / pod IPs / CNAME
  Ingress: 'ingress', // the ingress controller matched host and path to a Service
  LoadBalancer: 'loadbalancer', // an external IP forwarded to a NodePort
  NodePort: 'nodeport',
  Service: 'service', // kube-proxy picked one ready endpoint of the ClusterIP
  NetworkPolicy: 'networkpolicy', // a policy allowed or dropped the connection
  Pod: 'pod', // the container listening on the port answered (or refused)
} as const;
export type TrafficHopKind = (typeof TrafficHopKind)[keyof typeof TrafficHopKind];

export interface TrafficHop {
  kind: TrafficHopKind;
  /** One sentence, e.g. "web.default.svc.cluster.local → 10.96.0.12" or "kube-proxy chose 10.244.1.5:80 (web-7d4b9-abcde)". */
  detail: string;
  object?: TrafficObjectRef;
  /** False where the request stopped (dropped by a policy, refused, no endpoints). */
  ok: boolean;
}

export interface TrafficResult {
  /** True when an HTTP response came back (any status code). */
  ok: boolean;
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** curl's error line when no response came, e.g. "curl: (7) Failed to connect to web port 80 after 1 ms: Couldn't connect to server". */
  error?: string;
  hops: TrafficHop[];
  /** Virtual ms the request took (timeouts take their timeout). */
  durationMs: number;
  /** seq of the 'net.request' trace event that recorded it. */
  traceSeq?: number;
}

/** A workload's simulated load: the CPU its traffic demands, shared by its ready pods (metrics and HPA follow it). */
export interface WorkloadLoad {
  namespace: string;
  /** Deployment, StatefulSet, ReplicaSet, ReplicationController or DaemonSet. */
  kind: string;
  name: string;
  /** Total CPU demand in millicores across the workload; 0 is idle. */
  cpuMillicores: number;
}
