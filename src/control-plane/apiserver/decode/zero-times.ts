// Time fields the Go types hold by value (metav1.Time, metav1.MicroTime, not *metav1.Time), in Kubernetes v1.32
// (k8s.io/api and apimachinery types.go). Decoding into such a struct gives the zero time when the JSON has no
// value, and encoding/json writes a struct even under omitempty: Time.MarshalJSON writes a zero time as null.
// So every object the API server returns carries these fields, as null when unset: a pod condition's
// `lastProbeTime: null`, a template's `creationTimestamp: null`, an Event's `eventTime: null`. Pointer fields
// (deletionTimestamp, status.startTime, a job's completionTime…) are left out when unset.
export const zeroTimeFields: Readonly<Record<string, readonly string[]>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': ['creationTimestamp'],
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition': ['lastTransitionTime'],
  'io.k8s.api.core.v1.PodCondition': ['lastProbeTime', 'lastTransitionTime'],
  'io.k8s.api.core.v1.PersistentVolumeClaimCondition': ['lastProbeTime', 'lastTransitionTime'],
  'io.k8s.api.core.v1.NodeCondition': ['lastHeartbeatTime', 'lastTransitionTime'],
  'io.k8s.api.core.v1.NamespaceCondition': ['lastTransitionTime'],
  'io.k8s.api.core.v1.ReplicationControllerCondition': ['lastTransitionTime'],
  'io.k8s.api.core.v1.ContainerStateRunning': ['startedAt'],
  'io.k8s.api.core.v1.ContainerStateTerminated': ['startedAt', 'finishedAt'],
  'io.k8s.api.core.v1.Event': ['firstTimestamp', 'lastTimestamp', 'eventTime'],
  'io.k8s.api.core.v1.EventSeries': ['lastObservedTime'],
  'io.k8s.api.apps.v1.DeploymentCondition': ['lastUpdateTime', 'lastTransitionTime'],
  'io.k8s.api.apps.v1.ReplicaSetCondition': ['lastTransitionTime'],
  'io.k8s.api.apps.v1.StatefulSetCondition': ['lastTransitionTime'],
  'io.k8s.api.apps.v1.DaemonSetCondition': ['lastTransitionTime'],
  'io.k8s.api.batch.v1.JobCondition': ['lastProbeTime', 'lastTransitionTime'],
  'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerCondition': ['lastTransitionTime'],
  'io.k8s.api.certificates.v1.CertificateSigningRequestCondition': ['lastUpdateTime', 'lastTransitionTime'],
  'io.k8s.api.events.v1.Event': ['eventTime', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp'],
  'io.k8s.api.events.v1.EventSeries': ['lastObservedTime'],
  'io.k8s.api.storage.v1.VolumeError': ['time'],
  'io.k8s.api.flowcontrol.v1.FlowSchemaCondition': ['lastTransitionTime'],
  'io.k8s.api.flowcontrol.v1.PriorityLevelConfigurationCondition': ['lastTransitionTime'],
  'io.k8s.api.authentication.v1.TokenRequestStatus': ['expirationTimestamp'],
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionCondition': ['lastTransitionTime'],
};
