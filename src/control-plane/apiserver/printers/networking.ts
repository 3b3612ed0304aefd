// networking.k8s.io and discovery.k8s.io: ingresses, ingress classes, network policies, endpoint slices.
import type { KubeObject, LabelSelector } from '../../../shared/api/types';
import { formatLabelSelector } from '../../../shared/lib/labels';
import { ageColumn, arr, column, field, nameColumn, str, translateTimestampSince, type KindPrinter } from './table';

const name = (obj: KubeObject): string => obj.metadata?.name ?? '';
const age = (obj: KubeObject, now: number): string => translateTimestampSince(obj.metadata?.creationTimestamp, now);

/** formatHosts: up to 3 hosts, "*" when no rule names one. */
function formatHosts(rules: unknown[]): string {
  const list: string[] = [];
  const max = 3;
  let more = false;
  for (const rule of rules) {
    if (list.length === max) more = true;
    const host = str(field(rule, 'host'));
    if (!more && host) list.push(host);
  }
  if (list.length === 0) return '*';
  const ret = list.join(',');
  return more ? `${ret} + ${rules.length - max} more...` : ret;
}

/** ingressLoadBalancerStatusStringer (wide: never clipped, as the server prints). */
function ingressAddress(obj: KubeObject): string {
  const set = new Set<string>();
  for (const i of arr(field(obj, 'status', 'loadBalancer', 'ingress'))) {
    const ip = str(field(i, 'ip'));
    const hostname = str(field(i, 'hostname'));
    if (ip) set.add(ip);
    else if (hostname) set.add(hostname);
  }
  return [...set].sort().join(',');
}

export const ingressPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    ageColumn(),
  ],
  cells(obj, { now }) {
    const className = field(obj, 'spec', 'ingressClassName');
    const ports = arr(field(obj, 'spec', 'tls')).length !== 0 ? '80, 443' : '80';
    return [name(obj), typeof className === 'string' ? className : '<none>', formatHosts(arr(field(obj, 'spec', 'rules'))), ingressAddress(obj), ports, age(obj, now)];
  },
};

export const ingressClassPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Controller', 'string', 'Controller that is responsible for handling this class'),
    column('Parameters', 'string', 'A reference to a resource with additional parameters'),
    ageColumn(),
  ],
  cells(obj, { now }) {
    const params = field(obj, 'spec', 'parameters');
    let parameters = '<none>';
    if (params && typeof params === 'object') {
      parameters = str(field(params, 'kind'));
      const apiGroup = field(params, 'apiGroup');
      if (typeof apiGroup === 'string') parameters = `${parameters}.${apiGroup}`;
      parameters = `${parameters}/${str(field(params, 'name'))}`;
    }
    return [name(obj), str(field(obj, 'spec', 'controller')), parameters, age(obj, now)];
  },
};

export const networkPolicyPrinter: KindPrinter = {
  columns: [nameColumn(), column('Pod-Selector', 'string', 'io.k8s.api.networking.v1.NetworkPolicySpec#podSelector'), ageColumn()],
  cells: (obj, { now }) => [name(obj), formatLabelSelector(field(obj, 'spec', 'podSelector') as LabelSelector | undefined), age(obj, now)],
};

function listWithMore(list: string[], more: boolean, count: number, max: number): string {
  const ret = list.join(',');
  if (more) return `${ret} + ${count - max} more...`;
  return ret || '<unset>';
}

export const endpointSlicePrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('AddressType', 'string', 'io.k8s.api.discovery.v1.EndpointSlice#addressType'),
    column('Ports', 'string', 'io.k8s.api.discovery.v1.EndpointSlice#ports'),
    column('Endpoints', 'string', 'io.k8s.api.discovery.v1.EndpointSlice#endpoints'),
    ageColumn(),
  ],
  cells(obj, { now }) {
    const max = 3;
    const ports: string[] = [];
    let portsMore = false;
    let portCount = 0;
    for (const port of arr(field(obj, 'ports'))) {
      if (ports.length < max) {
        const p = field(port, 'port');
        const n = field(port, 'name');
        ports.push(typeof p === 'number' ? String(p) : typeof n === 'string' ? n : '*');
      } else if (ports.length === max) {
        portsMore = true;
      }
      portCount++;
    }
    const addresses: string[] = [];
    let addrMore = false;
    let addrCount = 0;
    for (const endpoint of arr(field(obj, 'endpoints'))) {
      for (const address of arr<string>(field(endpoint, 'addresses'))) {
        if (addresses.length < max) addresses.push(address);
        else if (addresses.length === max) addrMore = true;
        addrCount++;
      }
    }
    return [
      name(obj),
      str(field(obj, 'addressType')),
      listWithMore(ports, portsMore, portCount, max),
      listWithMore(addresses, addrMore, addrCount, max),
      age(obj, now),
    ];
  },
};

