// The kind "icon" of a graph node: kubectl's short name for the resource (deploy, rs, po, …) on the kind's colour,
// the same vocabulary a person types.
const shortNames: Readonly<Record<string, string>> = {
  Deployment: 'deploy',
  ReplicaSet: 'rs',
  ReplicationController: 'rc',
  StatefulSet: 'sts',
  DaemonSet: 'ds',
  Job: 'job',
  CronJob: 'cj',
  Service: 'svc',
  Pod: 'po',
  Node: 'no',
  ConfigMap: 'cm',
  Secret: 'secret',
  PersistentVolumeClaim: 'pvc',
  PersistentVolume: 'pv',
};

export function kindShortName(kind: string): string {
  return shortNames[kind] ?? kind.toLowerCase();
}
