// The Service REST layer's allocations (pkg/registry/core/service/storage/alloc.go): IP family defaults, cluster IPs
// from the service CIDR and node ports from the node port range, with the real errors. The allocators' maps are
// rebuilt from the stored Services before each allocation (the work of the repair controllers, done on demand), so
// a deleted Service's IP and ports are free again, a failed or dry-run request leaves nothing behind, and an API
// server started over persisted state knows every allocation.
import type { FieldError } from '../../../../../shared/api/field-errors';
import { fieldErr, omitValue, FieldErrorType } from '../../../../../shared/api/field-errors';
import { newInternalError, newInvalid } from '../../../../../shared/api/status';
import type { KubeObject } from '../../../../../shared/api/types';
import { createRng } from '../../../../sim/rng';
import { AllocationError, AllocationErrorReason } from '../../../allocators/errors';
import { IPRangeAllocator } from '../../../allocators/ip-allocator';
import { PortAllocator, defaultServiceNodePortRange } from '../../../allocators/port-allocator';
import type { ObjectReader } from '../../../types';
import { type Obj, arrAt, isObj, objItems, str } from '../../generic/util';

/** --service-cluster-ip-range of the simulated cluster (kubeadm's default). */
export const serviceClusterIPRange = '10.96.0.0/12';

export interface ServiceAllocators {
  clusterIPs: IPRangeAllocator;
  nodePorts: PortAllocator;
}

type Spec = Obj;

const specOf = (svc: KubeObject): Spec => (isObj(svc.spec) ? svc.spec : ((svc as Obj).spec = {}) as Spec);

export function needsClusterIP(spec: Spec): boolean {
  return spec.type !== 'ExternalName';
}

export function needsNodePort(spec: Spec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** apiservice.NeedsHealthCheck. */
export function needsHealthCheck(spec: Spec): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

function shouldAllocateNodePorts(spec: Spec): boolean {
  if (spec.type === 'NodePort') return true;
  return spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false;
}

function isHeadless(spec: Spec): boolean {
  return arrAt(spec, 'clusterIPs')[0] === 'None' || spec.clusterIP === 'None';
}

/** How Go prints a []string bad value (%#v), e.g. `[]string{"10.96.0.10"}`. */
export function goStringSlice(v: unknown): string {
  if (!Array.isArray(v)) return '[]string(nil)';
  return `[]string{${v.map((s) => JSON.stringify(String(s))).join(', ')}}`;
}

/** field.Invalid with a []string value: the value rendered as Go does, which formatBadValue (JSON) cannot. */
export function invalidStringSlice(field: string, value: unknown, detail: string): FieldError {
  return { type: FieldErrorType.Invalid, field, badValue: omitValue, detail: `${goStringSlice(value)}: ${detail}` };
}

function invalidService(svc: KubeObject, errs: FieldError[]): never {
  throw newInvalid({ group: '', kind: 'Service' }, svc.metadata?.name ?? '', errs);
}

/** The repair pass: allocators holding what the given Services use (IPs outside the range are skipped). */
export function rebuildAllocators(services: readonly KubeObject[]): ServiceAllocators {
  const alloc: ServiceAllocators = { clusterIPs: new IPRangeAllocator(serviceClusterIPRange), nodePorts: new PortAllocator(defaultServiceNodePortRange) };
  for (const svc of services) {
    const spec = isObj(svc.spec) ? svc.spec : {};
    if (spec.type === 'ExternalName') continue;
    for (const ip of arrAt(spec, 'clusterIPs').length ? arrAt(spec, 'clusterIPs') : [spec.clusterIP]) {
      const s = str(ip);
      if (s && s !== 'None' && alloc.clusterIPs.contains(s) && !alloc.clusterIPs.has(s)) alloc.clusterIPs.allocate(s);
    }
    const ports = new Set<number>();
    for (const p of objItems(spec, 'ports')) if (typeof p.nodePort === 'number' && p.nodePort) ports.add(p.nodePort);
    if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort) ports.add(spec.healthCheckNodePort);
    for (const port of ports) if (alloc.nodePorts.contains(port) && !alloc.nodePorts.has(port)) alloc.nodePorts.allocate(port);
  }
  return alloc;
}

export function allocatorsFromStore(reader: ObjectReader): ServiceAllocators {
  return rebuildAllocators(reader.list({ group: '', resource: 'services' }));
}

/** Seeded randomness for one request: the uid (drawn from the cluster's rng) and the revision it updates. */
function requestRand(seed: string): (n: number) => number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  const rng = createRng(h);
  return (n) => rng.int(n);
}

function familyOf(ip: string): 'IPv4' | 'IPv6' {
  return ip.includes(':') ? 'IPv6' : 'IPv4';
}

/**
 * initIPFamilyFields for a single-stack IPv4 cluster: ipFamilyPolicy (old policy on update, RequireDualStack for
 * headless selectorless Services, else SingleStack) and ipFamilies, refusing families the cluster does not serve.
 * validateClusterIPs is the strategy's ValidateServiceClusterIPsRelatedFields, run first as the real code does.
 */
export function initIPFamilyFields(svc: KubeObject, old: KubeObject | undefined, validateClusterIPs: (spec: Spec) => FieldError[]): void {
  const spec = specOf(svc);
  if (spec.type === 'ExternalName') return;
  const oldSpec = old && isObj(old.spec) ? old.spec : undefined;
  if (spec.ipFamilyPolicy === undefined || spec.ipFamilyPolicy === null) {
    if (oldSpec && oldSpec.ipFamilyPolicy !== undefined && oldSpec.ipFamilyPolicy !== null) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
    else if (spec.clusterIP === 'None' && Object.keys(isObj(spec.selector) ? spec.selector : {}).length === 0) spec.ipFamilyPolicy = 'RequireDualStack';
    else spec.ipFamilyPolicy = 'SingleStack';
  }
  const pre = validateClusterIPs(spec);
  if (pre.length) invalidService(svc, pre);

  const errs: FieldError[] = [];
  const ips = arrAt(spec, 'clusterIPs').map(String);
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (ips.length === 2) errs.push(fieldErr.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (arrAt(spec, 'ipFamilies').length === 2) errs.push(fieldErr.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  const families = arrAt(spec, 'ipFamilies').map(String);
  for (let i = 0; i < ips.length; i++) {
    if (ips[i] === 'None') break;
    const fam = familyOf(ips[i]!);
    if (i >= families.length) {
      if (fam !== 'IPv4') errs.push(invalidStringSlice(`spec.clusterIPs[${i}]`, spec.clusterIPs, `${fam} is not configured on this cluster`));
      else families.push(fam);
    }
  }
  if (errs.length) invalidService(svc, errs);
  if (families.length) spec.ipFamilies = families;

  if (spec.clusterIP === 'None' && Object.keys(isObj(spec.selector) ? spec.selector : {}).length === 0) {
    if (families.length === 0) families.push('IPv4');
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    spec.ipFamilies = families;
    return;
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack') {
    errs.push(fieldErr.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
  }
  families.forEach((f, i) => {
    if (f !== 'IPv4') errs.push(fieldErr.invalid(`spec.ipFamilies[${i}]`, f, 'not configured on this cluster'));
  });
  if (errs.length) invalidService(svc, errs);
  if (families.length === 0) families.push('IPv4');
  spec.ipFamilies = families;
}

/** allocClusterIPs: a requested IP is reserved (or refused), a missing one drawn from the range. */
function allocClusterIPs(svc: KubeObject, alloc: ServiceAllocators, rand: (n: number) => number): void {
  const spec = specOf(svc);
  if (spec.type === 'ExternalName' || isHeadless(spec)) return;
  const ips = arrAt(spec, 'clusterIPs').map(String);
  const families = arrAt(spec, 'ipFamilies').map(String);
  for (let i = 0; i < Math.max(1, families.length); i++) {
    const requested = ips[i] ?? '';
    if (!requested) {
      try {
        ips[i] = alloc.clusterIPs.allocateNext(rand);
      } catch (err) {
        throw newInternalError(`failed to allocate a serviceIP: ${err instanceof Error ? err.message : String(err)}`);
      }
      continue;
    }
    try {
      alloc.clusterIPs.allocate(requested);
    } catch (err) {
      if (!(err instanceof AllocationError)) throw err;
      invalidService(svc, [invalidStringSlice('spec.clusterIPs', spec.clusterIPs, `failed to allocate IP ${requested}: ${err.message}`)]);
    }
  }
  spec.clusterIPs = ips;
  spec.clusterIP = ips[0];
}

function reserveNodePort(svc: KubeObject, alloc: ServiceAllocators, port: number, field: string): void {
  try {
    alloc.nodePorts.allocate(port);
  } catch (err) {
    if (!(err instanceof AllocationError)) throw err;
    invalidService(svc, [fieldErr.invalid(field, port, err.message)]);
  }
}

function nextNodePort(alloc: ServiceAllocators, rand: (n: number) => number): number {
  try {
    return alloc.nodePorts.allocateNext(rand);
  } catch (err) {
    if (err instanceof AllocationError && err.reason === AllocationErrorReason.Full) throw newInternalError(`failed to allocate a nodePort: ${err.message}`);
    throw err;
  }
}

/** initNodePorts: ports with the same number (TCP and UDP) share one node port. */
function initNodePorts(svc: KubeObject, alloc: ServiceAllocators, rand: (n: number) => number): void {
  const spec = specOf(svc);
  const ports = objItems(spec, 'ports');
  const byPort = new Map<unknown, number>();
  ports.forEach((sp, i) => {
    const nodePort = typeof sp.nodePort === 'number' ? sp.nodePort : 0;
    if (!nodePort && !shouldAllocateNodePorts(spec)) return;
    const already = byPort.get(sp.port) ?? 0;
    if (!already) {
      const requested = ports.find((p) => p.port === sp.port && typeof p.nodePort === 'number' && p.nodePort !== 0)?.nodePort as number | undefined;
      if (requested) {
        reserveNodePort(svc, alloc, requested, `spec.ports[${i}].nodePort`);
        sp.nodePort = requested;
      } else {
        sp.nodePort = nextNodePort(alloc, rand);
      }
      byPort.set(sp.port, sp.nodePort as number);
    } else if (nodePort !== already) {
      if (!nodePort) sp.nodePort = already;
      else reserveNodePort(svc, alloc, nodePort, `spec.ports[${i}].nodePort`);
    }
  });
}

function allocHealthCheckNodePort(svc: KubeObject, alloc: ServiceAllocators, rand: (n: number) => number): void {
  const spec = specOf(svc);
  const hc = typeof spec.healthCheckNodePort === 'number' ? spec.healthCheckNodePort : 0;
  if (hc) {
    try {
      alloc.nodePorts.allocate(hc);
    } catch (err) {
      throw newInternalError(`failed to allocate requested HealthCheck NodePort ${hc}: ${err instanceof Error ? err.message : String(err)}`);
    }
    return;
  }
  try {
    spec.healthCheckNodePort = alloc.nodePorts.allocateNext(rand);
  } catch (err) {
    throw newInternalError(`failed to allocate a HealthCheck NodePort 0: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** allocateCreate: IP families, cluster IPs, node ports and the health check node port of a new Service. */
export function allocateCreate(svc: KubeObject, reader: ObjectReader, validateClusterIPs: (spec: Spec) => FieldError[]): void {
  initIPFamilyFields(svc, undefined, validateClusterIPs);
  const alloc = allocatorsFromStore(reader);
  const rand = requestRand(`${svc.metadata?.uid ?? ''}/${svc.metadata?.namespace ?? ''}/${svc.metadata?.name ?? ''}`);
  allocClusterIPs(svc, alloc, rand);
  const spec = specOf(svc);
  if (needsNodePort(spec)) initNodePorts(svc, alloc, rand);
  if (needsHealthCheck(spec)) allocHealthCheckNodePort(svc, alloc, rand);
}

/** patchAllocatedValues: an update that leaves allocated values out keeps the stored ones (idempotent PUTs). */
export function patchAllocatedValues(spec: Spec, oldSpec: Spec): void {
  if (needsClusterIP(oldSpec) && needsClusterIP(spec)) {
    if (!str(spec.clusterIP) && str(oldSpec.clusterIP)) spec.clusterIP = oldSpec.clusterIP;
    if (arrAt(spec, 'clusterIPs').length === 0 && arrAt(oldSpec, 'clusterIPs').length > 0) spec.clusterIPs = [...arrAt(oldSpec, 'clusterIPs')];
  }
  if (needsNodePort(oldSpec) && needsNodePort(spec)) {
    const byName = new Map<string, number>();
    for (const p of objItems(oldSpec, 'ports')) byName.set(str(p.name), typeof p.nodePort === 'number' ? p.nodePort : 0);
    const ports = objItems(spec, 'ports');
    const used = new Set(ports.map((p) => p.nodePort).filter((n) => typeof n === 'number' && n !== 0));
    for (const p of ports) {
      if (p.nodePort) continue;
      const oldVal = byName.get(str(p.name)) ?? 0;
      if (oldVal && !used.has(oldVal)) p.nodePort = oldVal;
    }
  }
  if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && !spec.healthCheckNodePort && oldSpec.healthCheckNodePort) {
    spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
  }
}

/**
 * allocateUpdate: families, then cluster IPs for a Service leaving ExternalName, then node ports for NodePort and
 * LoadBalancer Services (ports it already held stay; new ones are reserved or drawn), then the health check port.
 * What the update gives up (a type change) is free once the update is stored: the maps come from storage.
 */
export function allocateUpdate(svc: KubeObject, old: KubeObject, reader: ObjectReader, validateClusterIPs: (spec: Spec) => FieldError[]): void {
  initIPFamilyFields(svc, old, validateClusterIPs);
  const spec = specOf(svc);
  const oldSpec = isObj(old.spec) ? old.spec : {};
  const alloc = allocatorsFromStore(reader);
  const rand = requestRand(`${old.metadata?.uid ?? ''}/${old.metadata?.resourceVersion ?? ''}`);
  if (oldSpec.type === 'ExternalName' && spec.type !== 'ExternalName') allocClusterIPs(svc, alloc, rand);
  if (needsNodePort(spec)) {
    const oldNodePorts = new Set(objItems(oldSpec, 'ports').map((p) => p.nodePort).filter((n) => typeof n === 'number' && n !== 0));
    const reserved = new Set<number>();
    objItems(spec, 'ports').forEach((sp, i) => {
      const nodePort = typeof sp.nodePort === 'number' ? sp.nodePort : 0;
      if (!nodePort && !shouldAllocateNodePorts(spec)) return;
      if (nodePort) {
        if (!oldNodePorts.has(nodePort) && !reserved.has(nodePort)) {
          reserveNodePort(svc, alloc, nodePort, `spec.ports[${i}].nodePort`);
          reserved.add(nodePort);
        }
      } else {
        sp.nodePort = nextNodePort(alloc, rand);
      }
    });
  }
  if (!needsHealthCheck(oldSpec) && needsHealthCheck(spec)) allocHealthCheckNodePort(svc, alloc, rand);
}

function sameStrings(a: unknown, b: unknown): boolean {
  return JSON.stringify(Array.isArray(a) ? a : []) === JSON.stringify(Array.isArray(b) ? b : []);
}

/** dropTypeDependentFields: a type change wipes the values the old type needed, unless the user changed them. */
export function dropTypeDependentFields(spec: Spec, oldSpec: Spec): void {
  if (needsClusterIP(oldSpec) && !needsClusterIP(spec)) {
    if (sameStrings(spec.clusterIPs, oldSpec.clusterIPs)) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (sameStrings(spec.ipFamilies, oldSpec.ipFamilies)) delete spec.ipFamilies;
    if (spec.ipFamilyPolicy === oldSpec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePort(oldSpec) && !needsNodePort(spec)) {
    const oldPorts = new Set(objItems(oldSpec, 'ports').map((p) => p.nodePort).filter((n) => typeof n === 'number' && n !== 0));
    const ports = objItems(spec, 'ports');
    if (ports.every((p) => !p.nodePort || oldPorts.has(p.nodePort))) for (const p of ports) delete p.nodePort;
  }
  if (needsHealthCheck(oldSpec) && !needsHealthCheck(spec) && spec.healthCheckNodePort === oldSpec.healthCheckNodePort) delete spec.healthCheckNodePort;
  if (oldSpec.type === 'LoadBalancer' && spec.type !== 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === oldSpec.allocateLoadBalancerNodePorts) {
    delete spec.allocateLoadBalancerNodePorts;
  }
  const externallyAccessible = (s: Spec): boolean => needsNodePort(s) || (s.type === 'ClusterIP' && arrAt(s, 'externalIPs').length > 0);
  if (externallyAccessible(oldSpec) && !externallyAccessible(spec) && spec.externalTrafficPolicy === oldSpec.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
  if (needsClusterIP(oldSpec) && !needsClusterIP(spec) && spec.internalTrafficPolicy === oldSpec.internalTrafficPolicy) delete spec.internalTrafficPolicy;
}
