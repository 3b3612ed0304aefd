// kubectl api-resources and api-versions: the server's discovery, laid out as kubectl v1.32 does. Every expected
// text was checked against the real kubectl reading the same API server through an HTTP bridge.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../control-plane/cluster';
import { kubectl } from '../cli/testing';
import { commandTestCluster } from '../testing';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await commandTestCluster();
}, 60_000);

async function run(line: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const { stdout, stderr, exitCode } = await kubectl(cluster, `kubectl ${line}`);
  return { stdout, stderr, exitCode };
}

const text = (...lines: string[]): string => `${lines.join('\n')}\n`;

describe('kubectl api-resources and api-versions (checked against kubectl v1.32)', () => {
  it('kubectl api-resources', async () => {
    expect(await run('api-resources')).toEqual({
      stdout: text(
        'NAME                        SHORTNAMES   APIVERSION                     NAMESPACED   KIND',
        'bindings                                 v1                             true         Binding',
        'componentstatuses           cs           v1                             false        ComponentStatus',
        'configmaps                  cm           v1                             true         ConfigMap',
        'endpoints                   ep           v1                             true         Endpoints',
        'events                      ev           v1                             true         Event',
        'limitranges                 limits       v1                             true         LimitRange',
        'namespaces                  ns           v1                             false        Namespace',
        'nodes                       no           v1                             false        Node',
        'persistentvolumeclaims      pvc          v1                             true         PersistentVolumeClaim',
        'persistentvolumes           pv           v1                             false        PersistentVolume',
        'pods                        po           v1                             true         Pod',
        'podtemplates                             v1                             true         PodTemplate',
        'replicationcontrollers      rc           v1                             true         ReplicationController',
        'resourcequotas              quota        v1                             true         ResourceQuota',
        'secrets                                  v1                             true         Secret',
        'serviceaccounts             sa           v1                             true         ServiceAccount',
        'services                    svc          v1                             true         Service',
        'customresourcedefinitions   crd,crds     apiextensions.k8s.io/v1        false        CustomResourceDefinition',
        'controllerrevisions                      apps/v1                        true         ControllerRevision',
        'daemonsets                  ds           apps/v1                        true         DaemonSet',
        'deployments                 deploy       apps/v1                        true         Deployment',
        'replicasets                 rs           apps/v1                        true         ReplicaSet',
        'statefulsets                sts          apps/v1                        true         StatefulSet',
        'horizontalpodautoscalers    hpa          autoscaling/v2                 true         HorizontalPodAutoscaler',
        'cronjobs                    cj           batch/v1                       true         CronJob',
        'jobs                                     batch/v1                       true         Job',
        'leases                                   coordination.k8s.io/v1         true         Lease',
        'endpointslices                           discovery.k8s.io/v1            true         EndpointSlice',
        'events                      ev           events.k8s.io/v1               true         Event',
        'ingressclasses                           networking.k8s.io/v1           false        IngressClass',
        'ingresses                   ing          networking.k8s.io/v1           true         Ingress',
        'networkpolicies             netpol       networking.k8s.io/v1           true         NetworkPolicy',
        'poddisruptionbudgets        pdb          policy/v1                      true         PodDisruptionBudget',
        'clusterrolebindings                      rbac.authorization.k8s.io/v1   false        ClusterRoleBinding',
        'clusterroles                             rbac.authorization.k8s.io/v1   false        ClusterRole',
        'rolebindings                             rbac.authorization.k8s.io/v1   true         RoleBinding',
        'roles                                    rbac.authorization.k8s.io/v1   true         Role',
        'priorityclasses             pc           scheduling.k8s.io/v1           false        PriorityClass',
        'csidrivers                               storage.k8s.io/v1              false        CSIDriver',
        'csinodes                                 storage.k8s.io/v1              false        CSINode',
        'storageclasses              sc           storage.k8s.io/v1              false        StorageClass',
        'volumeattachments                        storage.k8s.io/v1              false        VolumeAttachment',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl api-resources -o wide', async () => {
    expect(await run('api-resources -o wide')).toEqual({
      stdout: text(
        'NAME                        SHORTNAMES   APIVERSION                     NAMESPACED   KIND                       VERBS                                                        CATEGORIES',
        'bindings                                 v1                             true         Binding                    create                                                       ',
        'componentstatuses           cs           v1                             false        ComponentStatus            get,list                                                     ',
        'configmaps                  cm           v1                             true         ConfigMap                  create,delete,deletecollection,get,list,patch,update,watch   ',
        'endpoints                   ep           v1                             true         Endpoints                  create,delete,deletecollection,get,list,patch,update,watch   ',
        'events                      ev           v1                             true         Event                      create,delete,deletecollection,get,list,patch,update,watch   ',
        'limitranges                 limits       v1                             true         LimitRange                 create,delete,deletecollection,get,list,patch,update,watch   ',
        'namespaces                  ns           v1                             false        Namespace                  create,delete,deletecollection,get,list,patch,update,watch   ',
        'nodes                       no           v1                             false        Node                       create,delete,deletecollection,get,list,patch,update,watch   ',
        'persistentvolumeclaims      pvc          v1                             true         PersistentVolumeClaim      create,delete,deletecollection,get,list,patch,update,watch   ',
        'persistentvolumes           pv           v1                             false        PersistentVolume           create,delete,deletecollection,get,list,patch,update,watch   ',
        'pods                        po           v1                             true         Pod                        create,delete,deletecollection,get,list,patch,update,watch   all',
        'podtemplates                             v1                             true         PodTemplate                create,delete,deletecollection,get,list,patch,update,watch   ',
        'replicationcontrollers      rc           v1                             true         ReplicationController      create,delete,deletecollection,get,list,patch,update,watch   all',
        'resourcequotas              quota        v1                             true         ResourceQuota              create,delete,deletecollection,get,list,patch,update,watch   ',
        'secrets                                  v1                             true         Secret                     create,delete,deletecollection,get,list,patch,update,watch   ',
        'serviceaccounts             sa           v1                             true         ServiceAccount             create,delete,deletecollection,get,list,patch,update,watch   ',
        'services                    svc          v1                             true         Service                    create,delete,deletecollection,get,list,patch,update,watch   all',
        'customresourcedefinitions   crd,crds     apiextensions.k8s.io/v1        false        CustomResourceDefinition   create,delete,deletecollection,get,list,patch,update,watch   api-extensions',
        'controllerrevisions                      apps/v1                        true         ControllerRevision         create,delete,deletecollection,get,list,patch,update,watch   ',
        'daemonsets                  ds           apps/v1                        true         DaemonSet                  create,delete,deletecollection,get,list,patch,update,watch   all',
        'deployments                 deploy       apps/v1                        true         Deployment                 create,delete,deletecollection,get,list,patch,update,watch   all',
        'replicasets                 rs           apps/v1                        true         ReplicaSet                 create,delete,deletecollection,get,list,patch,update,watch   all',
        'statefulsets                sts          apps/v1                        true         StatefulSet                create,delete,deletecollection,get,list,patch,update,watch   all',
        'horizontalpodautoscalers    hpa          autoscaling/v2                 true         HorizontalPodAutoscaler    create,delete,deletecollection,get,list,patch,update,watch   all',
        'cronjobs                    cj           batch/v1                       true         CronJob                    create,delete,deletecollection,get,list,patch,update,watch   all',
        'jobs                                     batch/v1                       true         Job                        create,delete,deletecollection,get,list,patch,update,watch   all',
        'leases                                   coordination.k8s.io/v1         true         Lease                      create,delete,deletecollection,get,list,patch,update,watch   ',
        'endpointslices                           discovery.k8s.io/v1            true         EndpointSlice              create,delete,deletecollection,get,list,patch,update,watch   ',
        'events                      ev           events.k8s.io/v1               true         Event                      create,delete,deletecollection,get,list,patch,update,watch   ',
        'ingressclasses                           networking.k8s.io/v1           false        IngressClass               create,delete,deletecollection,get,list,patch,update,watch   ',
        'ingresses                   ing          networking.k8s.io/v1           true         Ingress                    create,delete,deletecollection,get,list,patch,update,watch   ',
        'networkpolicies             netpol       networking.k8s.io/v1           true         NetworkPolicy              create,delete,deletecollection,get,list,patch,update,watch   ',
        'poddisruptionbudgets        pdb          policy/v1                      true         PodDisruptionBudget        create,delete,deletecollection,get,list,patch,update,watch   ',
        'clusterrolebindings                      rbac.authorization.k8s.io/v1   false        ClusterRoleBinding         create,delete,deletecollection,get,list,patch,update,watch   ',
        'clusterroles                             rbac.authorization.k8s.io/v1   false        ClusterRole                create,delete,deletecollection,get,list,patch,update,watch   ',
        'rolebindings                             rbac.authorization.k8s.io/v1   true         RoleBinding                create,delete,deletecollection,get,list,patch,update,watch   ',
        'roles                                    rbac.authorization.k8s.io/v1   true         Role                       create,delete,deletecollection,get,list,patch,update,watch   ',
        'priorityclasses             pc           scheduling.k8s.io/v1           false        PriorityClass              create,delete,deletecollection,get,list,patch,update,watch   ',
        'csidrivers                               storage.k8s.io/v1              false        CSIDriver                  create,delete,deletecollection,get,list,patch,update,watch   ',
        'csinodes                                 storage.k8s.io/v1              false        CSINode                    create,delete,deletecollection,get,list,patch,update,watch   ',
        'storageclasses              sc           storage.k8s.io/v1              false        StorageClass               create,delete,deletecollection,get,list,patch,update,watch   ',
        'volumeattachments                        storage.k8s.io/v1              false        VolumeAttachment           create,delete,deletecollection,get,list,patch,update,watch   ',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl api-resources -o name --api-group=apps', async () => {
    expect(await run('api-resources -o name --api-group=apps')).toEqual({
      stdout: text(
        'controllerrevisions.apps',
        'daemonsets.apps',
        'deployments.apps',
        'replicasets.apps',
        'statefulsets.apps',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl api-resources --namespaced=false --no-headers', async () => {
    expect(await run('api-resources --namespaced=false --no-headers')).toEqual({
      stdout: text(
        'componentstatuses           cs         v1                             false   ComponentStatus',
        'namespaces                  ns         v1                             false   Namespace',
        'nodes                       no         v1                             false   Node',
        'persistentvolumes           pv         v1                             false   PersistentVolume',
        'customresourcedefinitions   crd,crds   apiextensions.k8s.io/v1        false   CustomResourceDefinition',
        'ingressclasses                         networking.k8s.io/v1           false   IngressClass',
        'clusterrolebindings                    rbac.authorization.k8s.io/v1   false   ClusterRoleBinding',
        'clusterroles                           rbac.authorization.k8s.io/v1   false   ClusterRole',
        'priorityclasses             pc         scheduling.k8s.io/v1           false   PriorityClass',
        'csidrivers                             storage.k8s.io/v1              false   CSIDriver',
        'csinodes                               storage.k8s.io/v1              false   CSINode',
        'storageclasses              sc         storage.k8s.io/v1              false   StorageClass',
        'volumeattachments                      storage.k8s.io/v1              false   VolumeAttachment',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl api-resources --sort-by=kind --api-group=rbac.authorization.k8s.io', async () => {
    expect(await run('api-resources --sort-by=kind --api-group=rbac.authorization.k8s.io')).toEqual({
      stdout: text(
        'NAME                  SHORTNAMES   APIVERSION                     NAMESPACED   KIND',
        'clusterroles                       rbac.authorization.k8s.io/v1   false        ClusterRole',
        'clusterrolebindings                rbac.authorization.k8s.io/v1   false        ClusterRoleBinding',
        'roles                              rbac.authorization.k8s.io/v1   true         Role',
        'rolebindings                       rbac.authorization.k8s.io/v1   true         RoleBinding',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl api-resources --verbs=get --categories=all', async () => {
    expect(await run('api-resources --verbs=get --categories=all')).toEqual({
      stdout: text(
        'NAME                       SHORTNAMES   APIVERSION       NAMESPACED   KIND',
        'pods                       po           v1               true         Pod',
        'replicationcontrollers     rc           v1               true         ReplicationController',
        'services                   svc          v1               true         Service',
        'daemonsets                 ds           apps/v1          true         DaemonSet',
        'deployments                deploy       apps/v1          true         Deployment',
        'replicasets                rs           apps/v1          true         ReplicaSet',
        'statefulsets               sts          apps/v1          true         StatefulSet',
        'horizontalpodautoscalers   hpa          autoscaling/v2   true         HorizontalPodAutoscaler',
        'cronjobs                   cj           batch/v1         true         CronJob',
        'jobs                                    batch/v1         true         Job',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

  it('kubectl api-resources -o json', async () => {
    expect(await run('api-resources -o json')).toEqual({
      stdout: '',
      stderr: text('error: --output json is not available'),
      exitCode: 1,
    });
  });

  it('kubectl api-resources foo', async () => {
    expect(await run('api-resources foo')).toEqual({
      stdout: '',
      stderr: text(
        'error: unexpected arguments: [foo]',
        'See \'kubectl api-resources -h\' for help and examples',
      ),
      exitCode: 1,
    });
  });

  it('kubectl api-versions', async () => {
    expect(await run('api-versions')).toEqual({
      stdout: text(
        'apiextensions.k8s.io/v1',
        'apps/v1',
        'autoscaling/v1',
        'autoscaling/v2',
        'batch/v1',
        'coordination.k8s.io/v1',
        'discovery.k8s.io/v1',
        'events.k8s.io/v1',
        'networking.k8s.io/v1',
        'policy/v1',
        'rbac.authorization.k8s.io/v1',
        'scheduling.k8s.io/v1',
        'storage.k8s.io/v1',
        'v1',
      ),
      stderr: '',
      exitCode: 0,
    });
  });

});

describe('kubectl api-resources with a CustomResourceDefinition', () => {
  it('lists the custom resource under its group as soon as the CRD is established', async () => {
    const c = await commandTestCluster();
    c.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }).create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'crontabs.stable.example.com' },
      spec: {
        group: 'stable.example.com',
        scope: 'Namespaced',
        names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    } as never);
    c.runUntilIdle({ maxTimeMs: 5_000 });
    const { stdout } = await kubectl(c, 'kubectl api-resources --api-group=stable.example.com');
    expect(stdout).toBe(
      text('NAME       SHORTNAMES   APIVERSION              NAMESPACED   KIND', 'crontabs   ct           stable.example.com/v1   true         CronTab'),
    );
    expect((await kubectl(c, 'kubectl api-versions')).stdout.split('\n')).toContain('stable.example.com/v1');
  });
});
