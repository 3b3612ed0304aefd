// Service strategy (pkg/registry/core/service/strategy.go and the validation it calls). ClusterIP and nodePort
// allocation belong to the Service REST layer, not here: needsClusterIPAllocation tells that layer when to allocate.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isCIDR, isDNS1123Label, isDNS1123Subdomain, isIP, isQualifiedName, isValidPortName, isValidPortNum, nameIsDNS1035Label } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateLabels } from '../../generic/metav1';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, arrAt, ensureObj, invalidEach, isObj, objItems, setDefault, setDefaultString, str } from '../../generic/util';
import { allocateCreate, allocateUpdate, dropTypeDependentFields, invalidStringSlice, patchAllocatedValues } from './alloc';
const supportedProtocols = ['SCTP', 'TCP', 'UDP'];
const serviceTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

function externallyAccessible(spec: Obj): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && arrAt(spec, 'externalIPs').length > 0);
}

function isHeadless(spec: Obj): boolean {
  return spec.clusterIP === 'None';
}

/** SetDefaults_Service. */
export function defaultService(svc: KubeObject): void {
  const spec = ensureObj(svc as Obj, 'spec');
  setDefaultString(spec, 'sessionAffinity', 'None');
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP') {
    const cfg = ensureObj(spec, 'sessionAffinityConfig');
    const clientIP = ensureObj(cfg, 'clientIP');
    setDefault(clientIP, 'timeoutSeconds', 10800);
  }
  setDefaultString(spec, 'type', 'ClusterIP');
  for (const p of objItems(spec, 'ports')) {
    setDefaultString(p, 'protocol', 'TCP');
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (externallyAccessible(spec)) setDefaultString(spec, 'externalTrafficPolicy', 'Cluster');
  if (spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) {
    if (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP') spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') setDefault(spec, 'allocateLoadBalancerNodePorts', true);
}

/**
 * normalizeClusterIPs on update: a client that sent clusterIP but not clusterIPs (an old client, or a patch that
 * left clusterIPs out) keeps the stored list; clearing clusterIP clears clusterIPs when the list is unchanged.
 */
function normalizeClusterIPsOnUpdate(spec: Obj, oldSpec: Obj): void {
  const same = (): boolean => JSON.stringify(arrAt(spec, 'clusterIPs')) === JSON.stringify(arrAt(oldSpec, 'clusterIPs'));
  if (arrAt(oldSpec, 'clusterIPs').length > 0 && arrAt(spec, 'clusterIPs').length === 0 && str(oldSpec.clusterIP) === str(spec.clusterIP)) {
    spec.clusterIPs = [...arrAt(oldSpec, 'clusterIPs')];
  }
  if (str(oldSpec.clusterIP) !== str(spec.clusterIP)) {
    if (str(oldSpec.clusterIP) && !str(spec.clusterIP) && same()) delete spec.clusterIPs;
    if (str(spec.clusterIP) && same()) spec.clusterIPs = [spec.clusterIP];
  }
  if (!str(spec.clusterIP) && arrAt(spec, 'clusterIPs').length > 0) spec.clusterIP = arrAt(spec, 'clusterIPs')[0];
}

/** clusterIP and clusterIPs describe the same thing; each fills the other (the REST layer's normalizeClusterIPs). */
function normalizeClusterIPs(spec: Obj): void {
  const ips = arrAt(spec, 'clusterIPs');
  if (str(spec.clusterIP) && ips.length === 0) spec.clusterIPs = [spec.clusterIP];
  else if (!str(spec.clusterIP) && ips.length > 0) spec.clusterIP = ips[0];
}

/**
 * Seam for the Service registry: whether this service still needs a cluster IP (not ExternalName, not headless,
 * none set yet). The allocator fills spec.clusterIP/clusterIPs and nodePorts after the strategy ran.
 */
export function needsClusterIPAllocation(svc: KubeObject): boolean {
  const spec = isObj(svc.spec) ? svc.spec : {};
  return spec.type !== 'ExternalName' && !str(spec.clusterIP);
}

function validateServicePort(sp: Obj, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(sp.name);
  if (requireName && !name) errs.push(fieldErr.required(`${path}.name`, ''));
  else if (name) {
    errs.push(...invalidEach(`${path}.name`, name, isDNS1123Label(name)));
    if (names.has(name)) errs.push(fieldErr.duplicate(`${path}.name`, name));
    else names.add(name);
  }
  const port = typeof sp.port === 'number' ? sp.port : 0;
  errs.push(...invalidEach(`${path}.port`, port, isValidPortNum(port)));
  const protocol = str(sp.protocol);
  if (!protocol) errs.push(fieldErr.required(`${path}.protocol`, ''));
  else if (!supportedProtocols.includes(protocol)) errs.push(fieldErr.notSupported(`${path}.protocol`, protocol, supportedProtocols));
  const tp = sp.targetPort;
  if (typeof tp === 'number') errs.push(...invalidEach(`${path}.targetPort`, tp, isValidPortNum(tp)));
  else if (typeof tp === 'string') errs.push(...invalidEach(`${path}.targetPort`, tp, isValidPortName(tp)));
  if (typeof sp.appProtocol === 'string') errs.push(...invalidEach(`${path}.appProtocol`, sp.appProtocol, isQualifiedName(sp.appProtocol)));
  return errs;
}

/** ValidateServiceClusterIPsRelatedFields (the part a single-stack cluster needs). */
export function validateClusterIPs(spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ips = arrAt(spec, 'clusterIPs').map(String);
  if (str(spec.clusterIP) && ips.length > 0 && ips[0] !== spec.clusterIP) {
    errs.push(invalidStringSlice('spec.clusterIPs', spec.clusterIPs, 'first value must match `clusterIP`'));
  }
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) errs.push(invalidStringSlice('spec.clusterIPs', spec.clusterIPs, "'None' must be the first and only value"));
      return;
    }
    if (!isIP(ip)) errs.push(fieldErr.invalid(`spec.clusterIPs[${i}]`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) {
    const valid = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
    if (!valid.includes(str(spec.ipFamilyPolicy))) errs.push(fieldErr.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, valid));
  }
  arrAt(spec, 'ipFamilies').forEach((f, i) => {
    if (f !== 'IPv4' && f !== 'IPv6') errs.push(fieldErr.notSupported(`spec.ipFamilies[${i}]`, f, ['IPv4', 'IPv6']));
  });
  return errs;
}

/** ValidateService (spec part). */
export function validateServiceSpec(svc: KubeObject): FieldError[] {
  const spec = isObj(svc.spec) ? svc.spec : {};
  const errs: FieldError[] = [];
  const ports = objItems(spec, 'ports');
  if (ports.length === 0 && !isHeadless(spec) && spec.type !== 'ExternalName') errs.push(fieldErr.required('spec.ports', ''));
  switch (spec.type) {
    case 'LoadBalancer':
    case 'NodePort':
      if (isHeadless(spec)) errs.push(fieldErr.invalid('spec.clusterIPs[0]', 'None', `may not be set to 'None' for ${spec.type} services`));
      break;
    case 'ExternalName': {
      if (arrAt(spec, 'clusterIPs').length > 0) errs.push(fieldErr.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      if (arrAt(spec, 'ipFamilies').length > 0) errs.push(fieldErr.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined && spec.ipFamilyPolicy !== null) errs.push(fieldErr.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
      const cname = str(spec.externalName).replace(/\.$/, '');
      if (cname) errs.push(...invalidEach('spec.externalName', cname, isDNS1123Subdomain(cname)));
      else errs.push(fieldErr.required('spec.externalName', ''));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, `spec.ports[${i}]`)));
  if (spec.selector !== undefined && spec.selector !== null) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  const affinity = str(spec.sessionAffinity);
  if (!affinity) errs.push(fieldErr.required('spec.sessionAffinity', ''));
  else if (affinity !== 'ClientIP' && affinity !== 'None') errs.push(fieldErr.notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']));
  if (affinity === 'ClientIP') {
    const timeout = isObj(spec.sessionAffinityConfig) && isObj(spec.sessionAffinityConfig.clientIP) ? spec.sessionAffinityConfig.clientIP.timeoutSeconds : undefined;
    if (typeof timeout !== 'number') errs.push(fieldErr.required('spec.sessionAffinityConfig', 'when session affinity type is ClientIP'));
    else if (timeout <= 0 || timeout > 86400) errs.push(fieldErr.invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', timeout, 'must be greater than 0 and less than 86400'));
  } else if (affinity === 'None' && spec.sessionAffinityConfig !== undefined && spec.sessionAffinityConfig !== null) {
    errs.push(fieldErr.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  errs.push(...validateClusterIPs(spec));
  arrAt(spec, 'externalIPs').forEach((ip, i) => {
    if (!isIP(String(ip))) errs.push(fieldErr.invalid(`spec.externalIPs[${i}]`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'));
  });
  const type = str(spec.type);
  if (!type) errs.push(fieldErr.required('spec.type', ''));
  else if (!serviceTypes.includes(type)) errs.push(fieldErr.notSupported('spec.type', type, serviceTypes));
  if (type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (typeof p.nodePort === 'number' && p.nodePort !== 0) errs.push(fieldErr.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((p, i) => {
    if (typeof p.nodePort !== 'number' || p.nodePort === 0) return;
    const key = `${str(p.protocol)}/${p.nodePort}`;
    if (nodePorts.has(key)) errs.push(fieldErr.duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
    nodePorts.add(key);
  });
  const seenPorts = new Set<string>();
  ports.forEach((p, i) => {
    const key = `${str(p.protocol)}/${typeof p.port === 'number' ? p.port : 0}`;
    if (seenPorts.has(key)) errs.push(fieldErr.duplicate(`spec.ports[${i}]`, { port: p.port, protocol: p.protocol }));
    seenPorts.add(key);
  });
  const ranges = arrAt(spec, 'loadBalancerSourceRanges');
  if (ranges.length > 0) {
    if (type !== 'LoadBalancer') errs.push(fieldErr.forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((r, i) => {
      const v = String(r).trim();
      if (!isCIDR(v)) errs.push(fieldErr.invalid(`spec.LoadBalancerSourceRanges[${i}]`, v, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    });
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts !== null && type !== 'LoadBalancer') {
    errs.push(fieldErr.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && (spec.allocateLoadBalancerNodePorts === undefined || spec.allocateLoadBalancerNodePorts === null)) {
    errs.push(fieldErr.required('allocateLoadBalancerNodePorts', ''));
  }
  if (!externallyAccessible(spec)) {
    if (str(spec.externalTrafficPolicy)) {
      errs.push(fieldErr.invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
    }
  } else if (!str(spec.externalTrafficPolicy)) {
    errs.push(fieldErr.required('spec.externalTrafficPolicy', ''));
  } else if (spec.externalTrafficPolicy !== 'Cluster' && spec.externalTrafficPolicy !== 'Local') {
    errs.push(fieldErr.notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, ['Cluster', 'Local']));
  }
  if (spec.internalTrafficPolicy === undefined || spec.internalTrafficPolicy === null) {
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errs.push(fieldErr.required('spec.internalTrafficPolicy', ''));
  } else if (spec.internalTrafficPolicy !== 'Cluster' && spec.internalTrafficPolicy !== 'Local') {
    errs.push(fieldErr.notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, ['Cluster', 'Local']));
  }
  if (spec.trafficDistribution !== undefined && spec.trafficDistribution !== null && spec.trafficDistribution !== 'PreferClose') {
    errs.push(fieldErr.notSupported('spec.trafficDistribution', spec.trafficDistribution, ['PreferClose']));
  }
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: the primary cluster IP never changes once allocated. */
function validateServiceUpdate(svc: KubeObject, old: KubeObject): FieldError[] {
  const spec = isObj(svc.spec) ? svc.spec : {};
  const oldSpec = isObj(old.spec) ? old.spec : {};
  if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(oldSpec)) return [];
  const ips = arrAt(spec, 'clusterIPs').map(String);
  const oldIPs = arrAt(oldSpec, 'clusterIPs').map(String);
  const errs: FieldError[] = [];
  if (oldIPs.length === ips.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errs.push(invalidStringSlice(`spec.clusterIPs[${i}]`, spec.clusterIPs, 'may not change once set'));
    });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errs.push(invalidStringSlice('spec.clusterIPs[0]', spec.clusterIPs, 'primary clusterIP can not be unset'));
    else if (ips[0] !== oldIPs[0]) errs.push(invalidStringSlice('spec.clusterIPs[0]', spec.clusterIPs, 'may not change once set'));
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errs.push(invalidStringSlice('spec.clusterIPs[0]', spec.clusterIPs, 'may not change once set'));
  }
  return errs;
}

export function serviceStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    nameFn: nameIsDNS1035Label,
    applyDefaults: defaultService,
    prepareForCreate(svc, ctx) {
      const spec = ensureObj(svc as Obj, 'spec');
      normalizeClusterIPs(spec);
      // The Service REST layer's beginCreate: families, cluster IPs and node ports, before validation.
      allocateCreate(svc, ctx.reader, validateClusterIPs);
      svc.status = { loadBalancer: {} };
    },
    prepareForUpdate(svc, old, ctx) {
      const spec = ensureObj(svc as Obj, 'spec');
      const oldSpec = isObj(old.spec) ? old.spec : {};
      // beginUpdate: keep allocated values the client left out, sync clusterIP/clusterIPs, allocate what the
      // new type needs; then the strategy's dropTypeDependentFields.
      patchAllocatedValues(spec, oldSpec);
      normalizeClusterIPsOnUpdate(spec, oldSpec);
      allocateUpdate(svc, old, ctx.reader, validateClusterIPs);
      dropTypeDependentFields(spec, oldSpec);
    },
    validateSpec: validateServiceSpec,
    validateUpdate: validateServiceUpdate,
    status: {
      validate(svc) {
        const ingress = objItems(isObj(svc.status) ? svc.status.loadBalancer : undefined, 'ingress');
        const errs: FieldError[] = [];
        ingress.forEach((ing, i) => {
          if (str(ing.ip) && !isIP(str(ing.ip))) errs.push(fieldErr.invalid(`status.loadBalancer.ingress[${i}].ip`, ing.ip, 'must be a valid IP address'));
        });
        return errs;
      },
    },
  });
}
