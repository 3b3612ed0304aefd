// The object pauser, resumer and restarter of k8s.io/kubectl v0.32.4 pkg/polymorphichelpers (objectpauser.go,
// objectresumer.go, objectrestarter.go): each mutates the object it is given, or refuses with the text kubectl
// prints after `<resource> "<name>" `.
import type { KubeObject } from '../../shared/api/types';
import { rfc3339 } from '../../control-plane/sim/clock';

export const restartedAtAnnotation = 'kubectl.kubernetes.io/restartedAt';

type WithSpec = KubeObject & { spec?: { paused?: boolean; template?: { metadata?: { annotations?: Record<string, string> } } } };

function groupOf(obj: KubeObject): string {
  return obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '';
}

function isDeployment(obj: KubeObject): boolean {
  return obj.kind === 'Deployment' && (groupOf(obj) === 'apps' || groupOf(obj) === 'extensions');
}

/** defaultObjectPauser: only Deployments pause. */
export function pauseObject(obj: KubeObject): void {
  if (!isDeployment(obj)) throw new Error('pausing is not supported');
  const d = obj as WithSpec;
  if (d.spec?.paused) throw new Error('is already paused');
  (d.spec ??= {}).paused = true;
}

/** defaultObjectResumer. `paused: false` is omitted when kubectl encodes the object, so the patch removes it. */
export function resumeObject(obj: KubeObject): void {
  if (!isDeployment(obj)) throw new Error('resuming is not supported');
  const d = obj as WithSpec;
  if (!d.spec?.paused) throw new Error('is not paused');
  delete d.spec.paused;
}

/** defaultObjectRestarter: stamps the pod template with the time, which rolls the pods. */
export function restartObject(obj: KubeObject, nowMs: number): void {
  const o = obj as WithSpec;
  if (isDeployment(obj)) {
    if (o.spec?.paused) throw new Error("can't restart paused deployment (run rollout resume first)");
  } else if (!((obj.kind === 'DaemonSet' && (groupOf(obj) === 'apps' || groupOf(obj) === 'extensions')) || (obj.kind === 'StatefulSet' && groupOf(obj) === 'apps'))) {
    throw new Error('restarting is not supported');
  }
  const template = ((o.spec ??= {}).template ??= {});
  const metadata = (template.metadata ??= {});
  metadata.annotations = { ...(metadata.annotations ?? {}), [restartedAtAnnotation]: rfc3339(nowMs) };
}
