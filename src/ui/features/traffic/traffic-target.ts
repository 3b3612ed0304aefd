// What "Send traffic" prefills for the object it was opened from: the URL a learner would curl (a Service's
// cluster DNS name and first port, an Ingress's address and first path with its host, a Pod's IP and first port).
import type { KubeObject } from '../../../shared/api/types';

/** Kinds the inspector offers "Send traffic" for. */
export const trafficKinds: ReadonlySet<string> = new Set(['Service', 'Ingress', 'Pod']);

export interface TrafficTarget {
  kind: string;
  namespace?: string;
  name: string;
}

export interface TrafficDefaults {
  url: string;
  /** Host header for a name-based Ingress rule. */
  host: string;
}

interface ServiceSpecLike {
  type?: string;
  externalName?: string;
  ports?: { port?: number }[];
}

interface IngressLike {
  spec?: { rules?: { host?: string; http?: { paths?: { path?: string }[] } }[] };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

interface PodLike {
  spec?: { containers?: { ports?: { containerPort?: number }[] }[] };
  status?: { podIP?: string };
}

/** http://host[:port]/ with the port left out where it is HTTP's own. */
function httpUrl(host: string, port: number | undefined, path = '/'): string {
  return `http://${host}${port && port !== 80 ? `:${port}` : ''}${path.startsWith('/') ? path : `/${path}`}`;
}

export function trafficDefaults(obj: KubeObject): TrafficDefaults {
  const ns = obj.metadata.namespace ?? 'default';
  const name = obj.metadata.name ?? '';
  if (obj.kind === 'Service') {
    const spec = (obj.spec ?? {}) as ServiceSpecLike;
    const port = spec.ports?.[0]?.port;
    return { url: `http://${name}.${ns}.svc.cluster.local${port ? `:${port}` : ''}/`, host: '' };
  }
  if (obj.kind === 'Ingress') {
    const ing = obj as unknown as IngressLike;
    const lb = ing.status?.loadBalancer?.ingress?.[0];
    const rule = ing.spec?.rules?.find((r) => r.http?.paths?.length) ?? ing.spec?.rules?.[0];
    const address = lb?.ip ?? lb?.hostname ?? rule?.host ?? name;
    return { url: httpUrl(address, undefined, rule?.http?.paths?.[0]?.path ?? '/'), host: rule?.host ?? '' };
  }
  if (obj.kind === 'Pod') {
    const pod = obj as unknown as PodLike;
    const port = pod.spec?.containers?.flatMap((c) => c.ports ?? [])[0]?.containerPort;
    return { url: httpUrl(pod.status?.podIP ?? name, port ?? 80), host: '' };
  }
  return { url: 'http://', host: '' };
}
