// What a container sees of its configuration, through kubectl exec on a whole cluster: env from ConfigMaps and
// Secrets (envFrom prefix, invalid names skipped with the kubelet's event, $(VAR) expansion), the Downward API,
// volume files with the atomic writer's layout and modes, ConfigMap updates reaching files after a pod sync
// (not env, not subPath), emptyDir shared by the pod's containers, hostPath type checks and node persistence.
import type { Event, Pod } from 'kubernetes-types/core/v1';
import { afterEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../control-plane/cluster';
import { createAll, kubectl, observedCluster } from './describe/test-cluster';

let cluster: Cluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

function pod(c: Cluster, name: string): Pod {
  return c.client.pods.get(name, { namespace: 'default' });
}

function events(c: Cluster, name: string): Event[] {
  return (c.client.events.list({ namespace: 'default' }).items as Event[]).filter((e) => e.involvedObject.name === name);
}

const exec = async (c: Cluster, line: string) => (await kubectl(c, `kubectl exec ${line}`)).stdout;

describe('configuration a container sees', () => {
  it('env: key refs, envFrom with prefix (invalid names skipped with an event), $(VAR) expansion, Downward API', async () => {
    const c = (cluster = await observedCluster());
    createAll(
      c,
      `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {mode: prod, 1badkey: x, level: debug}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
stringData: {user: admin}
---
apiVersion: v1
kind: Pod
metadata: {name: app, labels: {tier: web}, annotations: {owner: ops}}
spec:
  containers:
  - name: main
    image: busybox:1.36
    command: [sleep, '3600']
    resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {memory: 128Mi}}
    envFrom: [{prefix: CFG_, configMapRef: {name: cfg}}, {configMapRef: {name: cfg}}]
    env:
    - {name: USER, valueFrom: {secretKeyRef: {name: creds, key: user}}}
    - {name: GREETING, value: 'hello $(USER) in $(CFG_mode) $(MISSING) $$(USER)'}
    - {name: POD, valueFrom: {fieldRef: {fieldPath: metadata.name}}}
    - {name: NS, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}
    - {name: TIER, valueFrom: {fieldRef: {fieldPath: "metadata.labels['tier']"}}}
    - {name: OWNER, valueFrom: {fieldRef: {fieldPath: "metadata.annotations['owner']"}}}
    - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
    - {name: SA, valueFrom: {fieldRef: {fieldPath: spec.serviceAccountName}}}
    - {name: HOST_IP, valueFrom: {fieldRef: {fieldPath: status.hostIP}}}
    - {name: CPU_REQ, valueFrom: {resourceFieldRef: {resource: requests.cpu}}}
    - {name: CPU_REQ_M, valueFrom: {resourceFieldRef: {resource: requests.cpu, divisor: 1m}}}
    - {name: MEM_LIMIT_MI, valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}}
    - {name: CPU_LIMIT, valueFrom: {resourceFieldRef: {resource: limits.cpu}}}
`,
    );
    c.advance(30_000);
    const p = pod(c, 'app');
    expect(p.status?.phase).toBe('Running');
    const env = await exec(c, 'app -- env');
    expect(env).toContain('CFG_mode=prod\n');
    expect(env).toContain('CFG_level=debug\n');
    expect(env).toContain('mode=prod\n');
    // With the prefix the key makes a valid name; without it, it is skipped.
    expect(env).toContain('CFG_1badkey=x\n');
    expect(env).not.toMatch(/^1badkey=/m);
    expect(env).toContain('USER=admin\n');
    expect(env).toContain('GREETING=hello admin in prod $(MISSING) $(USER)\n');
    expect(env).toContain('POD=app\nNS=default\nTIER=web\nOWNER=ops\n');
    expect(env).toContain(`NODE=${p.spec?.nodeName}\nSA=default\nHOST_IP=${p.status?.hostIP}\n`);
    expect(env).toContain('CPU_REQ=1\nCPU_REQ_M=250\nMEM_LIMIT_MI=128\n');
    // No cpu limit: the node's allocatable cpu, in cores rounded up.
    const allocatable = c.client.nodes.get(p.spec!.nodeName!).status!.allocatable!.cpu;
    expect(env).toContain(`CPU_LIMIT=${Math.ceil(Number(String(allocatable).replace(/m$/, '')) / (String(allocatable).endsWith('m') ? 1000 : 1))}\n`);
    const invalid = events(c, 'app').filter((e) => e.reason === 'InvalidEnvironmentVariableNames');
    expect(invalid.map((e) => e.message)).toEqual(['Keys [1badkey] from the EnvFrom configMap default/cfg were skipped since they are considered invalid environment variable names.']);
    expect(invalid.every((e) => e.type === 'Warning')).toBe(true);
  });

  it('a missing key or object: CreateContainerConfigError with the kubelet\'s message; optional refs are skipped', async () => {
    const c = (cluster = await observedCluster());
    createAll(
      c,
      `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {a: '1'}
---
apiVersion: v1
kind: Pod
metadata: {name: nokey}
spec:
  containers: [{name: c, image: busybox:1.36, command: [sleep, '3600'], env: [{name: B, valueFrom: {configMapKeyRef: {name: cfg, key: b}}}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: noobj}
spec:
  containers: [{name: c, image: busybox:1.36, command: [sleep, '3600'], env: [{name: B, valueFrom: {configMapKeyRef: {name: other, key: b}}}]}]
---
apiVersion: v1
kind: Pod
metadata: {name: opt}
spec:
  containers:
  - name: c
    image: busybox:1.36
    command: [sleep, '3600']
    env: [{name: B, valueFrom: {configMapKeyRef: {name: cfg, key: b, optional: true}}}, {name: S, valueFrom: {secretKeyRef: {name: nope, key: x, optional: true}}}]
    envFrom: [{secretRef: {name: nope, optional: true}}]
`,
    );
    c.advance(30_000);
    expect(pod(c, 'nokey').status?.containerStatuses?.[0].state?.waiting).toEqual({ reason: 'CreateContainerConfigError', message: "couldn't find key b in ConfigMap default/cfg" });
    expect(pod(c, 'noobj').status?.containerStatuses?.[0].state?.waiting).toEqual({ reason: 'CreateContainerConfigError', message: 'configmap "other" not found' });
    expect(pod(c, 'opt').status?.phase).toBe('Running');
    const env = await exec(c, 'opt -- env');
    expect(env).not.toMatch(/^B=|^S=/m);
  });

  it('configMap and secret files: items, modes shown by ls -l, the ..data layout, decoded secret values, subPath', async () => {
    const c = (cluster = await observedCluster());
    createAll(
      c,
      `apiVersion: v1
kind: ConfigMap
metadata: {name: game}
data: {lives: '3', game.properties: "enemies=aliens\\n"}
---
apiVersion: v1
kind: Secret
metadata: {name: creds}
data: {password: czNjcjN0}
---
apiVersion: v1
kind: Pod
metadata: {name: reader}
spec:
  containers:
  - name: c
    image: nginx:1.27
    volumeMounts:
    - {name: config, mountPath: /etc/config}
    - {name: secret, mountPath: /etc/secret}
    - {name: config, mountPath: /etc/lives, subPath: lives}
  volumes:
  - {name: config, configMap: {name: game}}
  - {name: secret, secret: {secretName: creds, defaultMode: 0400, items: [{key: password, path: db/pass}]}}
`,
    );
    c.advance(30_000);
    expect(await exec(c, 'reader -- ls /etc/config')).toBe('game.properties\nlives\n');
    expect(await exec(c, 'reader -- cat /etc/config/lives')).toBe('3\n');
    expect(await exec(c, 'reader -- cat /etc/lives')).toBe('3\n');
    expect(await exec(c, 'reader -- cat /etc/secret/db/pass')).toBe('s3cr3t\n');
    const la = await exec(c, 'reader -- ls -la /etc/config');
    const stamp = /(\.\.\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d\.\d+)/.exec(la)?.[1];
    expect(stamp).toBeDefined();
    expect(la).toContain(`..data -> ${stamp}\n`);
    expect(la).toMatch(/^lrwxrwxrwx 1 root root 12 \w{3} [ \d]\d \d\d:\d\d lives -> \.\.data\/lives$/m);
    expect(await exec(c, 'reader -- ls -lL /etc/secret/db')).toMatch(/^-r-------- 1 root root 6 .* pass$/m);
    expect(await exec(c, 'reader -- ls -l /etc/config/..data/')).toMatch(/^-rw-r--r-- 1 root root 1 .* lives$/m);

    // An edit reaches the files on the pod's next sync (within a minute), not the subPath mount.
    c.client.configMaps.update({ ...c.client.configMaps.get('game', { namespace: 'default' }), data: { lives: '9', 'game.properties': 'enemies=aliens\n' } });
    c.advance(1_000);
    expect(await exec(c, 'reader -- cat /etc/config/lives')).toBe('3\n');
    c.advance(61_000);
    expect(await exec(c, 'reader -- cat /etc/config/lives')).toBe('9\n');
    expect(await exec(c, 'reader -- cat /etc/lives')).toBe('3\n');
    const stamp2 = /(\.\.\d{4}_\S+)/.exec(await exec(c, 'reader -- ls -a /etc/config'))?.[1];
    expect(stamp2).not.toBe(stamp);
  });

  it('env from a ConfigMap keeps its value after an edit', async () => {
    const c = (cluster = await observedCluster());
    createAll(c, `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {level: info}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: busybox:1.36, command: [sleep, '3600'], env: [{name: LEVEL, valueFrom: {configMapKeyRef: {name: cfg, key: level}}}], volumeMounts: [{name: v, mountPath: /cfg}]}]
  volumes: [{name: v, configMap: {name: cfg}}]
`);
    c.advance(20_000);
    c.client.configMaps.update({ ...c.client.configMaps.get('cfg', { namespace: 'default' }), data: { level: 'debug' } });
    c.advance(130_000);
    expect(await exec(c, 'p -- printenv LEVEL')).toBe('info\n');
    expect(await exec(c, 'p -- cat /cfg/level')).toBe('debug\n');
  });

  it('downwardAPI and projected volumes: labels in key="value" form, updated when the labels change', async () => {
    const c = (cluster = await observedCluster());
    createAll(
      c,
      `apiVersion: v1
kind: ConfigMap
metadata: {name: cfg}
data: {k: v}
---
apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {pw: x}
---
apiVersion: v1
kind: Pod
metadata: {name: dapi, labels: {zone: us-est-coast, cluster: test-cluster1}, annotations: {builder: john-doe}}
spec:
  containers:
  - name: c
    image: busybox:1.36
    command: [sleep, '3600']
    resources: {limits: {memory: 64Mi}}
    volumeMounts: [{name: podinfo, mountPath: /etc/podinfo}, {name: all, mountPath: /projected}]
  volumes:
  - name: podinfo
    downwardAPI:
      items:
      - {path: labels, fieldRef: {fieldPath: metadata.labels}}
      - {path: annotations, fieldRef: {fieldPath: metadata.annotations}}
      - {path: mem, resourceFieldRef: {containerName: c, resource: limits.memory, divisor: 1Mi}}
  - name: all
    projected:
      sources:
      - configMap: {name: cfg}
      - secret: {name: s}
      - downwardAPI: {items: [{path: name, fieldRef: {fieldPath: metadata.name}}]}
      - serviceAccountToken: {path: token, expirationSeconds: 3600}
`,
    );
    c.advance(30_000);
    expect(await exec(c, 'dapi -- cat /etc/podinfo/labels')).toBe('cluster="test-cluster1"\nzone="us-est-coast"\n');
    expect(await exec(c, 'dapi -- cat /etc/podinfo/annotations')).toContain('builder="john-doe"');
    expect(await exec(c, 'dapi -- cat /etc/podinfo/mem')).toBe('64\n');
    expect(await exec(c, 'dapi -- ls /projected')).toBe('k\nname\npw\ntoken\n');
    expect(await exec(c, 'dapi -- cat /projected/pw')).toBe('x\n');
    expect((await exec(c, 'dapi -- cat /projected/token')).split('.')).toHaveLength(3);
    await kubectl(c, 'kubectl label pod dapi tier=db');
    c.advance(2_000);
    expect(await exec(c, 'dapi -- cat /etc/podinfo/labels')).toBe('cluster="test-cluster1"\ntier="db"\nzone="us-est-coast"\n');
  });

  it('emptyDir: a file one container writes is visible to the other', async () => {
    const c = (cluster = await observedCluster());
    createAll(
      c,
      `apiVersion: v1
kind: Pod
metadata: {name: two}
spec:
  volumes: [{name: shared-data, emptyDir: {}}]
  containers:
  - {name: nginx, image: nginx:1.27, volumeMounts: [{name: shared-data, mountPath: /usr/share/nginx/html}]}
  - name: debian
    image: debian:12
    volumeMounts: [{name: shared-data, mountPath: /pod-data}]
    command: [/bin/sh]
    args: [-c, 'echo Hello from the debian container > /pod-data/index.html; sleep 3600']
`,
    );
    c.advance(30_000);
    expect(await exec(c, 'two -c nginx -- cat /usr/share/nginx/html/index.html')).toBe('Hello from the debian container\n');
    expect(await exec(c, 'two -c nginx -- ls -ld /usr/share/nginx/html')).toMatch(/^drwxrwxrwx/);
  });

  it('hostPath: type checks fail the mount, DirectoryOrCreate creates, files stay on the node for the next pod', async () => {
    const c = (cluster = await observedCluster());
    const node = c.client.nodes.list().items[0].metadata!.name!;
    createAll(
      c,
      `apiVersion: v1
kind: Pod
metadata: {name: strict}
spec:
  nodeName: ${node}
  containers: [{name: c, image: busybox:1.36, command: [sleep, '3600'], volumeMounts: [{name: h, mountPath: /h}]}]
  volumes: [{name: h, hostPath: {path: /x, type: Directory}}]
---
apiVersion: v1
kind: Pod
metadata: {name: writer}
spec:
  nodeName: ${node}
  containers: [{name: c, image: busybox:1.36, command: [sh, -c, 'echo kept > /data/note; sleep 3600'], volumeMounts: [{name: h, mountPath: /data}]}]
  volumes: [{name: h, hostPath: {path: /srv/app, type: DirectoryOrCreate}}]
`,
    );
    c.advance(30_000);
    expect(pod(c, 'strict').status?.phase).toBe('Pending');
    expect(events(c, 'strict').find((e) => e.reason === 'FailedMount')?.message).toBe('MountVolume.SetUp failed for volume "h" : hostPath type check failed: /x is not a directory');
    expect(await exec(c, 'writer -- cat /data/note')).toBe('kept\n');
    await kubectl(c, 'kubectl delete pod writer');
    c.advance(30_000);
    createAll(
      c,
      `apiVersion: v1
kind: Pod
metadata: {name: later}
spec:
  nodeName: ${node}
  containers: [{name: c, image: busybox:1.36, command: [sleep, '3600'], volumeMounts: [{name: h, mountPath: /mnt}]}]
  volumes: [{name: h, hostPath: {path: /srv/app, type: Directory}}]
`,
    );
    c.advance(20_000);
    expect(pod(c, 'later').status?.phase).toBe('Running');
    expect(await exec(c, 'later -- cat /mnt/note')).toBe('kept\n');
  });
});
