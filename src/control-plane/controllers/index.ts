// The controllers kube-controller-manager runs by default, in its order. Each entry constructs one controller
// over the manager's shared informers; the ControllerManager starts and crash-restarts them as a group.
import type { ControllerDescriptor, RunningController } from './controller-context';
import { ServiceAccountsController, ServiceAccountControllerName } from './serviceaccount/serviceaccounts-controller';
import type { BaseController } from './shared/controller';
import { NodeLifecycleController, NodeLifecycleControllerName } from './nodelifecycle/node-lifecycle-controller';
import { TaintEvictionController, TaintEvictionControllerName } from './nodelifecycle/tainteviction/taint-eviction-controller';
import { PodGCController, PodGCControllerName } from './podgc/gc-controller';
import { GarbageCollector, GarbageCollectorControllerName } from './garbagecollector/garbage-collector';
import { NamespaceController, NamespaceControllerName } from './namespace/namespace-controller';
import { ReplicaSetController } from './replicaset/replica-set-controller';
import { DeploymentController } from './deployment/deployment-controller';
import { JobController, JobControllerComponent } from './job/job-controller';
import { TTLAfterFinishedController, TTLAfterFinishedControllerName } from './ttlafterfinished/ttl-after-finished-controller';
import { CronJobController, CronJobControllerName } from './cronjob/cronjob-controller';
import { DaemonSetControllerName, DaemonSetsController } from './daemon/daemonset-controller';
import { StatefulSetController, StatefulSetControllerName } from './statefulset/stateful-set-controller';
import { EndpointSliceController, EndpointSliceControllerName } from './endpointslice/endpointslice-controller';
import { EndpointsController, EndpointsControllerName } from './endpoint/endpoints-controller';
import { PersistentVolumeBinderControllerName, PersistentVolumeController } from './volume/pv-controller';
import { SimulatedProvisioner, SimulatedProvisionerControllerName } from './volume/simulated-provisioner';
import { AttachDetachController } from './volume/attachdetach/attach-detach-controller';
import { AttachDetachControllerName } from './volume/attachdetach/attach-util';
import { ExternalAttacher, ExternalAttacherControllerName } from './volume/attachdetach/external-attacher';
import { ResourceQuotaController, ResourceQuotaControllerName } from './resourcequota/resource-quota-controller';
import { HorizontalController, HorizontalPodAutoscalerControllerName } from './podautoscaler/horizontal';
import { ServiceController, ServiceControllerName } from './service/service-controller';
import { IngressNginx, IngressNginxControllerName } from './ingress/ingress-controller';
import { DisruptionController, DisruptionControllerName } from './disruption/disruption-controller';
import { Publisher, RootCACertificatePublisherControllerName } from './certificates/rootcacertpublisher/publisher';

/** Adapts the common controller shape (a BaseController plus shutDown) to a RunningController. */
function single(name: string, c: { controller: BaseController; shutDown(): void }): RunningController {
  c.controller.run();
  return { name, queues: () => [c.controller.queue.snapshot()], shutDown: () => c.shutDown() };
}

export const defaultControllers: readonly ControllerDescriptor[] = [
  {
    name: 'deployment-controller',
    start: (ctx) => single('deployment-controller', new DeploymentController(ctx)),
  },
  {
    name: 'replicaset-controller',
    start: (ctx) => single('replicaset-controller', new ReplicaSetController(ctx)),
  },
  {
    name: DaemonSetControllerName,
    start: (ctx) => single(DaemonSetControllerName, new DaemonSetsController(ctx)),
  },
  {
    name: JobControllerComponent,
    start: (ctx) => {
      const c = new JobController(ctx);
      c.run();
      return c;
    },
  },
  {
    name: StatefulSetControllerName,
    start: (ctx) => single(StatefulSetControllerName, new StatefulSetController(ctx)),
  },
  {
    name: CronJobControllerName,
    start: (ctx) => single(CronJobControllerName, new CronJobController(ctx)),
  },
  {
    name: TTLAfterFinishedControllerName,
    start: (ctx) => single(TTLAfterFinishedControllerName, new TTLAfterFinishedController(ctx)),
  },
  {
    name: EndpointsControllerName,
    start: (ctx) => single(EndpointsControllerName, new EndpointsController(ctx)),
  },
  {
    name: EndpointSliceControllerName,
    start: (ctx) => single(EndpointSliceControllerName, new EndpointSliceController(ctx)),
  },
  {
    name: 'replication-controller',
    start: (ctx) => single('replication-controller', new ReplicaSetController({ ...ctx, kind: 'ReplicationController' })),
  },
  {
    name: DisruptionControllerName,
    start: (ctx) => single(DisruptionControllerName, new DisruptionController(ctx)),
  },
  {
    name: HorizontalPodAutoscalerControllerName,
    start: (ctx) =>
      single(
        HorizontalPodAutoscalerControllerName,
        new HorizontalController({
          ...ctx,
          metrics: ctx.config.resourceMetrics,
          syncPeriodMs: ctx.config.horizontalPodAutoscalerSyncPeriodMs,
          downscaleStabilizationMs: ctx.config.horizontalPodAutoscalerDownscaleStabilizationMs,
        }),
      ),
  },
  {
    name: ResourceQuotaControllerName,
    start: (ctx) => {
      const c = new ResourceQuotaController(ctx);
      c.run();
      return c;
    },
  },
  {
    name: NamespaceControllerName,
    start: (ctx) => {
      const c = new NamespaceController(ctx);
      c.run();
      return c;
    },
  },
  {
    name: GarbageCollectorControllerName,
    start: (ctx) => {
      const gc = new GarbageCollector(ctx);
      gc.run();
      return gc;
    },
  },
  {
    name: ServiceAccountControllerName,
    start: (ctx) => single(ServiceAccountControllerName, new ServiceAccountsController(ctx)),
  },
  {
    name: RootCACertificatePublisherControllerName,
    start: (ctx) => single(RootCACertificatePublisherControllerName, new Publisher(ctx)),
  },
  {
    name: NodeLifecycleControllerName,
    start: (ctx) =>
      single(
        NodeLifecycleControllerName,
        new NodeLifecycleController({ ...ctx, nodeMonitorGracePeriodMs: ctx.config.nodeMonitorGracePeriodMs }),
      ),
  },
  {
    name: TaintEvictionControllerName,
    start: (ctx) => single(TaintEvictionControllerName, new TaintEvictionController(ctx)),
  },
  {
    name: PersistentVolumeBinderControllerName,
    start: (ctx) => single(PersistentVolumeBinderControllerName, new PersistentVolumeController(ctx)),
  },
  {
    // Not part of kube-controller-manager: the simulated external provisioner of the default StorageClass.
    name: SimulatedProvisionerControllerName,
    start: (ctx) => single(SimulatedProvisionerControllerName, new SimulatedProvisioner(ctx)),
  },
  {
    name: AttachDetachControllerName,
    start: (ctx) => single(AttachDetachControllerName, new AttachDetachController(ctx)),
  },
  {
    // Not part of kube-controller-manager: the simulated CSI driver's external-attacher sidecar.
    name: ExternalAttacherControllerName,
    start: (ctx) => single(ExternalAttacherControllerName, new ExternalAttacher(ctx)),
  },
  {
    // cloud-controller-manager's service controller over the simulated cloud's load balancer pool.
    name: ServiceControllerName,
    start: (ctx) => single(ServiceControllerName, new ServiceController(ctx)),
  },
  {
    // Not part of kube-controller-manager: the simulated ingress-nginx of minikube's ingress addon.
    name: IngressNginxControllerName,
    start: (ctx) => single(IngressNginxControllerName, new IngressNginx(ctx)),
  },
  {
    name: PodGCControllerName,
    start: (ctx) =>
      single(PodGCControllerName, new PodGCController({ ...ctx, terminatedPodThreshold: ctx.config.terminatedPodGCThreshold })),
  },
];
