import type { DaemonSet, DaemonSetUpdateStrategy } from 'kubernetes-types/apps/v1';
import type { Pod, PodSpec } from 'kubernetes-types/core/v1';
import { describe, expect, it } from 'vitest';
import {
  addOrUpdateDaemonPodTolerations,
  allowsSurge,
  createPodTemplate,
  getTargetNodeName,
  getTemplateGeneration,
  isPodUpdated,
  replaceDaemonSetPodNodeNameNodeAffinity,
  surgeCount,
  unavailableCount,
} from './daemonset-util';

const daemonTolerations = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

function ds(strategy: DaemonSetUpdateStrategy | undefined, annotations?: Record<string, string>): DaemonSet {
  return {
    metadata: { name: 'd', namespace: 'default', annotations },
    spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [] } }, updateStrategy: strategy },
  };
}

describe('AddOrUpdateDaemonPodTolerations', () => {
  it('appends the six daemon tolerations after the template ones, plus network-unavailable for hostNetwork', () => {
    const spec: PodSpec = { containers: [], tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' }] };
    addOrUpdateDaemonPodTolerations(spec);
    expect(spec.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'x', effect: 'NoSchedule' }, ...daemonTolerations]);
    const host: PodSpec = { containers: [], hostNetwork: true };
    addOrUpdateDaemonPodTolerations(host);
    expect(host.tolerations).toEqual([...daemonTolerations, { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  it('replaces a matching toleration with tolerationSeconds in place (forever instead), and never duplicates', () => {
    const spec: PodSpec = {
      containers: [],
      tolerations: [
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 },
        { key: 'other', operator: 'Exists' },
      ],
    };
    addOrUpdateDaemonPodTolerations(spec);
    addOrUpdateDaemonPodTolerations(spec);
    expect(spec.tolerations![0]).toEqual({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' });
    expect(spec.tolerations).toHaveLength(7);
    expect(spec.tolerations!.filter((t) => t.key === 'node.kubernetes.io/unreachable')).toHaveLength(1);
  });
});

describe('CreatePodTemplate', () => {
  it('adds the hash and (when known) the template generation labels without touching the input', () => {
    const template = { metadata: { labels: { name: 'f' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };
    const t = createPodTemplate(template, 3, 'abc');
    expect(t.metadata?.labels).toEqual({ name: 'f', 'pod-template-generation': '3', 'controller-revision-hash': 'abc' });
    expect(t.spec?.tolerations).toEqual(daemonTolerations);
    expect(template.metadata.labels).toEqual({ name: 'f' });
    expect(createPodTemplate(template, undefined, 'abc').metadata?.labels).toEqual({ name: 'f', 'controller-revision-hash': 'abc' });
  });
});

describe('template generation and IsPodUpdated', () => {
  it('reads the deprecated annotation, reporting a parse error', () => {
    expect(getTemplateGeneration(ds(undefined))).toEqual({});
    expect(getTemplateGeneration(ds(undefined, { 'deprecated.daemonset.template.generation': '4' }))).toEqual({ generation: 4 });
    expect(getTemplateGeneration(ds(undefined, { 'deprecated.daemonset.template.generation': 'x' })).error).toBe('strconv.ParseInt: parsing "x": invalid syntax');
  });

  it('counts a pod updated by hash or by generation', () => {
    const pod = (labels: Record<string, string>): Pod => ({ metadata: { labels } });
    expect(isPodUpdated(pod({ 'controller-revision-hash': 'h1' }), 'h1', undefined)).toBe(true);
    expect(isPodUpdated(pod({ 'controller-revision-hash': 'h0' }), 'h1', undefined)).toBe(false);
    expect(isPodUpdated(pod({ 'controller-revision-hash': 'h0', 'pod-template-generation': '2' }), 'h1', 2)).toBe(true);
    expect(isPodUpdated(pod({}), '', undefined)).toBe(false);
  });
});

describe('surge and unavailability', () => {
  it('scales percentages rounding up, and only for RollingUpdate', () => {
    const rolling = (maxSurge: number | string, maxUnavailable: number | string) => ds({ type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable } });
    expect(surgeCount(rolling('10%', 0), 3)).toBe(1);
    expect(surgeCount(rolling('50%', 0), 5)).toBe(3);
    expect(unavailableCount(rolling(0, '25%'), 10)).toBe(3);
    expect(unavailableCount(rolling(0, 2), 10)).toBe(2);
    expect(allowsSurge(rolling(1, 0))).toBe(true);
    expect(allowsSurge(rolling(0, 1))).toBe(false);
    expect(surgeCount(ds({ type: 'OnDelete' }), 3)).toBe(0);
    expect(unavailableCount(ds({ type: 'OnDelete' }), 3)).toBe(0);
    expect(() => surgeCount(rolling('x', 0), 3)).toThrow('invalid value for IntOrString: invalid type: string is not a percentage');
  });
});

describe('node affinity pinning', () => {
  it('replaces only the required terms, keeping preferred terms and pod affinity', () => {
    expect(replaceDaemonSetPodNodeNameNodeAffinity(undefined, 'node-1')).toEqual({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] } },
    });
    const preferred = [{ weight: 1, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } }];
    const affinity = replaceDaemonSetPodNodeNameNodeAffinity(
      {
        podAntiAffinity: {},
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }] },
          preferredDuringSchedulingIgnoredDuringExecution: preferred,
        },
      },
      'node-2',
    );
    expect(affinity).toEqual({
      podAntiAffinity: {},
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-2'] }] }] },
        preferredDuringSchedulingIgnoredDuringExecution: preferred,
      },
    });
  });

  it('finds the target node from nodeName or the affinity, with the upstream errors otherwise', () => {
    const pinned: Pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], affinity: replaceDaemonSetPodNodeNameNodeAffinity(undefined, 'node-3') } };
    expect(getTargetNodeName(pinned)).toBe('node-3');
    expect(getTargetNodeName({ ...pinned, spec: { ...pinned.spec!, nodeName: 'node-9' } })).toBe('node-9');
    expect(() => getTargetNodeName({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [] } })).toThrow(
      'no spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution for pod ns/p',
    );
    const twoValues: Pod = {
      metadata: { name: 'p', namespace: 'ns' },
      spec: { containers: [], affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }] } } } },
    };
    expect(() => getTargetNodeName(twoValues)).toThrow("the matchFields value of 'metadata.name' is not unique for pod ns/p");
  });
});
