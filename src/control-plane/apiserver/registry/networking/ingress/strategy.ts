// Ingress strategy (pkg/registry/networking/ingress/strategy.go, pkg/apis/networking/validation): rules with
// DNS hosts, paths with a required pathType, backends naming a service port; generation; status subresource.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import {
  isDNS1123Subdomain,
  isIP,
  isValidPortName,
  isValidPortNum,
  isWildcardDNS1123Subdomain,
  nameIsDNS1035Label,
  nameIsDNSSubdomain,
} from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, arrAt, invalidEach, isObj, objItems, str } from '../../generic/util';

const supportedPathTypes = ['Exact', 'ImplementationSpecific', 'Prefix'];
const invalidPathSequences = ['//', '/./', '/../', '%2f', '%2F'];
const invalidPathSuffixes = ['/..', '/.'];

function validateHost(host: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isIP(host)) errs.push(fieldErr.invalid(path, host, 'must be a DNS name, not an IP address'));
  if (host.includes('*')) errs.push(...invalidEach(path, host, isWildcardDNS1123Subdomain(host)));
  else errs.push(...invalidEach(path, host, isDNS1123Subdomain(host)));
  return errs;
}

export function validateIngressBackend(backend: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const hasResource = isObj(backend.resource);
  const service = backend.service;
  if (hasResource && isObj(service)) return [fieldErr.invalid(path, '', 'cannot set both resource and service backends')];
  if (hasResource) {
    const r = backend.resource as Obj;
    if (!str(r.kind)) errs.push(fieldErr.required(`${path}.resource.kind`, ''));
    if (!str(r.name)) errs.push(fieldErr.required(`${path}.resource.name`, ''));
    return errs;
  }
  if (!isObj(service)) return [fieldErr.invalid(path, '', 'resource or service backend is required')];
  const name = str(service.name);
  if (!name) errs.push(fieldErr.required(`${path}.service.name`, ''));
  else errs.push(...invalidEach(`${path}.service.name`, name, nameIsDNS1035Label(name, false)));
  const port = isObj(service.port) ? service.port : {};
  const portName = str(port.name);
  const portNumber = typeof port.number === 'number' ? port.number : 0;
  if (portName && portNumber) errs.push(fieldErr.invalid(path, '', 'cannot set both port name & port number'));
  else if (portName) errs.push(...invalidEach(`${path}.service.port.name`, portName, isValidPortName(portName)));
  else if (portNumber) errs.push(...invalidEach(`${path}.service.port.number`, portNumber, isValidPortNum(portNumber)));
  else errs.push(fieldErr.required(path, 'port name or number is required'));
  return errs;
}

function validateHTTPIngressPath(p: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const pathType = p.pathType;
  const value = str(p.path);
  if (pathType === undefined || pathType === null) {
    errs.push(fieldErr.required(`${path}.pathType`, 'pathType must be specified'));
    return errs.concat(validateIngressBackend(isObj(p.backend) ? p.backend : {}, `${path}.backend`));
  }
  switch (pathType) {
    case 'Exact':
    case 'Prefix':
      if (!value.startsWith('/')) errs.push(fieldErr.invalid(`${path}.path`, value, 'must be an absolute path'));
      if (value) {
        for (const seq of invalidPathSequences) if (value.includes(seq)) errs.push(fieldErr.invalid(`${path}.path`, value, `must not contain '${seq}'`));
        for (const suf of invalidPathSuffixes) if (value.endsWith(suf)) errs.push(fieldErr.invalid(`${path}.path`, value, `cannot end with '${suf}'`));
      }
      break;
    case 'ImplementationSpecific':
      if (value && !value.startsWith('/')) errs.push(fieldErr.invalid(`${path}.path`, value, 'must be an absolute path'));
      break;
    default:
      errs.push(fieldErr.notSupported(`${path}.pathType`, pathType, supportedPathTypes));
  }
  errs.push(...validateIngressBackend(isObj(p.backend) ? p.backend : {}, `${path}.backend`));
  return errs;
}

/** ValidateIngressSpec. */
export function validateIngressSpec(ing: KubeObject): FieldError[] {
  const spec = isObj(ing.spec) ? ing.spec : {};
  const errs: FieldError[] = [];
  const rules = objItems(spec, 'rules');
  if (isObj(spec.defaultBackend)) errs.push(...validateIngressBackend(spec.defaultBackend, 'spec.defaultBackend'));
  else if (rules.length === 0) errs.push(fieldErr.invalid('spec.rules', [], 'either `defaultBackend` or `rules` must be specified'));
  rules.forEach((rule, i) => {
    const p = `spec.rules[${i}]`;
    const host = str(rule.host);
    if (host) errs.push(...validateHost(host, `${p}.host`));
    if (isObj(rule.http)) {
      const paths = objItems(rule.http, 'paths');
      if (paths.length === 0) errs.push(fieldErr.required(`${p}.http.paths`, ''));
      paths.forEach((hp, j) => errs.push(...validateHTTPIngressPath(hp, `${p}.http.paths[${j}]`)));
    }
  });
  objItems(spec, 'tls').forEach((tls, i) => {
    arrAt(tls, 'hosts').forEach((h, j) => {
      const host = String(h);
      const p = `spec.tls[${i}].hosts[${j}]`;
      errs.push(...invalidEach(p, host, host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host)));
    });
  });
  const cls = spec.ingressClassName;
  if (typeof cls === 'string') errs.push(...invalidEach('spec.ingressClassName', cls, nameIsDNSSubdomain(cls, false)));
  return errs;
}

export function ingressStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    generationChanged: specChanged,
    validateSpec: validateIngressSpec,
    status: {
      validate(ing) {
        const errs: FieldError[] = [];
        objItems(isObj(ing.status) ? ing.status.loadBalancer : undefined, 'ingress').forEach((lb, i) => {
          if (str(lb.ip) && !isIP(str(lb.ip))) errs.push(fieldErr.invalid(`status.loadBalancer.ingress[${i}].ip`, lb.ip, 'must be a valid IP address'));
        });
        return errs;
      },
    },
  });
}
