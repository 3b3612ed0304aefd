// Endpoints strategy (pkg/registry/core/endpoint/strategy.go): subsets need addresses, ports are TCP by default.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isDNS1123Label, isIP, isQualifiedName, isValidPortNum, nameIsDNSSubdomain } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { defineStrategy } from '../../generic/strategy';
import { type Obj, invalidEach, objItems, setDefaultString, str } from '../../generic/util';

export function defaultEndpoints(ep: KubeObject): void {
  for (const ss of objItems(ep, 'subsets')) for (const p of objItems(ss, 'ports')) setDefaultString(p, 'protocol', 'TCP');
}

/** ValidateNonSpecialIP: endpoints may not point at unspecified, loopback or link-local addresses. */
export function validateNonSpecialIP(ip: string, path: string): FieldError[] {
  if (!isIP(ip)) return [fieldErr.invalid(path, ip, 'must be a valid IP address')];
  const errs: FieldError[] = [];
  if (ip === '0.0.0.0' || ip === '::') errs.push(fieldErr.invalid(path, ip, `may not be unspecified (${ip})`));
  if (ip.startsWith('127.') || ip === '::1') errs.push(fieldErr.invalid(path, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  if (ip.startsWith('169.254.') || /^fe[89ab]/i.test(ip)) errs.push(fieldErr.invalid(path, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  if (ip.startsWith('224.0.0.') || /^ff02:/i.test(ip)) errs.push(fieldErr.invalid(path, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function validateAddress(a: Obj, path: string): FieldError[] {
  const ip = str(a.ip);
  const errs: FieldError[] = isIP(ip) ? [] : [fieldErr.invalid(`${path}.ip`, ip, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  if (str(a.hostname)) errs.push(...invalidEach(`${path}.hostname`, a.hostname, isDNS1123Label(str(a.hostname))));
  if (typeof a.nodeName === 'string') errs.push(...invalidEach(`${path}.nodeName`, a.nodeName, nameIsDNSSubdomain(a.nodeName, false)));
  errs.push(...validateNonSpecialIP(ip, `${path}.ip`));
  return errs;
}

function validateEndpoints(ep: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  objItems(ep, 'subsets').forEach((ss, i) => {
    const p = `subsets[${i}]`;
    const addresses = objItems(ss, 'addresses');
    const notReady = objItems(ss, 'notReadyAddresses');
    if (addresses.length === 0 && notReady.length === 0) errs.push(fieldErr.required(p, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...validateAddress(a, `${p}.addresses[${j}]`)));
    notReady.forEach((a, j) => errs.push(...validateAddress(a, `${p}.notReadyAddresses[${j}]`)));
    const ports = objItems(ss, 'ports');
    ports.forEach((port, j) => {
      const pp = `${p}.ports[${j}]`;
      const name = str(port.name);
      if (ports.length > 1 && !name) errs.push(fieldErr.required(`${pp}.name`, ''));
      else if (name) errs.push(...invalidEach(`${pp}.name`, name, isDNS1123Label(name)));
      const num = typeof port.port === 'number' ? port.port : 0;
      errs.push(...invalidEach(`${pp}.port`, num, isValidPortNum(num)));
      const protocol = str(port.protocol);
      if (!protocol) errs.push(fieldErr.required(`${pp}.protocol`, ''));
      else if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push(fieldErr.notSupported(`${pp}.protocol`, protocol, ['SCTP', 'TCP', 'UDP']));
      if (typeof port.appProtocol === 'string') errs.push(...invalidEach(`${pp}.appProtocol`, port.appProtocol, isQualifiedName(port.appProtocol)));
    });
  });
  return errs;
}

export function endpointsStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, { applyDefaults: defaultEndpoints, validateSpec: validateEndpoints });
}
