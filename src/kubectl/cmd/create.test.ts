import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster } from '../testing';

// What kubectl v1.32 prints for the same commands (`--dry-run=client`, captured from kubectl itself).
const kubectlPrints: Record<string, string> = {
  'cj.yaml': "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  creationTimestamp: null\n  name: tick\nspec:\n  jobTemplate:\n    metadata:\n      creationTimestamp: null\n      name: tick\n    spec:\n      template:\n        metadata:\n          creationTimestamp: null\n        spec:\n          containers:\n          - command:\n            - echo\n            - hello\n            image: busybox\n            name: tick\n            resources: {}\n          restartPolicy: Never\n  schedule: '*/5 * * * *'\nstatus: {}\n",
  'cm.json': "{\n    \"kind\": \"ConfigMap\",\n    \"apiVersion\": \"v1\",\n    \"metadata\": {\n        \"name\": \"game\",\n        \"creationTimestamp\": null\n    },\n    \"data\": {\n        \"lives\": \"3\",\n        \"mode\": \"hard\"\n    }\n}\n",
  'deploy-save.yaml': "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: |\n      {\"kind\":\"Deployment\",\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"web\",\"namespace\":\"team-a\",\"creationTimestamp\":null,\"labels\":{\"app\":\"web\"}},\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":{\"creationTimestamp\":null,\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx:1.27\",\"resources\":{}}]}},\"strategy\":{}},\"status\":{}}\n  creationTimestamp: null\n  labels:\n    app: web\n  name: web\n  namespace: team-a\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: web\n  strategy: {}\n  template:\n    metadata:\n      creationTimestamp: null\n      labels:\n        app: web\n    spec:\n      containers:\n      - image: nginx:1.27\n        name: nginx\n        resources: {}\nstatus: {}\n",
  'deploy.yaml': "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  creationTimestamp: null\n  labels:\n    app: web\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: web\n  strategy: {}\n  template:\n    metadata:\n      creationTimestamp: null\n      labels:\n        app: web\n    spec:\n      containers:\n      - image: nginx:1.27\n        name: nginx\n        ports:\n        - containerPort: 80\n        resources: {}\nstatus: {}\n",
  'deploy2.json': "{\n    \"kind\": \"Deployment\",\n    \"apiVersion\": \"apps/v1\",\n    \"metadata\": {\n        \"name\": \"x\",\n        \"creationTimestamp\": null,\n        \"labels\": {\n            \"app\": \"x\"\n        }\n    },\n    \"spec\": {\n        \"replicas\": 3,\n        \"selector\": {\n            \"matchLabels\": {\n                \"app\": \"x\"\n            }\n        },\n        \"template\": {\n            \"metadata\": {\n                \"creationTimestamp\": null,\n                \"labels\": {\n                    \"app\": \"x\"\n                }\n            },\n            \"spec\": {\n                \"containers\": [\n                    {\n                        \"name\": \"nginx\",\n                        \"image\": \"nginx\",\n                        \"ports\": [\n                            {\n                                \"containerPort\": 80\n                            }\n                        ],\n                        \"resources\": {}\n                    },\n                    {\n                        \"name\": \"redis\",\n                        \"image\": \"redis\",\n                        \"resources\": {}\n                    }\n                ]\n            }\n        },\n        \"strategy\": {}\n    },\n    \"status\": {}\n}\n",
  'job.yaml': "apiVersion: batch/v1\nkind: Job\nmetadata:\n  creationTimestamp: null\n  name: j\nspec:\n  template:\n    metadata:\n      creationTimestamp: null\n    spec:\n      containers:\n      - command:\n        - echo\n        - hi\n        image: busybox\n        name: j\n        resources: {}\n      restartPolicy: Never\nstatus: {}\n",
  'np.yaml': "apiVersion: v1\nkind: Service\nmetadata:\n  creationTimestamp: null\n  labels:\n    app: \"n\"\n  name: \"n\"\nspec:\n  ports:\n  - name: 80-8080\n    nodePort: 30080\n    port: 80\n    protocol: TCP\n    targetPort: 8080\n  selector:\n    app: \"n\"\n  type: NodePort\nstatus:\n  loadBalancer: {}\n",
  'ns.yaml': "apiVersion: v1\nkind: Namespace\nmetadata:\n  creationTimestamp: null\n  name: foo\nspec: {}\nstatus: {}\n",
  'secret.yaml': "apiVersion: v1\ndata:\n  pass: czNjcj10\n  user: YWRtaW4=\nkind: Secret\nmetadata:\n  creationTimestamp: null\n  name: creds\n",
  'svc.yaml': "apiVersion: v1\nkind: Service\nmetadata:\n  creationTimestamp: null\n  labels:\n    app: s\n  name: s\nspec:\n  ports:\n  - name: 80-8080\n    port: 80\n    protocol: TCP\n    targetPort: 8080\n  - name: \"443\"\n    port: 443\n    protocol: TCP\n    targetPort: 443\n  selector:\n    app: s\n  type: ClusterIP\nstatus:\n  loadBalancer: {}\n",
};

let cluster: Cluster;
beforeEach(async () => {
  cluster = await commandTestCluster();
});
afterEach(async () => {
  await cluster.close();
});

describe('kubectl create <kind> builds the object kubectl builds', () => {
  const cases: [string, string][] = [
    ['kubectl create deployment web --image=nginx:1.27 --replicas=2 --port=80 --dry-run=client -o yaml', 'deploy.yaml'],
    ['kubectl create deployment x --image=nginx --image=redis --replicas=3 --port=80 --dry-run=client -o json', 'deploy2.json'],
    ['kubectl create deployment web --image=nginx:1.27 -n team-a --dry-run=client -o yaml --save-config', 'deploy-save.yaml'],
    ['kubectl create configmap game --from-literal=lives=3 --from-literal=mode=hard --dry-run=client -o json', 'cm.json'],
    ["kubectl create secret generic creds --from-literal=user=admin --from-literal='pass=s3cr=t' --dry-run=client -o yaml", 'secret.yaml'],
    ["kubectl create cronjob tick --image=busybox --schedule='*/5 * * * *' --restart=Never --dry-run=client -o yaml -- echo hello", 'cj.yaml'],
    ['kubectl create service clusterip s --tcp=80:8080 --tcp=443 --dry-run=client -o yaml', 'svc.yaml'],
    ['kubectl create service nodeport n --tcp=80:8080 --node-port=30080 --dry-run=client -o yaml', 'np.yaml'],
    ['kubectl create job j --image=busybox --dry-run=client -o yaml -- echo hi', 'job.yaml'],
    ['kubectl create namespace foo --dry-run=client -o yaml', 'ns.yaml'],
  ];
  for (const [line, file] of cases) {
    it(line.replace(/^kubectl /, ''), async () => {
      const r = await kubectl(cluster, line);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(kubectlPrints[file]);
      expect(r.exitCode).toBe(0);
    });
  }

  it('a client dry run sends nothing', async () => {
    await kubectl(cluster, 'kubectl create deployment web --image=nginx --dry-run=client');
    expect(cluster.client.deployments.list({ namespace: 'default' }).items).toHaveLength(0);
  });
});

describe('kubectl create <kind> against the server', () => {
  it('creates a deployment as kubectl-create and reports it', async () => {
    const r = await kubectl(cluster, 'kubectl create deployment web --image=nginx:1.27 --replicas=2');
    expect(r).toMatchObject({ stdout: 'deployment.apps/web created\n', stderr: '', exitCode: 0 });
    const d = cluster.client.deployments.get('web', { namespace: 'default' });
    expect(d.spec?.replicas).toBe(2);
    expect(d.spec?.template.spec?.containers.map((c) => [c.name, c.image])).toEqual([['nginx', 'nginx:1.27']]);
    expect(d.metadata.managedFields?.[0]?.manager).toBe('kubectl-create');
  });

  it('wraps the server error as kubectl create deployment does', async () => {
    await kubectl(cluster, 'kubectl create deployment web --image=nginx');
    const r = await kubectl(cluster, 'kubectl create deployment web --image=nginx');
    expect(r).toMatchObject({ stdout: '', stderr: 'error: failed to create deployment: deployments.apps "web" already exists\n', exitCode: 1 });
  });

  it('prints the API error for create namespace, which does not wrap it', async () => {
    expect((await kubectl(cluster, 'kubectl create namespace team-a')).stdout).toBe('namespace/team-a created\n');
    const r = await kubectl(cluster, 'kubectl create ns team-a');
    expect(r).toMatchObject({ stderr: 'Error from server (AlreadyExists): namespaces "team-a" already exists\n', exitCode: 1 });
  });

  it('creates configmaps, secrets, services, jobs and cronjobs with kubectl\'s names', async () => {
    const lines = [
      ['kubectl create configmap game --from-literal=lives=3', 'configmap/game created'],
      ['kubectl create secret generic creds --from-literal=user=admin', 'secret/creds created'],
      ['kubectl create service clusterip web --tcp=80:8080', 'service/web created'],
      ['kubectl create service nodeport edge --tcp=80:8080 --node-port=30080', 'service/edge created'],
      ['kubectl create job once --image=busybox -- echo hi', 'job.batch/once created'],
      ["kubectl create cronjob tick --image=busybox --schedule='*/5 * * * *' -- date", 'cronjob.batch/tick created'],
      ['kubectl create job manual --from=cronjob/tick', 'job.batch/manual created'],
    ];
    for (const [line, out] of lines) expect(await kubectl(cluster, line)).toMatchObject({ stdout: `${out}\n`, stderr: '', exitCode: 0 });
    expect(cluster.client.configMaps.get('game', { namespace: 'default' }).data).toEqual({ lives: '3' });
    expect(cluster.client.secrets.get('creds', { namespace: 'default' })).toMatchObject({ type: 'Opaque', data: { user: 'YWRtaW4=' } });
    expect(cluster.client.services.get('edge', { namespace: 'default' }).spec?.ports).toMatchObject([{ name: '80-8080', port: 80, targetPort: 8080, nodePort: 30080 }]);
    const manual = cluster.client.jobs.get('manual', { namespace: 'default' });
    expect(manual.metadata.annotations).toEqual({ 'cronjob.kubernetes.io/instantiate': 'manual' });
    expect(manual.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'CronJob', name: 'tick', controller: true });
    expect(manual.spec?.template.spec?.containers[0].command).toEqual(['date']);
  });

  it('creates in the namespace given with -n', async () => {
    await kubectl(cluster, 'kubectl create namespace team-a');
    expect((await kubectl(cluster, 'kubectl create configmap c -n team-a --from-literal=a=1')).exitCode).toBe(0);
    expect(cluster.client.configMaps.get('c', { namespace: 'team-a' }).data).toEqual({ a: '1' });
  });
});

describe('kubectl create errors', () => {
  const errors: [string, string][] = [
    ['kubectl create deployment x', 'error: required flag(s) "image" not set\n'],
    ['kubectl create deployment --image=x', "error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples\n"],
    ['kubectl create deployment x y --image=x', "error: exactly one NAME is required, got 2\nSee 'kubectl create deployment -h' for help and examples\n"],
    ['kubectl create deployment x --image=a --image=b -- date', 'error: cannot specify multiple --image options and command\n'],
    ['kubectl create deployment x --image=nginx --dry-run=bad', 'error: Invalid dry-run value (bad). Must be "none", "server", or "client".\n'],
    ['kubectl create deployment x --image=nginx -o foo', 'error: unable to match a printer suitable for the output format "foo", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml\n'],
    ['kubectl create configmap c --from-literal==x', 'error: invalid literal source =x, expected key=value\n'],
    ['kubectl create configmap c --from-literal=x', 'error: invalid literal source x, expected key=value\n'],
    [
      "kubectl create configmap c --from-literal='a b=x'",
      "error: \"a b\" is not a valid key name for a ConfigMap: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')\n",
    ],
    ['kubectl create service clusterip s', 'error: at least one tcp port specifier must be provided\n'],
    ['kubectl create service clusterip s --tcp=abc', 'error: strconv.ParseUint: parsing "abc": invalid syntax\n'],
    ['kubectl create job j', 'error: either --image or --from must be specified\n'],
    ['kubectl create cronjob c --image=busybox', 'error: required flag(s) "schedule" not set\n'],
    ['kubectl create', 'error: must specify one of -f and -k\n'],
    ['kubectl create -f pod.yaml', 'error: the path "pod.yaml" does not exist\n'],
  ];
  for (const [line, stderr] of errors) {
    it(line.replace(/^kubectl /, ''), async () => {
      expect(await kubectl(cluster, line)).toMatchObject({ stdout: '', stderr, exitCode: 1 });
    });
  }
});

describe('kubectl create -f', () => {
  const manifest = `apiVersion: v1
kind: ConfigMap
metadata:
  name: game-demo
data:
  lives: "3"
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx:1.27}]
`;

  it('creates each object of a heredoc and prints one line per object', async () => {
    const r = await kubectl(cluster, `kubectl create -f - <<EOF\n${manifest}EOF`);
    expect(r).toMatchObject({ stdout: 'configmap/game-demo created\ndeployment.apps/web created\n', stderr: '', exitCode: 0 });
    expect(cluster.client.deployments.get('web', { namespace: 'default' }).metadata.managedFields?.[0]?.manager).toBe('kubectl-create');
  });

  it('reports AlreadyExists with the source, after the objects it did create', async () => {
    await kubectl(cluster, 'kubectl create configmap game-demo --from-literal=a=b');
    const r = await kubectl(cluster, `kubectl create -f - <<EOF\n${manifest}EOF`);
    expect(r).toMatchObject({
      stdout: 'deployment.apps/web created\n',
      stderr: 'Error from server (AlreadyExists): error when creating "STDIN": configmaps "game-demo" already exists\n',
      exitCode: 1,
    });
  });

  it('reads the editor buffer with -f editor', async () => {
    const r = await kubectl(cluster, 'kubectl create -f editor -o name', { editorBuffer: manifest });
    expect(r).toMatchObject({ stdout: 'configmap/game-demo\ndeployment.apps/web\n', exitCode: 0 });
  });

  it('--save-config stores the last-applied configuration, so apply then sees no change', async () => {
    await kubectl(cluster, `kubectl create --save-config -f - <<EOF\n${manifest}EOF`);
    const cm = cluster.client.configMaps.get('game-demo', { namespace: 'default' });
    expect(JSON.parse(cm.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'] ?? '')).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'game-demo', namespace: 'default' },
      data: { lives: '3' },
    });
    const r = await kubectl(cluster, `kubectl apply -f - <<EOF\n${manifest}EOF`);
    expect(r.stdout).toBe('configmap/game-demo unchanged\ndeployment.apps/web unchanged\n');
  });
});
