// A cluster in a known state for the kubectl get / api-resources / explain tests: three nodes (node-1 a
// cordoned control plane), a Deployment with its ReplicaSet and pods, pods that are running, crash-looping,
// pending and initializing, services of every type, a ConfigMap and a Secret, and the virtual clock 5 minutes
// after the last write, so AGE and RESTARTS cells are fixed.
import type { Cluster } from '../../control-plane/cluster';
import { createCluster } from '../../control-plane/cluster';
import { PatchType } from '../../shared/api/request';
import type { KubeObject } from '../../shared/api/types';
import { parseManifests } from '../../shared/lib/yaml';

export const fixtureManifests = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: nginx, labels: {app: nginx}}
spec:
  replicas: 2
  selector: {matchLabels: {app: nginx}}
  template:
    metadata: {labels: {app: nginx}}
    spec: {containers: [{name: nginx, image: 'nginx:1.27'}]}
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web, tier: frontend}}
spec: {containers: [{name: web, image: 'nginx:1.27'}]}
---
apiVersion: v1
kind: Pod
metadata: {name: crashy}
spec: {containers: [{name: app, image: 'busybox:1.36', command: [sh, -c, 'sleep 5; exit 3']}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pending-pod}
spec: {nodeSelector: {disk: ssd}, containers: [{name: app, image: 'busybox:1.36'}]}
---
apiVersion: v1
kind: Pod
metadata: {name: init-pod}
spec:
  initContainers: [{name: wait, image: 'busybox:1.36', command: [sh, -c, 'sleep 3600']}]
  containers: [{name: app, image: 'nginx:1.27'}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {selector: {app: web}, clusterIP: 10.96.12.34, ports: [{port: 80, targetPort: 8080}]}
---
apiVersion: v1
kind: Service
metadata: {name: headless}
spec: {clusterIP: None, selector: {app: nginx}, ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: frontend}
spec: {type: NodePort, clusterIP: 10.96.40.1, selector: {app: web}, ports: [{port: 80, nodePort: 31234}]}
---
apiVersion: v1
kind: Service
metadata: {name: lb}
spec: {type: LoadBalancer, clusterIP: 10.96.50.2, selector: {app: web}, ports: [{port: 443, nodePort: 30443, protocol: TCP}]}
---
apiVersion: v1
kind: Service
metadata: {name: external}
spec: {type: ExternalName, externalName: example.com}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: game-demo}
data: {player_initial_lives: "3", ui_properties_file_name: user-interface.properties}
---
apiVersion: v1
kind: Secret
metadata: {name: db-pass}
stringData: {password: s3cr3t}
`;

/** Creates the objects of a manifest stream (as the admin), each in its own namespace or "default". */
export function createAll(cluster: Cluster, yaml: string): KubeObject[] {
  return parseManifests(yaml).map((doc) => {
    const obj = doc.object as KubeObject;
    const [group, version] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : ['', obj.apiVersion];
    const rt = cluster.registry.forKind({ group, version, kind: obj.kind })!;
    return cluster.client.resource({ group, version, resource: rt.resource }).create(obj, { namespace: rt.namespaced ? (obj.metadata.namespace ?? 'default') : undefined });
  });
}

/** The fixture cluster, its clock at fixtureTime (5 minutes after start). */
export async function getFixtureCluster(): Promise<Cluster> {
  const cluster = await createCluster({
    seed: 7,
    // Without the default StorageClass: its objects would draw uids from the seeded stream and move every name
    // and placement the expected texts (checked against the real kubectl) show.
    defaultStorageClass: false,
    controllers: ['serviceaccount-controller', 'deployment-controller', 'replicaset-controller'],
  });
  cluster.runUntil(() => {
    try {
      cluster.client.serviceAccounts.get('default', { namespace: 'default' });
    } catch {
      return false;
    }
    return cluster.client.nodes.list().items.length === 3;
  }, 60_000);
  cluster.client.nodes.patch('node-1', PatchType.StrategicMergePatch, { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } }, spec: { unschedulable: true } });
  createAll(cluster, fixtureManifests);
  // Long enough for the crash loop to restart a few times; the clock then stands still for the assertions.
  cluster.advance(fixtureTime - (cluster.clock.now() - fixtureStart));
  return cluster;
}

/** createCluster's default start, 2026-01-01T00:00:00Z. */
export const fixtureStart = Date.UTC(2026, 0, 1);
/** How long after the start the fixture's clock stands. */
export const fixtureTime = 5 * 60_000;
