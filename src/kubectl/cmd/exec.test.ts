// kubectl exec answered by the simulated containers: their environment, their mounted ConfigMap and Secret
// files, the kubelet's script interpreter, and runc's and the API server's texts when it cannot run.
import type { Pod } from 'kubernetes-types/core/v1';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { createAll, kubectl, observedCluster } from '../describe/test-cluster';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await observedCluster();
  createAll(cluster, `apiVersion: v1
kind: ConfigMap
metadata: {name: game-demo}
data:
  player_initial_lives: "3"
  game.properties: |
    enemy.types=aliens,monsters
    player.maximum-lives=5
---
apiVersion: v1
kind: Secret
metadata: {name: db}
stringData: {password: s3cr3t}
---
apiVersion: v1
kind: Service
metadata: {name: backend-api}
spec:
  selector: {app: backend}
  ports: [{name: http, port: 8080}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  containers:
  - name: nginx
    image: 'nginx:1.27'
    env: [{name: PLAYER_INITIAL_LIVES, valueFrom: {configMapKeyRef: {name: game-demo, key: player_initial_lives}}}, {name: MODE, value: demo}]
    volumeMounts: [{name: config, mountPath: /config, readOnly: true}, {name: creds, mountPath: /etc/db}]
  volumes:
  - {name: config, configMap: {name: game-demo}}
  - {name: creds, secret: {secretName: db}}
---
apiVersion: v1
kind: Pod
metadata: {name: box}
spec:
  containers: [{name: shell, image: 'busybox:1.36', command: [sh, -c, 'echo ready > /tmp/state; sleep 3600']}]
---
apiVersion: v1
kind: Pod
metadata: {name: done}
spec:
  restartPolicy: Never
  containers: [{name: job, image: 'busybox:1.36', command: ['true']}]
---
apiVersion: v1
kind: Pod
metadata: {name: stuck}
spec:
  containers: [{name: c, image: 'nginx:1.27', volumeMounts: [{name: v, mountPath: /v}]}]
  volumes: [{name: v, configMap: {name: missing}}]
`);
  cluster.advance(30_000);
});

function pod(name: string): Pod {
  return cluster.client.pods.get(name, { namespace: 'default' });
}

describe('kubectl exec', () => {
  it('env: PATH, HOSTNAME, the pod\'s variables, the service variables of services that existed at start, HOME', async () => {
    expect(await kubectl(cluster, 'kubectl exec web -- env')).toMatchObject({
      stdout: `PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
HOSTNAME=web
PLAYER_INITIAL_LIVES=3
MODE=demo
BACKEND_API_SERVICE_HOST=${cluster.client.services.get('backend-api', { namespace: 'default' }).spec?.clusterIP}
BACKEND_API_SERVICE_PORT=8080
BACKEND_API_SERVICE_PORT_HTTP=8080
BACKEND_API_PORT=tcp://${cluster.client.services.get('backend-api', { namespace: 'default' }).spec?.clusterIP}:8080
BACKEND_API_PORT_8080_TCP=tcp://${cluster.client.services.get('backend-api', { namespace: 'default' }).spec?.clusterIP}:8080
BACKEND_API_PORT_8080_TCP_PROTO=tcp
BACKEND_API_PORT_8080_TCP_PORT=8080
BACKEND_API_PORT_8080_TCP_ADDR=${cluster.client.services.get('backend-api', { namespace: 'default' }).spec?.clusterIP}
KUBERNETES_SERVICE_HOST=10.96.0.1
KUBERNETES_SERVICE_PORT=443
KUBERNETES_SERVICE_PORT_HTTPS=443
KUBERNETES_PORT=tcp://10.96.0.1:443
KUBERNETES_PORT_443_TCP=tcp://10.96.0.1:443
KUBERNETES_PORT_443_TCP_PROTO=tcp
KUBERNETES_PORT_443_TCP_PORT=443
KUBERNETES_PORT_443_TCP_ADDR=10.96.0.1
HOME=/root
`.replace(/^BACKEND_API.*\n/gm, (line) => (cluster.client.services.get('backend-api', { namespace: 'default' }).spec?.clusterIP ? line : '')),
      stderr: '',
      exitCode: 0,
    });
    expect((await kubectl(cluster, 'kubectl exec web -- printenv MODE')).stdout).toBe('demo\n');
  });

  it('cat and ls of a mounted ConfigMap and Secret show their keys and values', async () => {
    expect((await kubectl(cluster, 'kubectl exec web -- ls /config')).stdout).toBe('game.properties\nplayer_initial_lives\n');
    expect((await kubectl(cluster, 'kubectl exec web -- cat /config/game.properties')).stdout).toBe('enemy.types=aliens,monsters\nplayer.maximum-lives=5\n');
    // A file without a final newline still ends the console's line.
    expect((await kubectl(cluster, 'kubectl exec web -- cat /etc/db/password')).stdout).toBe('s3cr3t\n');
    expect((await kubectl(cluster, 'kubectl exec web -- cat /var/run/secrets/kubernetes.io/serviceaccount/namespace')).stdout).toBe('default\n');
    expect((await kubectl(cluster, 'kubectl exec web -- cat /etc/hostname')).stdout).toBe('web\n');
    expect((await kubectl(cluster, 'kubectl exec web -- ls /var/run/secrets/kubernetes.io/serviceaccount')).stdout).toBe('ca.crt\nnamespace\ntoken\n');
    // The kube-api-access volume projects the cluster's CA from the kube-root-ca.crt ConfigMap.
    expect((await kubectl(cluster, 'kubectl exec web -- cat /var/run/secrets/kubernetes.io/serviceaccount/ca.crt')).stdout).toMatch(/^-----BEGIN CERTIFICATE-----\n[\s\S]+\n-----END CERTIFICATE-----\n$/);
  });

  it('a shell script runs in the kubelet\'s interpreter with the container\'s files and variables', async () => {
    expect((await kubectl(cluster, "kubectl exec web -- sh -c 'echo $MODE; hostname; cat /config/player_initial_lives'")).stdout).toBe('demo\nweb\n3\n');
    expect((await kubectl(cluster, 'kubectl exec box -- cat /tmp/state')).stdout).toBe('');
    expect((await kubectl(cluster, 'kubectl exec box -- ls /tmp')).stdout).toBe('state\n');
    expect((await kubectl(cluster, 'kubectl exec -it box -- date')).stdout).toBe(`${new Date(cluster.clock.now()).toUTCString().replace(/^(\w+), (\d+) (\w+) (\d+) (\S+) GMT$/, (_m, wd, d, mo, y, t) => `${wd} ${mo} ${String(Number(d)).padStart(2, ' ')} ${t} UTC ${y}`)}\n`);
  });

  it('a failing command: its message, then "command terminated with exit code N"', async () => {
    expect(await kubectl(cluster, 'kubectl exec web -- cat /nope')).toMatchObject({
      stdout: '',
      stderr: 'cat: /nope: No such file or directory\ncommand terminated with exit code 1\n',
      exitCode: 1,
    });
    expect(await kubectl(cluster, 'kubectl exec box -- ls /nope')).toMatchObject({
      stderr: 'ls: /nope: No such file or directory\ncommand terminated with exit code 1\n',
      exitCode: 1,
    });
    expect(await kubectl(cluster, 'kubectl exec web -- foo --bar')).toMatchObject({
      stderr: 'OCI runtime exec failed: exec failed: unable to start container process: exec: "foo": executable file not found in $PATH: unknown\ncommand terminated with exit code 126\n',
      exitCode: 126,
    });
  });

  it('errors from the API server and the kubelet', async () => {
    expect(await kubectl(cluster, 'kubectl exec web -c nope -- env')).toMatchObject({ stderr: 'Error from server (BadRequest): container nope is not valid for pod web\n', exitCode: 1 });
    expect(await kubectl(cluster, 'kubectl exec nothere -- env')).toMatchObject({ stderr: 'Error from server (NotFound): pods "nothere" not found\n', exitCode: 1 });
    expect(pod('stuck').status?.phase).toBe('Pending');
    expect(await kubectl(cluster, 'kubectl exec stuck -- env')).toMatchObject({ stderr: 'error: unable to upgrade connection: container not found ("c")\n', exitCode: 1 });
    expect(pod('done').status?.phase).toBe('Succeeded');
    expect(await kubectl(cluster, 'kubectl exec done -- env')).toMatchObject({ stderr: 'error: cannot exec into a container in a completed pod; current phase is Succeeded\n', exitCode: 1 });
  });

  it('usage errors as kubectl prints them', async () => {
    expect(await kubectl(cluster, 'kubectl exec web env')).toMatchObject({
      stderr: "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples\n",
      exitCode: 1,
    });
    expect(await kubectl(cluster, 'kubectl exec web')).toMatchObject({ stderr: 'error: you must specify at least one command for the container\n', exitCode: 1 });
  });

  it('the node of a killed machine cannot be reached', async () => {
    const node = pod('box').spec!.nodeName!;
    const ip = cluster.client.nodes.get(node).status!.addresses!.find((a) => a.type === 'InternalIP')!.address;
    cluster.nodes.kill(node);
    expect(await kubectl(cluster, 'kubectl exec box -- env')).toMatchObject({ stderr: `error: error dialing backend: dial tcp ${ip}:10250: connect: no route to host\n`, exitCode: 1 });
    expect((await kubectl(cluster, 'kubectl logs box')).stderr).toBe(`Error from server: Get "https://${ip}:10250/containerLogs/default/box/shell": dial tcp ${ip}:10250: connect: no route to host\n`);
    cluster.nodes.restart(node);
  });
});
