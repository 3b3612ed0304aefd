// describe.go's Service, Namespace (with its quotas and limit ranges), ConfigMap, Secret, ServiceAccount,
// Endpoints, LimitRange and ResourceQuota describers.
import type { ConfigMap, Endpoints, LimitRange, LimitRangeItem, Namespace, ResourceQuota, Secret, Service, ServiceAccount } from 'kubernetes-types/core/v1';
import type { EndpointSlice } from 'kubernetes-types/discovery/v1';
import { isStatusError, StatusReason } from '../../shared/api/status';
import type { KubeObject } from '../../shared/api/types';
import type { Describer, DescriberSettings } from './context';
import { newQuantity, quantityToString, toValue, tryParseQuantity } from '../../shared/lib/quantity';
import { quantityString } from './containers';
import { describeEvents, searchEvents } from './events';
import { safeEvents } from './pod';
import {
  byteOrder,
  formatLabels,
  LEVEL_0,
  LEVEL_1,
  LEVEL_2,
  printAnnotationsMultiline,
  printLabelsMultiline,
  rfc1123z,
  tabbedString,
  type PrefixWriter,
} from './writer';

function eventsFor(s: DescriberSettings, obj: KubeObject) {
  if (!s.showEvents) return undefined;
  return safeEvents(() => searchEvents(s.client, { name: obj.metadata.name!, namespace: obj.metadata.namespace, kind: obj.kind, uid: obj.metadata.uid }));
}

// ------------------------------------------------------------------ Service

export const describeService: Describer = (s, namespace, name) => {
  const svc = s.client.services.get(name, { namespace }) as Service & KubeObject;
  let slices: EndpointSlice[] = [];
  try {
    slices = s.client.endpointSlices.list({ namespace, labelSelector: `kubernetes.io/service-name=${name}` }).items as EndpointSlice[];
  } catch {
    slices = [];
  }
  const events = eventsFor(s, svc);
  return tabbedString((w) => {
    const spec = svc.spec ?? {};
    w.write(LEVEL_0, `Name:\t${svc.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${svc.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', svc.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
    w.write(LEVEL_0, `Selector:\t${formatLabels(spec.selector)}\n`);
    w.write(LEVEL_0, `Type:\t${spec.type ?? ''}\n`);
    if (spec.ipFamilyPolicy) w.write(LEVEL_0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
    w.write(LEVEL_0, `IP Families:\t${spec.ipFamilies?.length ? spec.ipFamilies.join(',') : '<none>'}\n`);
    w.write(LEVEL_0, `IP:\t${spec.clusterIP ?? ''}\n`);
    w.write(LEVEL_0, `IPs:\t${spec.clusterIPs?.length ? spec.clusterIPs.join(',') : '<none>'}\n`);
    if (spec.externalIPs?.length) w.write(LEVEL_0, `External IPs:\t${spec.externalIPs.join(',')}\n`);
    if (spec.loadBalancerIP) w.write(LEVEL_0, `Desired LoadBalancer IP:\t${spec.loadBalancerIP}\n`);
    if (spec.externalName) w.write(LEVEL_0, `External Name:\t${spec.externalName}\n`);
    const ingress = svc.status?.loadBalancer?.ingress ?? [];
    if (ingress.length) {
      const list = ingress.map((i) => (i.ip ? `${i.ip}${i.ipMode ? ` (${i.ipMode})` : ''}` : (i.hostname ?? ''))).join(', ');
      w.write(LEVEL_0, `LoadBalancer Ingress:\t${list}\n`);
    }
    for (const p of spec.ports ?? []) {
      const portName = p.name || '<unset>';
      const proto = p.protocol ?? '';
      w.write(LEVEL_0, `Port:\t${portName}\t${p.port}/${proto}\n`);
      w.write(LEVEL_0, `TargetPort:\t${p.targetPort ?? ''}/${proto}\n`);
      if (p.nodePort) w.write(LEVEL_0, `NodePort:\t${portName}\t${p.nodePort}/${proto}\n`);
      w.write(LEVEL_0, `Endpoints:\t${formatEndpointSlices(slices, p.name ?? '')}\n`);
    }
    w.write(LEVEL_0, `Session Affinity:\t${spec.sessionAffinity ?? ''}\n`);
    if (spec.externalTrafficPolicy) w.write(LEVEL_0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
    if (spec.internalTrafficPolicy) w.write(LEVEL_0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
    if (spec.healthCheckNodePort) w.write(LEVEL_0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
    if (spec.loadBalancerSourceRanges?.length) w.write(LEVEL_0, `LoadBalancer Source Ranges:\t${spec.loadBalancerSourceRanges.join(',')}\n`);
    if (events) describeEvents(events, w, s.now);
  });
};

/** formatEndpointSlices for one service port: up to 3 ready "ip:port" then " + N more...". */
export function formatEndpointSlices(slices: EndpointSlice[], portName: string | undefined): string {
  if (slices.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let count = 0;
  const ready = (e: EndpointSlice['endpoints'][number]) => e.conditions?.ready === undefined || e.conditions.ready === null || e.conditions.ready;
  for (const slice of slices) {
    if (!slice.ports?.length) {
      for (const e of slice.endpoints ?? []) {
        if (list.length === max) more = true;
        if (!ready(e)) continue;
        if (!more) list.push(e.addresses[0]);
        count++;
      }
      continue;
    }
    for (const port of slice.ports) {
      if (portName !== undefined && (port.name ?? '') !== portName) continue;
      for (const e of slice.endpoints ?? []) {
        if (list.length === max) more = true;
        if (!ready(e)) continue;
        const addr = e.addresses[0];
        if (!more) list.push(`${addr.includes(':') ? `[${addr}]` : addr}:${port.port}`);
        count++;
      }
    }
  }
  const joined = list.join(',');
  return more ? `${joined} + ${count - max} more...` : joined;
}

// ------------------------------------------------------------------ Namespace, quotas, limit ranges

export const describeNamespace: Describer = (s, _namespace, name) => {
  const ns = s.client.namespaces.get(name) as Namespace & KubeObject;
  const listOrNull = <T,>(fn: () => T[]): T[] | null => {
    try {
      return fn();
    } catch (err) {
      if (isStatusError(err, StatusReason.NotFound)) return null;
      throw err;
    }
  };
  const quotas = listOrNull(() => s.client.resourceQuotas.list({ namespace: name }).items as ResourceQuota[]);
  const limitRanges = listOrNull(() => s.client.limitRanges.list({ namespace: name }).items as LimitRange[]);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ns.metadata.name}\n`);
    printLabelsMultiline(w, 'Labels', ns.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ns.metadata.annotations);
    w.write(LEVEL_0, `Status:\t${ns.status?.phase ?? ''}\n`);
    if (ns.status?.conditions?.length) {
      w.write(LEVEL_0, 'Conditions:\n');
      w.write(LEVEL_1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
      w.write(LEVEL_1, '----\t------\t------------------\t------\t-------\n');
      for (const c of ns.status.conditions) w.write(LEVEL_1, `${c.type}\t${c.status}\t${rfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
    }
    if (quotas) {
      w.write(LEVEL_0, '\n');
      describeResourceQuotas(quotas, w);
    }
    if (limitRanges) {
      w.write(LEVEL_0, '\n');
      describeLimitRanges(limitRanges, w);
    }
  });
};

const scopeHelp: Record<string, string> = {
  Terminating: 'Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.',
  NotTerminating: 'Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.',
  BestEffort: 'Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.',
  NotBestEffort: 'Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.',
};

function describeResourceQuotas(quotas: ResourceQuota[], w: PrefixWriter): void {
  if (quotas.length === 0) {
    w.write(LEVEL_0, 'No resource quota.\n');
    return;
  }
  w.write(LEVEL_0, 'Resource Quotas\n');
  for (const q of [...quotas].sort((a, b) => byteOrder(a.metadata?.name ?? '', b.metadata?.name ?? ''))) {
    w.write(LEVEL_1, `Name:\t${q.metadata?.name}\n`);
    const scopes = [...(q.spec?.scopes ?? [])].sort(byteOrder);
    if (scopes.length) {
      w.write(LEVEL_1, `Scopes:\t${scopes.join(', ')}\n`);
      for (const scope of scopes) if (scopeHelp[scope]) w.write(LEVEL_1, `* ${scopeHelp[scope]}\n`);
    }
    w.write(LEVEL_1, 'Resource\tUsed\tHard\n');
    w.write(LEVEL_1, '--------\t---\t---\n');
    const hard = q.status?.hard ?? {};
    for (const r of Object.keys(hard).sort(byteOrder)) w.write(LEVEL_1, `${r}\t${quantityString(q.status?.used?.[r] ?? '0')}\t${quantityString(hard[r])}\n`);
  }
}

function describeLimitRangeSpec(items: LimitRangeItem[], prefix: string, w: PrefixWriter): void {
  for (const item of items) {
    const names = new Set<string>();
    for (const m of [item.max, item.min, item.default, item.defaultRequest, item.maxLimitRequestRatio]) for (const k of Object.keys(m ?? {})) names.add(k);
    const cell = (m: Record<string, unknown> | undefined, k: string) => (m && k in m ? quantityString(m[k]) : '-');
    for (const k of [...names].sort(byteOrder)) {
      w.write(LEVEL_0, `${prefix}${item.type}\t${k}\t${cell(item.min, k)}\t${cell(item.max, k)}\t${cell(item.defaultRequest, k)}\t${cell(item.default, k)}\t${cell(item.maxLimitRequestRatio, k)}\n`);
    }
  }
}

function describeLimitRanges(ranges: LimitRange[], w: PrefixWriter): void {
  if (ranges.length === 0) {
    w.write(LEVEL_0, 'No LimitRange resource.\n');
    return;
  }
  w.write(LEVEL_0, 'Resource Limits\n Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
  w.write(LEVEL_0, ' ----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
  for (const lr of ranges) describeLimitRangeSpec(lr.spec?.limits ?? [], ' ', w);
}

export const describeLimitRange: Describer = (s, namespace, name) => {
  const lr = s.client.limitRanges.get(name, { namespace }) as LimitRange & KubeObject;
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${lr.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${lr.metadata.namespace ?? ''}\n`);
    w.write(LEVEL_0, 'Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
    w.write(LEVEL_0, '----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
    describeLimitRangeSpec(lr.spec?.limits ?? [], '', w);
  });
};

export const describeResourceQuota: Describer = (s, namespace, name) => {
  const q = s.client.resourceQuotas.get(name, { namespace }) as ResourceQuota & KubeObject;
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${q.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${q.metadata.namespace ?? ''}\n`);
    const scopes = [...(q.spec?.scopes ?? [])].sort(byteOrder);
    if (scopes.length) {
      w.write(LEVEL_0, `Scopes:\t${scopes.join(', ')}\n`);
      for (const scope of scopes) if (scopeHelp[scope]) w.write(LEVEL_0, ` * ${scopeHelp[scope]}\n`);
    }
    w.write(LEVEL_0, 'Resource\tUsed\tHard\n');
    w.write(LEVEL_0, '--------\t----\t----\n');
    const hard = q.status?.hard ?? {};
    for (const r of Object.keys(hard).sort(byteOrder)) w.write(LEVEL_0, `${r}\t${usedInHardFormat(q.status?.used?.[r], hard[r])}\t${quantityString(hard[r])}\n`);
  });
};

/**
 * describeQuota prints Used in Hard's format: when they differ (a missing Used has none), Used becomes
 * resource.NewQuantity(used.Value(), hard.Format) — so 128Mi used against a 2G limit prints as 134217728.
 */
function usedInHardFormat(used: unknown, hard: unknown): string {
  const h = tryParseQuantity(String(hard)).quantity;
  if (!h) return quantityString(used ?? '0');
  const u = used === undefined || used === null ? undefined : tryParseQuantity(String(used)).quantity;
  if (u && u.format === h.format) return quantityToString(u);
  return quantityToString(newQuantity(u ? toValue(u) : 0, h.format));
}

// ------------------------------------------------------------------ ConfigMap, Secret, ServiceAccount, Endpoints

export const describeConfigMap: Describer = (s, namespace, name) => {
  const cm = s.client.configMaps.get(name, { namespace }) as ConfigMap & KubeObject;
  const events = eventsFor(s, cm);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${cm.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${cm.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', cm.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', cm.metadata.annotations);
    w.write(LEVEL_0, '\nData\n====\n');
    // Go ranges over the map in random order; kubeplay sorts the keys so the output is stable.
    for (const k of Object.keys(cm.data ?? {}).sort(byteOrder)) {
      w.write(LEVEL_0, `${k}:\n----\n`);
      w.write(LEVEL_0, `${cm.data![k]}\n`);
      w.write(LEVEL_0, '\n');
    }
    w.write(LEVEL_0, '\nBinaryData\n====\n');
    for (const k of Object.keys(cm.binaryData ?? {}).sort(byteOrder)) w.write(LEVEL_0, `${k}: ${base64Length(cm.binaryData![k])} bytes\n`);
    w.write(LEVEL_0, '\n');
    if (events) describeEvents(events, w, s.now);
  });
};

function base64Length(b64: string): number {
  const clean = b64.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

function decodeBase64(b64: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return b64;
  }
}

export const describeSecret: Describer = (s, namespace, name) => {
  const secret = s.client.secrets.get(name, { namespace }) as Secret & KubeObject;
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${secret.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${secret.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', secret.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', secret.metadata.annotations);
    w.write(LEVEL_0, `\nType:\t${secret.type ?? ''}\n`);
    w.write(LEVEL_0, '\nData\n====\n');
    for (const k of Object.keys(secret.data ?? {}).sort(byteOrder)) {
      const v = secret.data![k];
      if (k === 'token' && secret.type === 'kubernetes.io/service-account-token') w.write(LEVEL_0, `${k}:\t${decodeBase64(v)}\n`);
      else w.write(LEVEL_0, `${k}:\t${base64Length(v)} bytes\n`);
    }
  });
};

export const describeServiceAccount: Describer = (s, namespace, name) => {
  const sa = s.client.serviceAccounts.get(name, { namespace }) as ServiceAccount & KubeObject;
  const tokens: string[] = [];
  const missing = new Set<string>();
  try {
    const secrets = s.client.secrets.list({ namespace }).items as Secret[];
    const existing = new Set<string>();
    for (const sec of secrets) {
      if (sec.type === 'kubernetes.io/service-account-token') {
        const a = sec.metadata?.annotations ?? {};
        if (a['kubernetes.io/service-account.name'] === sa.metadata.name && a['kubernetes.io/service-account.uid'] === sa.metadata.uid) tokens.push(sec.metadata!.name!);
      }
      existing.add(sec.metadata?.name ?? '');
    }
    for (const ref of [...(sa.secrets ?? []), ...(sa.imagePullSecrets ?? [])]) if (ref.name && !existing.has(ref.name)) missing.add(ref.name);
  } catch {
    // Errors are tolerated: the account is described with the secrets it names.
  }
  const events = eventsFor(s, sa);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${sa.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${sa.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', sa.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', sa.metadata.annotations);
    const empty = '                   ';
    // Sorted by header text, as sets.StringKeySet(...).List() does.
    const sections: [string, string[]][] = [
      ['Image pull secrets:', (sa.imagePullSecrets ?? []).map((r) => r.name ?? '')],
      ['Mountable secrets: ', (sa.secrets ?? []).map((r) => r.name ?? '')],
      ['Tokens:            ', tokens],
    ];
    for (const [header, names] of sections.sort((a, b) => byteOrder(a[0], b[0]))) {
      if (names.length === 0) {
        w.write(LEVEL_0, `${header}\t<none>\n`);
        continue;
      }
      let prefix = header;
      for (const n of names) {
        w.write(LEVEL_0, `${prefix}\t${n}${missing.has(n) ? ' (not found)' : ''}\n`);
        prefix = empty;
      }
    }
    if (events) describeEvents(events, w, s.now);
  });
};

export const describeEndpoints: Describer = (s, namespace, name) => {
  const ep = s.client.resource({ group: '', version: 'v1', resource: 'endpoints' }).get(name, { namespace }) as Endpoints & KubeObject;
  const events = eventsFor(s, ep);
  return tabbedString((w) => {
    w.write(LEVEL_0, `Name:\t${ep.metadata.name}\n`);
    w.write(LEVEL_0, `Namespace:\t${ep.metadata.namespace ?? ''}\n`);
    printLabelsMultiline(w, 'Labels', ep.metadata.labels);
    printAnnotationsMultiline(w, 'Annotations', ep.metadata.annotations);
    w.write(LEVEL_0, 'Subsets:\n');
    for (const subset of ep.subsets ?? []) {
      w.write(LEVEL_1, `Addresses:\t${(subset.addresses ?? []).map((a) => a.ip).join(',') || '<none>'}\n`);
      w.write(LEVEL_1, `NotReadyAddresses:\t${(subset.notReadyAddresses ?? []).map((a) => a.ip).join(',') || '<none>'}\n`);
      if (subset.ports?.length) {
        w.write(LEVEL_1, 'Ports:\n');
        w.write(LEVEL_2, 'Name\tPort\tProtocol\n');
        w.write(LEVEL_2, '----\t----\t--------\n');
        for (const p of subset.ports) w.write(LEVEL_2, `${p.name || '<unset>'}\t${p.port}\t${p.protocol ?? ''}\n`);
      }
      w.write(LEVEL_0, '\n');
    }
    if (events) describeEvents(events, w, s.now);
  });
};
