// kubectl get against a cluster in a known state (get-fixture.ts). Every expected text here was checked against the
// real kubectl v1.32 reading the same cluster through an HTTP bridge: the same bytes on stdout and stderr and the
// same exit code (the jsonpath outputs aside, which kubectl prints without a final newline).
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster, create, podYaml } from '../testing';
import { getFixtureCluster } from './get-fixture';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await getFixtureCluster();
}, 60_000);

/** The command's output and exit code (the cluster's clock does not move: get answers at once). */
async function run(line: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { stdout, stderr, exitCode } = await kubectl(cluster, `kubectl ${line}`);
  return { stdout, stderr, exitCode };
}

const text = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('kubectl get (checked against kubectl v1.32)', () => {
  it('kubectl get pods', async () => {
    expect(await run('get pods')).toEqual({
      stdout: text(
        'NAME                     READY   STATUS             RESTARTS       AGE',
        'crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m',
        'init-pod                 0/1     Init:0/1           0              5m',
        'nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m',
        'nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m',
        'pending-pod              0/1     Pending            0              5m',
        'web                      1/1     Running            0              5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -o wide', async () => {
    expect(await run('get pods -o wide')).toEqual({
      stdout: text(
        'NAME                     READY   STATUS             RESTARTS       AGE   IP           NODE     NOMINATED NODE   READINESS GATES',
        'crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m    10.244.2.2   node-2   <none>           <none>',
        'init-pod                 0/1     Init:0/1           0              5m    10.244.3.3   node-3   <none>           <none>',
        'nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m    10.244.2.3   node-2   <none>           <none>',
        'nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m    10.244.3.4   node-3   <none>           <none>',
        'pending-pod              0/1     Pending            0              5m    <none>       <none>   <none>           <none>',
        'web                      1/1     Running            0              5m    10.244.3.2   node-3   <none>           <none>',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get deploy,rs,svc', async () => {
    expect(await run('get deploy,rs,svc')).toEqual({
      stdout: text(
        'NAME                    READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/nginx   2/2     2            2           5m',
        '',
        'NAME                               DESIRED   CURRENT   READY   AGE',
        'replicaset.apps/nginx-6bd87c65c5   2         2         2       5m',
        '',
        'NAME                 TYPE           CLUSTER-IP    EXTERNAL-IP   PORT(S)         AGE',
        'service/external     ExternalName   <none>        example.com   <none>          5m',
        'service/frontend     NodePort       10.96.40.1    <none>        80:31234/TCP    5m',
        'service/headless     ClusterIP      None          <none>        80/TCP          5m',
        'service/kubernetes   ClusterIP      10.96.0.1     <none>        443/TCP         5m',
        'service/lb           LoadBalancer   10.96.50.2    <pending>     443:30443/TCP   5m',
        'service/web          ClusterIP      10.96.12.34   <none>        80/TCP          5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get all', async () => {
    expect(await run('get all')).toEqual({
      stdout: text(
        'NAME                         READY   STATUS             RESTARTS       AGE',
        'pod/crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m',
        'pod/init-pod                 0/1     Init:0/1           0              5m',
        'pod/nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m',
        'pod/nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m',
        'pod/pending-pod              0/1     Pending            0              5m',
        'pod/web                      1/1     Running            0              5m',
        '',
        'NAME                 TYPE           CLUSTER-IP    EXTERNAL-IP   PORT(S)         AGE',
        'service/external     ExternalName   <none>        example.com   <none>          5m',
        'service/frontend     NodePort       10.96.40.1    <none>        80:31234/TCP    5m',
        'service/headless     ClusterIP      None          <none>        80/TCP          5m',
        'service/kubernetes   ClusterIP      10.96.0.1     <none>        443/TCP         5m',
        'service/lb           LoadBalancer   10.96.50.2    <pending>     443:30443/TCP   5m',
        'service/web          ClusterIP      10.96.12.34   <none>        80/TCP          5m',
        '',
        'NAME                    READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/nginx   2/2     2            2           5m',
        '',
        'NAME                               DESIRED   CURRENT   READY   AGE',
        'replicaset.apps/nginx-6bd87c65c5   2         2         2       5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get nodes', async () => {
    expect(await run('get nodes')).toEqual({
      stdout: text(
        'NAME     STATUS                     ROLES           AGE   VERSION',
        'node-1   Ready,SchedulingDisabled   control-plane   5m    v1.32.0',
        'node-2   Ready                      <none>          5m    v1.32.0',
        'node-3   Ready                      <none>          5m    v1.32.0',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get nodes -o wide', async () => {
    expect(await run('get nodes -o wide')).toEqual({
      stdout: text(
        'NAME     STATUS                     ROLES           AGE   VERSION   INTERNAL-IP    EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION     CONTAINER-RUNTIME',
        'node-1   Ready,SchedulingDisabled   control-plane   5m    v1.32.0   192.168.49.2   <none>        Ubuntu 24.04.1 LTS   6.8.0-51-generic   containerd://1.7.24',
        'node-2   Ready                      <none>          5m    v1.32.0   192.168.49.3   <none>        Ubuntu 24.04.1 LTS   6.8.0-51-generic   containerd://1.7.24',
        'node-3   Ready                      <none>          5m    v1.32.0   192.168.49.4   <none>        Ubuntu 24.04.1 LTS   6.8.0-51-generic   containerd://1.7.24',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -A', async () => {
    expect(await run('get pods -A')).toEqual({
      stdout: text(
        'NAMESPACE   NAME                     READY   STATUS             RESTARTS       AGE',
        'default     crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m',
        'default     init-pod                 0/1     Init:0/1           0              5m',
        'default     nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m',
        'default     nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m',
        'default     pending-pod              0/1     Pending            0              5m',
        'default     web                      1/1     Running            0              5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -l app=web', async () => {
    expect(await run('get pods -l app=web')).toEqual({
      stdout: text(
        'NAME   READY   STATUS    RESTARTS   AGE',
        'web    1/1     Running   0          5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -l \'app in (web,nginx)\' --show-labels', async () => {
    expect(await run('get pods -l \'app in (web,nginx)\' --show-labels')).toEqual({
      stdout: text(
        'NAME                     READY   STATUS    RESTARTS   AGE   LABELS',
        'nginx-6bd87c65c5-5dvt4   1/1     Running   0          5m    app=nginx,pod-template-hash=6bd87c65c5',
        'nginx-6bd87c65c5-mnpnd   1/1     Running   0          5m    app=nginx,pod-template-hash=6bd87c65c5',
        'web                      1/1     Running   0          5m    app=web,tier=frontend',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods --field-selector status.phase=Running', async () => {
    expect(await run('get pods --field-selector status.phase=Running')).toEqual({
      stdout: text(
        'NAME                     READY   STATUS             RESTARTS       AGE',
        'crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m',
        'nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m',
        'nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m',
        'web                      1/1     Running            0              5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -o name', async () => {
    expect(await run('get pods -o name')).toEqual({
      stdout: text(
        'pod/crashy',
        'pod/init-pod',
        'pod/nginx-6bd87c65c5-5dvt4',
        'pod/nginx-6bd87c65c5-mnpnd',
        'pod/pending-pod',
        'pod/web',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -o jsonpath={.items[*].metadata.name}', async () => {
    expect(await run('get pods -o jsonpath={.items[*].metadata.name}')).toEqual({
      stdout: text('crashy init-pod nginx-6bd87c65c5-5dvt4 nginx-6bd87c65c5-mnpnd pending-pod web'),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -o jsonpath=\'{range .items[*]}{.metadata.name}{\"\\t\"}{.status.phase}{\"\\n\"}{end}\'', async () => {
    expect(await run('get pods -o jsonpath=\'{range .items[*]}{.metadata.name}{\"\\t\"}{.status.phase}{\"\\n\"}{end}\'')).toEqual({
      stdout: text(
        'crashy\tRunning',
        'init-pod\tPending',
        'nginx-6bd87c65c5-5dvt4\tRunning',
        'nginx-6bd87c65c5-mnpnd\tRunning',
        'pending-pod\tPending',
        'web\tRunning',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,IMAGES:.spec.containers[*].image', async () => {
    expect(await run('get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,IMAGES:.spec.containers[*].image')).toEqual({
      stdout: text(
        'NAME                     NODE     IMAGES',
        'crashy                   node-2   busybox:1.36',
        'init-pod                 node-3   nginx:1.27',
        'nginx-6bd87c65c5-5dvt4   node-2   nginx:1.27',
        'nginx-6bd87c65c5-mnpnd   node-3   nginx:1.27',
        'pending-pod              <none>   busybox:1.36',
        'web                      node-3   nginx:1.27',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pod web -o yaml', async () => {
    expect(await run('get pod web -o yaml')).toEqual({
      stdout: text(
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        '  creationTimestamp: \"2026-01-01T00:00:00Z\"',
        '  labels:',
        '    app: web',
        '    tier: frontend',
        '  name: web',
        '  namespace: default',
        '  resourceVersion: \"111\"',
        '  uid: 316fa13a-80d6-4103-b7d0-d50be50ae9f0',
        'spec:',
        '  containers:',
        '  - image: nginx:1.27',
        '    imagePullPolicy: IfNotPresent',
        '    name: web',
        '    terminationMessagePath: /dev/termination-log',
        '    terminationMessagePolicy: File',
        '    volumeMounts:',
        '    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount',
        '      name: kube-api-access-7bk9s',
        '      readOnly: true',
        '  dnsPolicy: ClusterFirst',
        '  enableServiceLinks: true',
        '  nodeName: node-3',
        '  preemptionPolicy: PreemptLowerPriority',
        '  priority: 0',
        '  restartPolicy: Always',
        '  schedulerName: default-scheduler',
        '  securityContext: {}',
        '  serviceAccount: default',
        '  serviceAccountName: default',
        '  terminationGracePeriodSeconds: 30',
        '  tolerations:',
        '  - effect: NoExecute',
        '    key: node.kubernetes.io/not-ready',
        '    operator: Exists',
        '    tolerationSeconds: 300',
        '  - effect: NoExecute',
        '    key: node.kubernetes.io/unreachable',
        '    operator: Exists',
        '    tolerationSeconds: 300',
        '  volumes:',
        '  - name: kube-api-access-7bk9s',
        '    projected:',
        '      defaultMode: 420',
        '      sources:',
        '      - serviceAccountToken:',
        '          expirationSeconds: 3607',
        '          path: token',
        '      - configMap:',
        '          items:',
        '          - key: ca.crt',
        '            path: ca.crt',
        '          name: kube-root-ca.crt',
        '      - downwardAPI:',
        '          items:',
        '          - fieldRef:',
        '              apiVersion: v1',
        '              fieldPath: metadata.namespace',
        '            path: namespace',
        'status:',
        '  conditions:',
        '  - lastProbeTime: null',
        '    lastTransitionTime: \"2026-01-01T00:00:00Z\"',
        '    status: \"True\"',
        '    type: PodReadyToStartContainers',
        '  - lastProbeTime: null',
        '    lastTransitionTime: \"2026-01-01T00:00:00Z\"',
        '    status: \"True\"',
        '    type: Initialized',
        '  - lastProbeTime: null',
        '    lastTransitionTime: \"2026-01-01T00:00:02Z\"',
        '    status: \"True\"',
        '    type: Ready',
        '  - lastProbeTime: null',
        '    lastTransitionTime: \"2026-01-01T00:00:02Z\"',
        '    status: \"True\"',
        '    type: ContainersReady',
        '  - lastProbeTime: null',
        '    lastTransitionTime: \"2026-01-01T00:00:00Z\"',
        '    status: \"True\"',
        '    type: PodScheduled',
        '  containerStatuses:',
        '  - containerID: containerd://81e050c507b8f7f9bc4ac921ad9c15cc5ce991fe8d8caa729b31c8f7da4d2daa',
        '    image: docker.io/library/nginx:1.27',
        '    imageID: docker.io/library/nginx@sha256:65484e32afc27ae666a6bec96f5020639af568594085b402748cd3396ffae2cb',
        '    lastState: {}',
        '    name: web',
        '    ready: true',
        '    restartCount: 0',
        '    started: true',
        '    state:',
        '      running:',
        '        startedAt: \"2026-01-01T00:00:02Z\"',
        '    volumeMounts:',
        '    - mountPath: /var/run/secrets/kubernetes.io/serviceaccount',
        '      name: kube-api-access-7bk9s',
        '      readOnly: true',
        '      recursiveReadOnly: Disabled',
        '  hostIP: 192.168.49.4',
        '  hostIPs:',
        '  - ip: 192.168.49.4',
        '  phase: Running',
        '  podIP: 10.244.3.2',
        '  podIPs:',
        '  - ip: 10.244.3.2',
        '  qosClass: BestEffort',
        '  startTime: \"2026-01-01T00:00:00Z\"',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get cm,secret -o yaml', async () => {
    expect(await run('get cm,secret -o yaml')).toEqual({
      stdout: text(
        'apiVersion: v1',
        'items:',
        '- apiVersion: v1',
        '  data:',
        '    player_initial_lives: \"3\"',
        '    ui_properties_file_name: user-interface.properties',
        '  kind: ConfigMap',
        '  metadata:',
        '    creationTimestamp: \"2026-01-01T00:00:00Z\"',
        '    name: game-demo',
        '    namespace: default',
        '    resourceVersion: \"64\"',
        '    uid: 720209d0-82d3-405b-99b3-164a5e531932',
        '- apiVersion: v1',
        '  data:',
        '    password: czNjcjN0',
        '  kind: Secret',
        '  metadata:',
        '    creationTimestamp: \"2026-01-01T00:00:00Z\"',
        '    name: db-pass',
        '    namespace: default',
        '    resourceVersion: \"65\"',
        '    uid: b680277d-4e7c-4f88-91d2-c49c3ee8a918',
        '  type: Opaque',
        'kind: List',
        'metadata:',
        '  resourceVersion: \"\"',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods --show-labels', async () => {
    expect(await run('get pods --show-labels')).toEqual({
      stdout: text(
        'NAME                     READY   STATUS             RESTARTS       AGE   LABELS',
        'crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m    <none>',
        'init-pod                 0/1     Init:0/1           0              5m    <none>',
        'nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m    app=nginx,pod-template-hash=6bd87c65c5',
        'nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m    app=nginx,pod-template-hash=6bd87c65c5',
        'pending-pod              0/1     Pending            0              5m    <none>',
        'web                      1/1     Running            0              5m    app=web,tier=frontend',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -L app,tier', async () => {
    expect(await run('get pods -L app,tier')).toEqual({
      stdout: text(
        'NAME                     READY   STATUS             RESTARTS       AGE   APP     TIER',
        'crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m            ',
        'init-pod                 0/1     Init:0/1           0              5m            ',
        'nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m    nginx   ',
        'nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m    nginx   ',
        'pending-pod              0/1     Pending            0              5m            ',
        'web                      1/1     Running            0              5m    web     frontend',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -n kube-system', async () => {
    expect(await run('get pods -n kube-system')).toEqual({
      stdout: '',
      stderr: text('No resources found in kube-system namespace.'),
      exitCode: 0,
    });
  });

  it('kubectl get cm -A', async () => {
    expect(await run('get cm -A')).toEqual({
      stdout: text(
        'NAMESPACE   NAME        DATA   AGE',
        'default     game-demo   2      5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get foo', async () => {
    expect(await run('get foo')).toEqual({
      stdout: '',
      stderr: text('error: the server doesn\'t have a resource type \"foo\"'),
      exitCode: 1,
    });
  });

  it('kubectl get pod nope', async () => {
    expect(await run('get pod nope')).toEqual({
      stdout: '',
      stderr: text('Error from server (NotFound): pods \"nope\" not found'),
      exitCode: 1,
    });
  });

  it('kubectl get pod nope web', async () => {
    expect(await run('get pod nope web')).toEqual({
      stdout: text(
        'NAME   READY   STATUS    RESTARTS   AGE',
        'web    1/1     Running   0          5m',
      ),
      stderr: text('Error from server (NotFound): pods \"nope\" not found'),
      exitCode: 1,
    });
  });

  it('kubectl get svc web,nope', async () => {
    expect(await run('get svc web,nope')).toEqual({
      stdout: '',
      stderr: text('Error from server (NotFound): services \"web,nope\" not found'),
      exitCode: 1,
    });
  });

  it('kubectl get deploy/nginx svc/web', async () => {
    expect(await run('get deploy/nginx svc/web')).toEqual({
      stdout: text(
        'NAME                    READY   UP-TO-DATE   AVAILABLE   AGE',
        'deployment.apps/nginx   2/2     2            2           5m',
        '',
        'NAME          TYPE        CLUSTER-IP    EXTERNAL-IP   PORT(S)   AGE',
        'service/web   ClusterIP   10.96.12.34   <none>        80/TCP    5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods pod/web', async () => {
    expect(await run('get pods pod/web')).toEqual({
      stdout: '',
      stderr: text('error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. \'kubectl get resource/<resource_name>\' instead of \'kubectl get resource resource/<resource_name>\''),
      exitCode: 1,
    });
  });

  it('kubectl get pods --sort-by=.metadata.name --no-headers', async () => {
    expect(await run('get pods --sort-by=.metadata.name --no-headers')).toEqual({
      stdout: text(
        'crashy                   0/1   CrashLoopBackOff   5 (119s ago)   5m',
        'init-pod                 0/1   Init:0/1           0              5m',
        'nginx-6bd87c65c5-5dvt4   1/1   Running            0              5m',
        'nginx-6bd87c65c5-mnpnd   1/1   Running            0              5m',
        'pending-pod              0/1   Pending            0              5m',
        'web                      1/1   Running            0              5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get deploy nginx -o json', async () => {
    expect(await run('get deploy nginx -o json')).toEqual({
      stdout: text(
        '{',
        '    \"apiVersion\": \"apps/v1\",',
        '    \"kind\": \"Deployment\",',
        '    \"metadata\": {',
        '        \"annotations\": {',
        '            \"deployment.kubernetes.io/revision\": \"1\"',
        '        },',
        '        \"creationTimestamp\": \"2026-01-01T00:00:00Z\",',
        '        \"generation\": 1,',
        '        \"labels\": {',
        '            \"app\": \"nginx\"',
        '        },',
        '        \"name\": \"nginx\",',
        '        \"namespace\": \"default\",',
        '        \"resourceVersion\": \"127\",',
        '        \"uid\": \"1586c94b-5cea-4bfd-9455-44b6a5c27faa\"',
        '    },',
        '    \"spec\": {',
        '        \"progressDeadlineSeconds\": 600,',
        '        \"replicas\": 2,',
        '        \"revisionHistoryLimit\": 10,',
        '        \"selector\": {',
        '            \"matchLabels\": {',
        '                \"app\": \"nginx\"',
        '            }',
        '        },',
        '        \"strategy\": {',
        '            \"rollingUpdate\": {',
        '                \"maxSurge\": \"25%\",',
        '                \"maxUnavailable\": \"25%\"',
        '            },',
        '            \"type\": \"RollingUpdate\"',
        '        },',
        '        \"template\": {',
        '            \"metadata\": {',
        '                \"creationTimestamp\": null,',
        '                \"labels\": {',
        '                    \"app\": \"nginx\"',
        '                }',
        '            },',
        '            \"spec\": {',
        '                \"containers\": [',
        '                    {',
        '                        \"image\": \"nginx:1.27\",',
        '                        \"imagePullPolicy\": \"IfNotPresent\",',
        '                        \"name\": \"nginx\",',
        '                        \"terminationMessagePath\": \"/dev/termination-log\",',
        '                        \"terminationMessagePolicy\": \"File\"',
        '                    }',
        '                ],',
        '                \"dnsPolicy\": \"ClusterFirst\",',
        '                \"restartPolicy\": \"Always\",',
        '                \"schedulerName\": \"default-scheduler\",',
        '                \"securityContext\": {},',
        '                \"terminationGracePeriodSeconds\": 30',
        '            }',
        '        }',
        '    },',
        '    \"status\": {',
        '        \"availableReplicas\": 2,',
        '        \"conditions\": [',
        '            {',
        '                \"lastTransitionTime\": \"2026-01-01T00:00:03Z\",',
        '                \"lastUpdateTime\": \"2026-01-01T00:00:03Z\",',
        '                \"message\": \"Deployment has minimum availability.\",',
        '                \"reason\": \"MinimumReplicasAvailable\",',
        '                \"status\": \"True\",',
        '                \"type\": \"Available\"',
        '            },',
        '            {',
        '                \"lastTransitionTime\": \"2026-01-01T00:00:00Z\",',
        '                \"lastUpdateTime\": \"2026-01-01T00:00:03Z\",',
        '                \"message\": \"ReplicaSet \\\"nginx-6bd87c65c5\\\" has successfully progressed.\",',
        '                \"reason\": \"NewReplicaSetAvailable\",',
        '                \"status\": \"True\",',
        '                \"type\": \"Progressing\"',
        '            }',
        '        ],',
        '        \"observedGeneration\": 1,',
        '        \"readyReplicas\": 2,',
        '        \"replicas\": 2,',
        '        \"updatedReplicas\": 2',
        '    }',
        '}',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get ns', async () => {
    expect(await run('get ns')).toEqual({
      stdout: text(
        'NAME              STATUS   AGE',
        'default           Active   5m',
        'kube-node-lease   Active   5m',
        'kube-public       Active   5m',
        'kube-system       Active   5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get sa', async () => {
    expect(await run('get sa')).toEqual({
      stdout: text(
        'NAME      SECRETS   AGE',
        'default   0         5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get svc -o wide', async () => {
    expect(await run('get svc -o wide')).toEqual({
      stdout: text(
        'NAME         TYPE           CLUSTER-IP    EXTERNAL-IP   PORT(S)         AGE   SELECTOR',
        'external     ExternalName   <none>        example.com   <none>          5m    <none>',
        'frontend     NodePort       10.96.40.1    <none>        80:31234/TCP    5m    app=web',
        'headless     ClusterIP      None          <none>        80/TCP          5m    app=nginx',
        'kubernetes   ClusterIP      10.96.0.1     <none>        443/TCP         5m    <none>',
        'lb           LoadBalancer   10.96.50.2    <pending>     443:30443/TCP   5m    app=web',
        'web          ClusterIP      10.96.12.34   <none>        80/TCP          5m    app=web',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get rs -o name', async () => {
    expect(await run('get rs -o name')).toEqual({
      stdout: text('replicaset.apps/nginx-6bd87c65c5'),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods --show-kind', async () => {
    expect(await run('get pods --show-kind')).toEqual({
      stdout: text(
        'NAME                         READY   STATUS             RESTARTS       AGE',
        'pod/crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m',
        'pod/init-pod                 0/1     Init:0/1           0              5m',
        'pod/nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m',
        'pod/nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m',
        'pod/pending-pod              0/1     Pending            0              5m',
        'pod/web                      1/1     Running            0              5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get svc,cm --no-headers', async () => {
    expect(await run('get svc,cm --no-headers')).toEqual({
      stdout: text(
        'service/external     ExternalName   <none>        example.com   <none>          5m',
        'service/frontend     NodePort       10.96.40.1    <none>        80:31234/TCP    5m',
        'service/headless     ClusterIP      None          <none>        80/TCP          5m',
        'service/kubernetes   ClusterIP      10.96.0.1     <none>        443/TCP         5m',
        'service/lb           LoadBalancer   10.96.50.2    <pending>     443:30443/TCP   5m',
        'service/web          ClusterIP      10.96.12.34   <none>        80/TCP          5m',
        'configmap/game-demo   2     5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get secret db-pass -o jsonpath={.data.password}', async () => {
    expect(await run('get secret db-pass -o jsonpath={.data.password}')).toEqual({
      stdout: text('czNjcjN0'),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl get pods -o foo', async () => {
    expect(await run('get pods -o foo')).toEqual({
      stdout: '',
      stderr: text('error: unable to match a printer suitable for the output format \"foo\", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml'),
      exitCode: 1,
    });
  });

  it('kubectl get pods --show-labels -o yaml', async () => {
    expect(await run('get pods --show-labels -o yaml')).toEqual({
      stdout: '',
      stderr: text('error: --show-labels option cannot be used with yaml printer'),
      exitCode: 1,
    });
  });

  it('kubectl get', async () => {
    expect(await run('get')).toEqual({
      stdout: '',
      stderr: text(
        'You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.',
        '',
        'error: Required resource not specified.',
        'Use \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).',
        'See \'kubectl get -h\' for help and examples',
      ),
      exitCode: 1,
    });
  });

  it('kubectl get pod', async () => {
    expect(await run('get pod')).toEqual({
      stdout: text(
        'NAME                     READY   STATUS             RESTARTS       AGE',
        'crashy                   0/1     CrashLoopBackOff   5 (119s ago)   5m',
        'init-pod                 0/1     Init:0/1           0              5m',
        'nginx-6bd87c65c5-5dvt4   1/1     Running            0              5m',
        'nginx-6bd87c65c5-mnpnd   1/1     Running            0              5m',
        'pending-pod              0/1     Pending            0              5m',
        'web                      1/1     Running            0              5m',
      ),
      stderr: '',
      exitCode: 0,
    });
  });


  it('kubectl get -f - (a pasted manifest): each object, missing ones reported after the rest', async () => {
    const stdin = 'apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: nope}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: game-demo, namespace: default}\n';
    const table = await kubectl(cluster, 'kubectl get -f -', { stdin });
    expect(table).toMatchObject({
      stdout: text('NAME      READY   STATUS    RESTARTS   AGE', 'pod/web   1/1     Running   0          5m', '', 'NAME                  DATA   AGE', 'configmap/game-demo   2      5m'),
      stderr: text('Error from server (NotFound): services "nope" not found'),
      exitCode: 1,
    });
    expect(await kubectl(cluster, 'kubectl get -f - -o name', { stdin })).toMatchObject({ stdout: text('pod/web', 'configmap/game-demo'), exitCode: 1 });
  });
});

describe('kubectl get --watch', () => {
  it('prints the list, then one row per change without repeating the header, widening columns as rows need', async () => {
    const c = await commandTestCluster();
    create(c, podYaml('web-0', 'node-1'));
    c.runUntilIdle({ maxTimeMs: 30_000 });
    const lines: string[] = [];
    let created = false;
    const result = await kubectl(c, 'kubectl get pods -w', {
      maxTimeMs: 20_000,
      onLine: (_stream, line) => {
        lines.push(line);
        // The initial list is printed: now a pod with a longer name appears and starts.
        if (!created) {
          created = true;
          create(c, podYaml('a-much-longer-pod-name', 'node-2'));
        }
      },
    });
    expect(result.stdout).toBe(
      text(
        'NAME    READY   STATUS    RESTARTS   AGE',
        'web-0   1/1     Running   0          2s',
        'a-much-longer-pod-name   0/1     Pending   0          0s',
        'a-much-longer-pod-name   0/1     ContainerCreating   0          0s',
        'a-much-longer-pod-name   0/1     ContainerCreating   0          1s',
        'a-much-longer-pod-name   1/1     Running             0          3s',
      ),
    );
    expect(lines).toHaveLength(6);
    // It ran until Ctrl+C.
    expect(result.cancelled).toBe(true);
  });

  it('--watch-only prints only the changes, with the header before the first one', async () => {
    const c = await commandTestCluster();
    create(c, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: before}\ndata: {a: "1"}\n`);
    // While the watch runs, a second ConfigMap appears.
    c.clock.setTimer(1_000, () => create(c, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: game-demo}\ndata: {a: "1", b: "2"}\n`));
    const result = await kubectl(c, 'kubectl get cm --watch-only', { maxTimeMs: 5_000 });
    expect(result.stdout).toBe(text('NAME        DATA   AGE', 'game-demo   2      0s'));
  });

  it('a watch of one object skips the synthetic ADDED event of what it already printed', async () => {
    const c = await commandTestCluster();
    create(c, podYaml('web-0', 'node-1'));
    c.runUntilIdle({ maxTimeMs: 30_000 });
    const result = await kubectl(c, 'kubectl get pod web-0 -w', { maxTimeMs: 3_000 });
    expect(result.stdout).toBe(text('NAME    READY   STATUS    RESTARTS   AGE', 'web-0   1/1     Running   0          2s'));
    expect(result.cancelled).toBe(true);
  });

  it('refuses to watch several kinds', async () => {
    const result = await run('get pods,svc -w');
    expect(result).toEqual({ stdout: '', stderr: text('error: you may only specify a single resource type'), exitCode: 1 });
  });
});
