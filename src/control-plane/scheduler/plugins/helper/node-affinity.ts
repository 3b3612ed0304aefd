// component-helpers/scheduling/corev1/nodeaffinity: whether a node satisfies a pod's nodeSelector and required
// node affinity, and which preferred terms it matches. A term that does not parse matches nothing, as upstream.
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, Pod } from 'kubernetes-types/core/v1';

type Labels = Readonly<Record<string, string>>;

function requirementMatchesLabels(r: NodeSelectorRequirement, labels: Labels): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const value = has ? labels[r.key] : '';
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return has && values.includes(value);
    case 'NotIn':
      return !has || !values.includes(value);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const want = Number.parseInt(values[0], 10);
      const got = Number.parseInt(value, 10);
      if (!/^-?\d+$/.test(values[0]) || !/^-?\d+$/.test(value)) return false;
      return r.operator === 'Gt' ? got > want : got < want;
    }
    default:
      return false;
  }
}

function fieldMatches(r: NodeSelectorRequirement, nodeName: string): boolean {
  // Only metadata.name is a supported field, with In/NotIn and exactly one value.
  if (r.key !== 'metadata.name' || (r.values ?? []).length !== 1) return false;
  if (r.operator === 'In') return r.values![0] === nodeName;
  if (r.operator === 'NotIn') return r.values![0] !== nodeName;
  return false;
}

/** A NodeSelectorTerm: all expressions and fields match; an empty term matches nothing. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
  const exprs = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (exprs.length === 0 && fields.length === 0) return false;
  const labels = node.metadata?.labels ?? {};
  return exprs.every((r) => requirementMatchesLabels(r, labels)) && fields.every((r) => fieldMatches(r, node.metadata?.name ?? ''));
}

/** RequiredNodeAffinity.Match: the nodeSelector map and (any of) the required terms. */
export function requiredNodeAffinityMatches(pod: Pod, node: Node): boolean {
  const selector = pod.spec?.nodeSelector;
  if (selector) {
    const labels = node.metadata?.labels ?? {};
    for (const [k, v] of Object.entries(selector)) if (labels[k] !== v) return false;
  }
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (required) return required.nodeSelectorTerms.some((t) => nodeSelectorTermMatches(t, node));
  return true;
}

/** Whether the pod has a nodeSelector or required node affinity at all. */
export function hasRequiredNodeAffinity(pod: Pod): boolean {
  return Object.keys(pod.spec?.nodeSelector ?? {}).length > 0 || !!pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
}
