// kubectl describe against a running cluster: the exact text kubectl v1.32 prints for the same objects
// (layouts checked against the real kubectl describing the same state), with ages from the virtual clock.
import type { Pod } from 'kubernetes-types/core/v1';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { createAll, kubectl, observedCluster, rfc1123 } from '../describe/test-cluster';

const manifests = `apiVersion: v1
kind: ConfigMap
metadata: {name: game-config}
data: {lives: "3"}
---
apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web, tier: frontend}
  annotations: {team: blue}
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    ports: [{containerPort: 80}]
    env: [{name: MODE, value: demo}, {name: LIVES, valueFrom: {configMapKeyRef: {name: game-config, key: lives}}}]
    resources: {requests: {cpu: 250m, memory: 64Mi}, limits: {cpu: 500m, memory: 128Mi}}
    readinessProbe: {httpGet: {path: /, port: 80}}
    volumeMounts: [{name: config, mountPath: /etc/game}]
  volumes: [{name: config, configMap: {name: game-config}}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{port: 80, targetPort: 80}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: hello, labels: {app: hello}}
spec:
  replicas: 2
  selector: {matchLabels: {app: hello}}
  template:
    metadata: {labels: {app: hello}}
    spec:
      containers: [{name: hello, image: 'nginx:1.27'}]
`;

let cluster: Cluster;

beforeAll(async () => {
  cluster = await observedCluster();
  createAll(cluster, manifests);
  cluster.advance(90_000);
});

function pod(name: string): Pod {
  return cluster.client.pods.get(name, { namespace: 'default' });
}

describe('kubectl describe', () => {
  it('describes a pod: containers, state, resources, probe, env, mounts, conditions, volumes, QoS, tolerations, events', async () => {
    const p = pod('web');
    const status = p.status!.containerStatuses![0];
    const token = p.spec!.volumes!.find((v) => v.name.startsWith('kube-api-access-'))!.name;
    const ip = p.status!.podIP!;
    const node = p.spec!.nodeName!;
    const pulled = cluster.client.events.list({ namespace: 'default', fieldSelector: 'involvedObject.name=web,reason=Pulled' }).items[0]?.message
      ?? cluster.client.events.list({ namespace: 'default', fieldSelector: 'involvedObject.name=web' }).items.find((e) => e.reason === 'Pulled')!.message!;
    const result = await kubectl(cluster, 'kubectl describe pod web');
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`Name:             web
Namespace:        default
Priority:         0
Service Account:  default
Node:             ${node}/${p.status!.hostIP}
Start Time:       ${rfc1123(p.status!.startTime)}
Labels:           app=web
                  tier=frontend
Annotations:      team: blue
Status:           Running
IP:               ${ip}
IPs:
  IP:  ${ip}
Containers:
  nginx:
    Container ID:   ${status.containerID}
    Image:          nginx:1.27
    Image ID:       ${status.imageID}
    Port:           80/TCP
    Host Port:      0/TCP
    State:          Running
      Started:      ${rfc1123(status.state!.running!.startedAt)}
    Ready:          True
    Restart Count:  0
    Limits:
      cpu:     500m
      memory:  128Mi
    Requests:
      cpu:      250m
      memory:   64Mi
    Readiness:  http-get http://:80/ delay=0s timeout=1s period=10s #success=1 #failure=3
    Environment:
      MODE:   demo
      LIVES:  <set to the key 'lives' of config map 'game-config'>  Optional: false
    Mounts:
      /etc/game from config (rw)
      /var/run/secrets/kubernetes.io/serviceaccount from ${token} (ro)
Conditions:
  Type                        Status
  PodReadyToStartContainers   True 
  Initialized                 True 
  Ready                       True 
  ContainersReady             True 
  PodScheduled                True 
Volumes:
  config:
    Type:      ConfigMap (a volume populated by a ConfigMap)
    Name:      game-config
    Optional:  false
  ${token}:
    Type:                    Projected (a volume that contains injected data from multiple sources)
    TokenExpirationSeconds:  3607
    ConfigMapName:           kube-root-ca.crt
    ConfigMapOptional:       <nil>
    DownwardAPI:             true
QoS Class:                   Burstable
Node-Selectors:              <none>
Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s
                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s
Events:
  Type    Reason     Age   From               Message
  ----    ------     ----  ----               -------
  Normal  Scheduled  90s   default-scheduler  Successfully assigned default/web to ${node}
  Normal  Pulling    90s   kubelet            Pulling image "nginx:1.27"
  Normal  Pulled     88s   kubelet            ${pulled}
  Normal  Created    88s   kubelet            Created container: nginx
  Normal  Started    88s   kubelet            Started container nginx
`);
  });

  it('describes a deployment with its pod template, conditions, replica sets and events (TYPE/NAME and short names)', async () => {
    const rs = cluster.client.replicaSets.list({ namespace: 'default', labelSelector: 'app=hello' }).items[0].metadata.name!;
    const expected = `Name:                   hello
Namespace:              default
CreationTimestamp:      Thu, 01 Jan 2026 00:00:00 +0000
Labels:                 app=hello
Annotations:            deployment.kubernetes.io/revision: 1
Selector:               app=hello
Replicas:               2 desired | 2 updated | 2 total | 2 available | 0 unavailable
StrategyType:           RollingUpdate
MinReadySeconds:        0
RollingUpdateStrategy:  25% max unavailable, 25% max surge
Pod Template:
  Labels:  app=hello
  Containers:
   hello:
    Image:         nginx:1.27
    Port:          <none>
    Host Port:     <none>
    Environment:   <none>
    Mounts:        <none>
  Volumes:         <none>
  Node-Selectors:  <none>
  Tolerations:     <none>
Conditions:
  Type           Status  Reason
  ----           ------  ------
  Available      True    MinimumReplicasAvailable
  Progressing    True    NewReplicaSetAvailable
OldReplicaSets:  <none>
NewReplicaSet:   ${rs} (2/2 replicas created)
Events:
  Type    Reason             Age   From                   Message
  ----    ------             ----  ----                   -------
  Normal  ScalingReplicaSet  90s   deployment-controller  Scaled up replica set ${rs} from 0 to 2
`;
    expect((await kubectl(cluster, 'kubectl describe deployment hello')).stdout).toBe(expected);
    expect((await kubectl(cluster, 'kubectl describe deploy/hello')).stdout).toBe(expected);
  });

  it('describes a service', async () => {
    const svc = cluster.client.services.get('web', { namespace: 'default' });
    const ip = svc.spec?.clusterIP ?? '';
    const ips = svc.spec?.clusterIPs?.join(',') || '<none>';
    const result = await kubectl(cluster, 'kubectl describe svc web');
    expect(result.stdout).toBe(`Name:                     web
Namespace:                default
Labels:                   <none>
Annotations:              <none>
Selector:                 app=web
Type:                     ClusterIP
IP Family Policy:         SingleStack
IP Families:              IPv4
IP:                       ${ip}
IPs:                      ${ips}
Port:                     <unset>  80/TCP
TargetPort:               80/TCP
Endpoints:                ${cluster.client.endpointSlices.list({ namespace: 'default' }).items.length ? `${pod('web').status!.podIP}:80` : '<none>'}
Session Affinity:         None
Internal Traffic Policy:  Cluster
Events:                   <none>
`);
  });

  it('describes a namespace with its (absent) quotas and limit ranges', async () => {
    const result = await kubectl(cluster, 'kubectl describe ns default');
    expect(result.stdout).toBe(`Name:         default
Labels:       kubernetes.io/metadata.name=default
Annotations:  <none>
Status:       Active

No resource quota.

No LimitRange resource.
`);
  });

  it('describes a node: lease, conditions, addresses, capacity, system info, its pods and their share, events', async () => {
    const name = pod('web').spec!.nodeName!;
    const node = cluster.client.nodes.get(name);
    const info = node.status!.nodeInfo!;
    const lease = cluster.client.leases.get(name, { namespace: 'kube-node-lease' });
    const cond = (type: string) => node.status!.conditions!.find((c) => c.type === type)!;
    const row = (type: string, status: string, reason: string, message: string, typeWidth: number, reasonWidth: number) =>
      `  ${type.padEnd(typeWidth)}${status.padEnd(8)}${rfc1123(cond(type).lastHeartbeatTime)}   ${rfc1123(cond(type).lastTransitionTime)}   ${reason.padEnd(reasonWidth)}${message}`;
    const ip = node.status!.addresses!.find((a) => a.type === 'InternalIP')!.address;
    const zone = node.metadata!.labels!['topology.kubernetes.io/zone'];
    const result = await kubectl(cluster, `kubectl describe node ${name}`);
    expect(result.stdout).toBe(`Name:               ${name}
Roles:              <none>
Labels:             beta.kubernetes.io/arch=amd64
                    beta.kubernetes.io/os=linux
                    kubernetes.io/arch=amd64
                    kubernetes.io/hostname=${name}
                    kubernetes.io/os=linux
                    node.kubernetes.io/instance-type=kubeplay-4c-8gi
                    topology.kubernetes.io/region=region-1
                    topology.kubernetes.io/zone=${zone}
Annotations:        volumes.kubernetes.io/controller-managed-attach-detach: true
CreationTimestamp:  Thu, 01 Jan 2026 00:00:00 +0000
Taints:             <none>
Unschedulable:      false
Lease:
  HolderIdentity:  ${name}
  AcquireTime:     <unset>
  RenewTime:       ${rfc1123(lease.spec!.renewTime)}
Conditions:
  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message
  ----             ------  -----------------                 ------------------                ------                       -------
${row('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', 17, 29)}
${row('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', 17, 29)}
${row('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', 17, 29)}
${row('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', 17, 29)}
Addresses:
  InternalIP:  ${ip}
  Hostname:    ${name}
Capacity:
  cpu:                4
  ephemeral-storage:  100Gi
  hugepages-1Gi:      0
  hugepages-2Mi:      0
  memory:             8Gi
  pods:               110
Allocatable:
  cpu:                4
  ephemeral-storage:  96636764160
  hugepages-1Gi:      0
  hugepages-2Mi:      0
  memory:             8092Mi
  pods:               110
System Info:
  Machine ID:                 ${info.machineID}
  System UUID:                ${info.systemUUID}
  Boot ID:                    ${info.bootID}
  Kernel Version:             ${info.kernelVersion}
  OS Image:                   ${info.osImage}
  Operating System:           linux
  Architecture:               amd64
  Container Runtime Version:  ${info.containerRuntimeVersion}
  Kubelet Version:            v1.32.0
  Kube-Proxy Version:         
PodCIDR:                      ${node.spec!.podCIDR}
PodCIDRs:                     ${node.spec!.podCIDR}
Non-terminated Pods:          (1 in total)
  Namespace                   Name    CPU Requests  CPU Limits  Memory Requests  Memory Limits  Age
  ---------                   ----    ------------  ----------  ---------------  -------------  ---
  default                     web     250m (6%)     500m (12%)  64Mi (0%)        128Mi (1%)     90s
Allocated resources:
  (Total limits may be over 100 percent, i.e., overcommitted.)
  Resource           Requests   Limits
  --------           --------   ------
  cpu                250m (6%)  500m (12%)
  memory             64Mi (0%)  128Mi (1%)
  ephemeral-storage  0 (0%)     0 (0%)
  hugepages-1Gi      0 (0%)     0 (0%)
  hugepages-2Mi      0 (0%)     0 (0%)
Events:
  Type    Reason                   Age   From             Message
  ----    ------                   ----  ----             -------
  Normal  RegisteredNode           90s   node-controller  Node ${name} event: Registered Node ${name} in Controller
  Normal  Starting                 90s   kubelet          Starting kubelet.
  Normal  NodeAllocatableEnforced  90s   kubelet          Updated Node Allocatable limit across pods
  Normal  NodeHasSufficientMemory  90s   kubelet          Node ${name} status is now: NodeHasSufficientMemory
  Normal  NodeHasNoDiskPressure    90s   kubelet          Node ${name} status is now: NodeHasNoDiskPressure
  Normal  NodeHasSufficientPID     90s   kubelet          Node ${name} status is now: NodeHasSufficientPID
  Normal  NodeReady                90s   kubelet          Node ${name} status is now: NodeReady
`);
  });

  it('--show-events=false leaves the Events section out', async () => {
    const result = await kubectl(cluster, 'kubectl describe ns default --show-events=false');
    expect(result.stdout).not.toContain('Events:');
    const withPod = await kubectl(cluster, 'kubectl describe pod web --show-events=false');
    expect(withPod.stdout.trimEnd().split('\n').at(-1)).toBe('                             node.kubernetes.io/unreachable:NoExecute op=Exists for 300s');
  });

  it('prints NotFound as the API server says it, exit 1', async () => {
    const result = await kubectl(cluster, 'kubectl describe pod nothere');
    expect(result).toMatchObject({ stdout: '', stderr: 'Error from server (NotFound): pods "nothere" not found\n', exitCode: 1 });
    expect((await kubectl(cluster, 'kubectl describe pods/nothere')).stderr).toBe('Error from server (NotFound): pods "nothere" not found\n');
  });

  it('TYPE NAME that names nothing describes every object whose name starts with it, each followed by a blank line', async () => {
    const hello = cluster.client.pods.list({ namespace: 'default', labelSelector: 'app=hello' }).items.map((p) => p.metadata.name!).sort();
    const result = await kubectl(cluster, 'kubectl describe pods hello --show-events=false');
    expect(result.exitCode).toBe(0);
    const names = [...result.stdout.matchAll(/^Name: +(\S+)$/gm)].map((m) => m[1]);
    expect(names).toEqual(hello);
    const one = (await kubectl(cluster, `kubectl describe pod ${hello[0]} --show-events=false`)).stdout;
    const two = (await kubectl(cluster, `kubectl describe pod ${hello[1]} --show-events=false`)).stdout;
    expect(result.stdout).toBe(`${one}\n${two}\n`);
  });

  it('TYPE alone describes them all, separated by two blank lines; -l selects', async () => {
    const result = await kubectl(cluster, 'kubectl describe deploy,svc --show-events=false');
    const deploy = (await kubectl(cluster, 'kubectl describe deploy hello --show-events=false')).stdout;
    // default/kubernetes (the API server's own Service) sorts before web.
    const kube = (await kubectl(cluster, 'kubectl describe svc kubernetes --show-events=false')).stdout;
    const svc = (await kubectl(cluster, 'kubectl describe svc web --show-events=false')).stdout;
    expect(result.stdout).toBe(`${deploy}\n\n${kube}\n\n${svc}`);
    const selected = await kubectl(cluster, 'kubectl describe pods -l tier=frontend --show-events=false');
    expect(selected.stdout).toBe((await kubectl(cluster, 'kubectl describe pod web --show-events=false')).stdout);
  });

  it('says so when nothing matches (stderr, exit 0)', async () => {
    expect(await kubectl(cluster, 'kubectl describe pods -l app=none')).toMatchObject({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
    expect(await kubectl(cluster, 'kubectl describe pods -l app=none -A')).toMatchObject({ stderr: 'No resources found\n', exitCode: 0 });
  });

  it('requires a type, with kubectl\'s texts for client-side errors', async () => {
    expect(await kubectl(cluster, 'kubectl describe')).toMatchObject({
      stderr: 'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n',
      exitCode: 1,
    });
    expect((await kubectl(cluster, 'kubectl describe foo bar')).stderr).toBe('error: the server doesn\'t have a resource type "foo"\n');
  });

  it('describes a configmap and a secret (keys sorted, sizes for secrets)', async () => {
    createAll(cluster, 'apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {user: admin, password: hunter2}\n');
    expect((await kubectl(cluster, 'kubectl describe configmap game-config')).stdout).toBe(`Name:         game-config
Namespace:    default
Labels:       <none>
Annotations:  <none>

Data
====
lives:
----
3


BinaryData
====

Events:  <none>
`);
    expect((await kubectl(cluster, 'kubectl describe secret creds')).stdout).toBe(`Name:         creds
Namespace:    default
Labels:       <none>
Annotations:  <none>

Type:  Opaque

Data
====
password:  7 bytes
user:      5 bytes
`);
  });

  it('falls back to the generic describer for kinds without their own (the object\'s fields, then events)', async () => {
    const name = pod('web').spec!.nodeName!;
    const lease = cluster.client.leases.get(name, { namespace: 'kube-node-lease' });
    const result = await kubectl(cluster, `kubectl describe lease ${name} -n kube-node-lease`);
    expect(result.stdout).toBe(`Name:         ${name}
Namespace:    kube-node-lease
Labels:       <none>
Annotations:  <none>
API Version:  coordination.k8s.io/v1
Kind:         Lease
Metadata:
  Creation Timestamp:  ${lease.metadata.creationTimestamp}
  Owner References:
    API Version:     v1
    Kind:            Node
    Name:            ${name}
    UID:             ${lease.metadata.ownerReferences![0].uid}
  Resource Version:  ${lease.metadata.resourceVersion}
  UID:               ${lease.metadata.uid}
Spec:
  Holder Identity:         ${name}
  Lease Duration Seconds:  40
  Renew Time:              ${lease.spec!.renewTime}
Events:                    <none>
`);
  });

  it('a crash-looping container: waiting state, last termination, restarts, and repeated events as "(xN over M)"', async () => {
    createAll(cluster, "apiVersion: v1\nkind: Pod\nmetadata: {name: crashy}\nspec:\n  containers: [{name: app, image: 'busybox:1.36', command: [sh, -c, 'echo oops; exit 3']}]\n");
    cluster.advance(150_000);
    const status = pod('crashy').status!.containerStatuses![0];
    const last = status.lastState!.terminated!;
    const result = await kubectl(cluster, 'kubectl describe pod crashy');
    expect(result.stdout).toContain(`    Command:
      sh
      -c
      echo oops; exit 3
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    3
      Started:      ${rfc1123(last.startedAt)}
      Finished:     ${rfc1123(last.finishedAt)}
    Ready:          False
    Restart Count:  ${status.restartCount}
`);
    const events = cluster.client.events.list({ namespace: 'default', fieldSelector: 'involvedObject.name=crashy' }).items;
    const backOff = events.find((e) => e.reason === 'BackOff')!;
    const age = (ts: string | undefined) => {
      const s = Math.floor((cluster.clock.now() - Date.parse(ts!)) / 1000);
      return s < 120 ? `${s}s` : s % 60 === 0 || s >= 600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 60)}m${s % 60}s`;
    };
    expect(backOff.count).toBeGreaterThan(1);
    expect(result.stdout).toMatch(
      new RegExp(`\\n  Warning  BackOff +${age(backOff.lastTimestamp).replace(/[()]/g, '\\$&')} \\(x${backOff.count} over ${age(backOff.firstTimestamp)}\\) +kubelet +Back-off restarting failed container app in pod crashy_default\\(${pod('crashy').metadata!.uid}\\)\\n`),
    );
  });
});
