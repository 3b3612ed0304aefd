import { describe, expect, it } from 'vitest';
import { StatusError } from '../../../../../shared/api/status';
import type { KubeObject } from '../../../../../shared/api/types';
import { create, invalidMessage, pod, resourceType, update } from '../../test-harness';
import { strategyFor } from '../../strategies';
import { bindPodToNode } from './binding';
import { podUpdateForbiddenPrefix } from './update';

type Obj = Record<string, any>;

function spec(p: KubeObject): Obj {
  return p.spec as Obj;
}

describe('Pod defaults', () => {
  it('applies SetDefaults_Pod and the PodSpec/container defaults', () => {
    const p = create(
      '',
      'pods',
      pod('web', {
        containers: [
          {
            name: 'app',
            image: 'nginx',
            ports: [{ containerPort: 80 }],
            resources: { limits: { cpu: '500m', memory: '128Mi' } },
            livenessProbe: { httpGet: { port: 80 } },
            env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
          },
          { name: 'side', image: 'busybox:1.36' },
        ],
        volumes: [{ name: 'cfg', configMap: { name: 'cfg' } }, { name: 'scratch' }, { name: 's', secret: { secretName: 's' } }],
      }),
    );
    const s = spec(p);
    expect(s.restartPolicy).toBe('Always');
    expect(s.dnsPolicy).toBe('ClusterFirst');
    expect(s.schedulerName).toBe('default-scheduler');
    expect(s.terminationGracePeriodSeconds).toBe(30);
    expect(s.securityContext).toEqual({});
    expect(s.enableServiceLinks).toBe(true);
    expect(s.priority).toBe(0);
    expect(s.preemptionPolicy).toBe('PreemptLowerPriority');
    const [app, side] = s.containers;
    expect(app.imagePullPolicy).toBe('Always'); // untagged means :latest
    expect(side.imagePullPolicy).toBe('IfNotPresent');
    expect(app.terminationMessagePath).toBe('/dev/termination-log');
    expect(app.terminationMessagePolicy).toBe('File');
    expect(app.ports[0].protocol).toBe('TCP');
    expect(app.resources.requests).toEqual({ cpu: '500m', memory: '128Mi' });
    expect(app.livenessProbe).toEqual({ httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(app.env[0].valueFrom.fieldRef.apiVersion).toBe('v1');
    expect(s.volumes).toEqual([
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
      { name: 'scratch', emptyDir: {} },
      { name: 's', secret: { secretName: 's', defaultMode: 420 } },
    ]);
  });

  it('starts Pending with the QoS class and no tolerations of its own', () => {
    const burstable = create('', 'pods', pod('a', { containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '100m' } } }] }));
    expect(burstable.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' });
    expect(spec(burstable).tolerations).toBeUndefined();
    const guaranteed = create('', 'pods', pod('b', { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } }] }));
    expect(guaranteed.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    expect(create('', 'pods', pod('c')).status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('marks gated pods as not schedulable yet', () => {
    const p = create('', 'pods', pod('g', { schedulingGates: [{ name: 'example.com/wait' }] }));
    expect((p.status as Obj).conditions[0]).toMatchObject({ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' });
  });

  it('drops a status sent with the create', () => {
    const p = create('', 'pods', { ...pod('s'), status: { phase: 'Running', podIP: '10.0.0.1' } });
    expect(p.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });
});

describe('Pod validation', () => {
  const msg = (p: KubeObject) => invalidMessage(() => create('', 'pods', p));

  it('requires containers, names and images', () => {
    expect(msg(pod('p', { containers: [] }))).toBe('Pod "p" is invalid: spec.containers: Required value');
    expect(msg(pod('p', { containers: [{ name: 'a' }] }))).toBe('Pod "p" is invalid: spec.containers[0].image: Required value');
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x' }, { name: 'a', image: 'y' }] }))).toBe('Pod "p" is invalid: spec.containers[1].name: Duplicate value: "a"');
    expect(msg(pod('p', { containers: [{ name: 'App', image: 'x' }] }))).toMatch(/^Pod "p" is invalid: spec.containers\[0\].name: Invalid value: "App": a lowercase RFC 1123 label/);
  });

  it('checks ports, restart and DNS policies, and tolerations', () => {
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 70000 }] }] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
    expect(msg(pod('p', { restartPolicy: 'Sometimes' }))).toBe(
      'Pod "p" is invalid: spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    );
    expect(msg(pod('p', { dnsPolicy: 'Google' }))).toBe(
      'Pod "p" is invalid: spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
    );
    expect(msg(pod('p', { tolerations: [{ key: 'k', operator: 'Maybe' }] }))).toBe(
      'Pod "p" is invalid: spec.tolerations[0].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"',
    );
    expect(msg(pod('p', { tolerations: [{ operator: 'Equal', value: 'v' }] }))).toBe(
      'Pod "p" is invalid: spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
    );
    expect(msg(pod('p', { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] }))).toBe(
      'Pod "p" is invalid: spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
    );
  });

  it('keeps requests within limits', () => {
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1',
    );
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: '-1' } } }] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0',
    );
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', resources: { requests: { gpu: '1' } } }] }))).toBe(
      'Pod "p" is invalid: [spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified, spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers]',
    );
  });

  it('checks volumes and mounts', () => {
    expect(msg(pod('p', { volumes: [{ name: 'v', emptyDir: {}, hostPath: { path: '/x' } }] }))).toBe(
      'Pod "p" is invalid: spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type',
    );
    expect(msg(pod('p', { volumes: [{ name: 'v', configMap: {} }] }))).toBe('Pod "p" is invalid: spec.volumes[0].configMap.name: Required value');
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', volumeMounts: [{ name: 'missing', mountPath: '/data' }] }] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].volumeMounts[0].name: Not found: "missing"',
    );
    expect(msg(pod('p', { volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }] }))).toBe('Pod "p" is invalid: spec.volumes[1].name: Duplicate value: "v"');
  });

  it('checks probes and env', () => {
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', readinessProbe: { periodSeconds: 5 } }] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].readinessProbe: Required value: must specify a handler type',
    );
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', livenessProbe: { exec: { command: ['true'] }, successThreshold: 2 } }] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
    );
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', env: [{ name: '1X', value: 'v' }] }] }))).toMatch(
      /^Pod "p" is invalid: spec.containers\[0\].env\[0\].name: Invalid value: "1X": a valid environment variable name/,
    );
    expect(msg(pod('p', { containers: [{ name: 'a', image: 'x', env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'status.phase' } } }] }] }))).toBe(
      'Pod "p" is invalid: spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
    );
  });

  it('checks node selector labels', () => {
    expect(msg(pod('p', { nodeSelector: { disk: 'fast ssd' } }))).toMatch(/^Pod "p" is invalid: spec.nodeSelector: Invalid value: "fast ssd": a valid label/);
  });
});

describe('Pod updates', () => {
  const stored = create('', 'pods', pod('web', { tolerations: [{ key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] }));
  const withSpec = (changes: Obj): KubeObject => ({ ...stored, spec: { ...spec(stored), ...changes } });

  it('allows image changes, added tolerations, and tolerationSeconds changes', () => {
    const next = update(
      '',
      'pods',
      withSpec({
        containers: [{ ...spec(stored).containers[0], image: 'nginx:1.28' }],
        tolerations: [
          { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 },
          { key: 'b', operator: 'Exists' },
        ],
        activeDeadlineSeconds: 100,
      }),
      stored,
    );
    expect(spec(next).containers[0].image).toBe('nginx:1.28');
    expect(spec(next).tolerations).toHaveLength(2);
  });

  it('forbids other spec changes with the v1.32 field list and a diff', () => {
    const message = invalidMessage(() => update('', 'pods', withSpec({ containers: [{ ...spec(stored).containers[0], ports: [{ containerPort: 9999 }] }] }), stored));
    expect(message.startsWith(`Pod "web" is invalid: spec: Forbidden: ${podUpdateForbiddenPrefix}\n`)).toBe(true);
    expect(podUpdateForbiddenPrefix).toBe(
      'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    );
    expect(message).toContain('containers[0].ports');
  });

  it('reports a QoS change before the forbidden spec change', () => {
    const message = invalidMessage(() =>
      update('', 'pods', withSpec({ containers: [{ ...spec(stored).containers[0], resources: { requests: { cpu: '700m' } } }] }), stored),
    );
    expect(message).toMatch(/^Pod "web" is invalid: \[metadata: Invalid value: "BestEffort": Pod QoS is immutable, spec: Forbidden: pod updates may not change fields other than/);
  });

  it('forbids removing tolerations and adding containers', () => {
    expect(invalidMessage(() => update('', 'pods', withSpec({ tolerations: [] }), stored))).toBe(
      'Pod "web" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    );
    expect(invalidMessage(() => update('', 'pods', withSpec({ containers: [...spec(stored).containers, { name: 'b', image: 'x' }] }), stored))).toBe(
      'Pod "web" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers',
    );
  });

  it('only lets activeDeadlineSeconds go down', () => {
    const withDeadline = update('', 'pods', withSpec({ activeDeadlineSeconds: 100 }), stored);
    expect(invalidMessage(() => update('', 'pods', { ...withDeadline, spec: { ...spec(withDeadline), activeDeadlineSeconds: 200 } }, withDeadline))).toBe(
      'Pod "web" is invalid: spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value',
    );
  });

  it('cannot set spec.nodeName by update', () => {
    expect(invalidMessage(() => update('', 'pods', withSpec({ nodeName: 'node-1' }), stored))).toMatch(/^Pod "web" is invalid: spec: Forbidden: pod updates may not change/);
  });

  it('keeps status on spec writes and spec on status writes', () => {
    const running = update('', 'pods', { ...stored, status: { phase: 'Running', qosClass: 'BestEffort', podIP: '10.0.0.7' } }, stored, 'status');
    expect((running.status as Obj).phase).toBe('Running');
    const relabeled = update('', 'pods', { ...running, metadata: { ...running.metadata, labels: { a: 'b' } }, status: { phase: 'Failed' } }, running);
    expect((relabeled.status as Obj).phase).toBe('Running');
    expect(relabeled.metadata.labels).toEqual({ a: 'b' });
    const statusWrite = update('', 'pods', { ...running, spec: { ...spec(running), activeDeadlineSeconds: 5 }, status: { ...(running.status as Obj), phase: 'Succeeded' } }, running, 'status');
    expect(spec(statusWrite).activeDeadlineSeconds).toBeUndefined();
    expect((statusWrite.status as Obj).phase).toBe('Succeeded');
  });

  it('rejects a QoS change through the status subresource', () => {
    expect(invalidMessage(() => update('', 'pods', { ...stored, status: { phase: 'Running', qosClass: 'Guaranteed' } }, stored, 'status'))).toBe(
      'Pod "web" is invalid: status.qosClass: Invalid value: "Guaranteed": field is immutable',
    );
  });
});

describe('Pod deletion and field selectors', () => {
  const strategy = strategyFor(resourceType('', 'pods'));
  it('uses the pod grace period once scheduled', () => {
    const p = create('', 'pods', pod('g', { terminationGracePeriodSeconds: 45 }));
    expect(strategy.defaultGracePeriodSeconds(p)).toBe(0);
    const bound = { ...p, spec: { ...spec(p), nodeName: 'n1' } };
    expect(strategy.defaultGracePeriodSeconds(bound)).toBe(45);
    expect(strategy.defaultGracePeriodSeconds({ ...bound, status: { phase: 'Succeeded' } })).toBe(0);
  });

  it('exposes the pod field selectors', () => {
    const p = create('', 'pods', pod('f'));
    expect(strategy.selectableFields?.(p)).toEqual({
      'metadata.name': 'f',
      'metadata.namespace': 'default',
      'spec.nodeName': '',
      'spec.restartPolicy': 'Always',
      'spec.schedulerName': 'default-scheduler',
      'spec.serviceAccountName': '',
      'spec.hostNetwork': 'false',
      'status.phase': 'Pending',
      'status.podIP': '',
      'status.nominatedNodeName': '',
    });
  });

  it('reads each selectable field alone as the whole set has it', () => {
    const bound = { ...create('', 'pods', pod('g')), spec: { ...spec(create('', 'pods', pod('g'))), nodeName: 'node-1', hostNetwork: true }, status: { phase: 'Running', podIP: '10.0.0.9' } };
    for (const p of [create('', 'pods', pod('f')), bound as KubeObject, { apiVersion: 'v1', kind: 'Pod', metadata: {} } as KubeObject]) {
      const all = strategy.selectableFields!(p);
      for (const [field, value] of Object.entries(all)) expect(strategy.selectableField!(p, field)).toBe(value);
      expect(strategy.selectableField!(p, 'spec.nodeSelector')).toBeUndefined();
    }
  });
});

describe('bindPodToNode', () => {
  it('sets nodeName and the PodScheduled condition', () => {
    const p = create('', 'pods', pod('b'));
    bindPodToNode(p, 'node-1', { now: '2026-01-01T00:00:05Z' });
    expect(spec(p).nodeName).toBe('node-1');
    expect((p.status as Obj).conditions).toEqual([{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:05Z' }]);
  });

  it('refuses a second binding with the Conflict text', () => {
    const p = create('', 'pods', pod('red-pod'));
    bindPodToNode(p, 'cka-m02', { now: '2026-01-01T00:00:05Z' });
    let err: unknown;
    try {
      bindPodToNode(p, 'cka-m03', { now: '2026-01-01T00:00:06Z' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status.code).toBe(409);
    expect((err as StatusError).message).toBe('Operation cannot be fulfilled on pods/binding "red-pod": pod red-pod is already assigned to node "cka-m02"');
  });
});
