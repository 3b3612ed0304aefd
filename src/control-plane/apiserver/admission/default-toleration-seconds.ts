// DefaultTolerationSeconds (plugin/pkg/admission/defaulttolerationseconds/admission.go): every pod tolerates
// node.kubernetes.io/not-ready and node.kubernetes.io/unreachable NoExecute taints for 300 s unless it already
// tolerates them, so a pod on a lost node is evicted after five minutes. The seconds are read at each admission,
// so changing the flags (the cluster settings) applies to the pods created afterwards, as a restarted
// kube-apiserver with new flags would; pods admitted earlier keep theirs.
import type { AdmissionAttributes, AdmissionOperation, MutatingAdmissionPlugin } from '../types';
import { AdmissionOperation as Op } from '../types';

export const DefaultTolerationSecondsPluginName = 'DefaultTolerationSeconds';

export const TaintNodeNotReady = 'node.kubernetes.io/not-ready';
export const TaintNodeUnreachable = 'node.kubernetes.io/unreachable';
/** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds. */
export const defaultTolerationSeconds = 300;

interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
  tolerationSeconds?: number;
}

function tolerates(t: Toleration, key: string): boolean {
  return (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect);
}

/** The plugin with the seconds read from `seconds()` at each admission (the live cluster setting). */
export function newDefaultTolerationSecondsPlugin(seconds: () => number): MutatingAdmissionPlugin {
  return {
    name: DefaultTolerationSecondsPluginName,
    handles: (op) => op === Op.Create || op === Op.Update,
    admit: (attrs) => admitTolerations(attrs, seconds()),
  };
}

function admitTolerations(attrs: AdmissionAttributes, tolerationSeconds: number): void {
  if (attrs.resourceType.group !== '' || attrs.resourceType.resource !== 'pods' || attrs.subresource) return;
  const pod = attrs.object;
  if (!pod) return;
  const spec = (pod.spec ?? (pod.spec = {})) as { tolerations?: Toleration[] };
  const tolerations = spec.tolerations ?? [];
  const add: Toleration[] = [];
  for (const key of [TaintNodeNotReady, TaintNodeUnreachable]) {
    if (!tolerations.some((t) => tolerates(t, key))) {
      add.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds });
    }
  }
  if (add.length > 0) spec.tolerations = [...tolerations, ...add];
}

/** The plugin with the real flags' default (300 s). */
export const defaultTolerationSecondsPlugin: MutatingAdmissionPlugin = {
  name: DefaultTolerationSecondsPluginName,
  handles(op: AdmissionOperation): boolean {
    return op === Op.Create || op === Op.Update;
  },
  admit(attrs: AdmissionAttributes): void {
    admitTolerations(attrs, defaultTolerationSeconds);
  },
};
