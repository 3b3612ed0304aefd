// EndpointSlice strategy (pkg/registry/discovery/endpointslice/strategy.go): TCP ports by default, addresses of the
// slice's type, an immutable addressType, and generation on any change to endpoints, ports or labels.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isDNS1123Label, isDNS1123Subdomain, isIPv4, isIPv6, isQualifiedName, isValidPortNum, nameIsDNSSubdomain } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { defineStrategy, nonMetaNonStatus } from '../../generic/strategy';
import { arrAt, invalidEach, objItems, semanticEqual, setDefault, str, validateImmutableField } from '../../generic/util';
import { validateNonSpecialIP } from '../../core/endpoints/strategy';

const addressTypes = ['FQDN', 'IPv4', 'IPv6'];
const maxEndpoints = 1000;
const maxAddresses = 100;
const maxPorts = 20000;

export function defaultEndpointSlice(eps: KubeObject): void {
  for (const p of objItems(eps, 'ports')) {
    setDefault(p, 'protocol', 'TCP');
    setDefault(p, 'name', '');
  }
}

function validateEndpointSlice(eps: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const addressType = str(eps.addressType);
  if (!addressType) errs.push(fieldErr.required('addressType', ''));
  else if (!addressTypes.includes(addressType)) errs.push(fieldErr.notSupported('addressType', addressType, addressTypes));
  const endpoints = objItems(eps, 'endpoints');
  if (endpoints.length > maxEndpoints) errs.push(fieldErr.tooMany('endpoints', endpoints.length, maxEndpoints));
  endpoints.forEach((ep, i) => {
    const p = `endpoints[${i}]`;
    const addresses = arrAt(ep, 'addresses').map(String);
    if (addresses.length === 0) errs.push(fieldErr.required(`${p}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > maxAddresses) errs.push(fieldErr.tooMany(`${p}.addresses`, addresses.length, maxAddresses));
    addresses.forEach((a, j) => {
      const ap = `${p}.addresses[${j}]`;
      if (addressType === 'IPv4') {
        if (!isIPv4(a)) errs.push(fieldErr.invalid(ap, a, 'must be a valid IPv4 address'));
        else errs.push(...validateNonSpecialIP(a, ap));
      } else if (addressType === 'IPv6') {
        if (!isIPv6(a)) errs.push(fieldErr.invalid(ap, a, 'must be a valid IPv6 address'));
        else errs.push(...validateNonSpecialIP(a, ap));
      } else if (addressType === 'FQDN') {
        errs.push(...invalidEach(ap, a, isDNS1123Subdomain(a)));
      }
    });
    if (typeof ep.nodeName === 'string') errs.push(...invalidEach(`${p}.nodeName`, ep.nodeName, nameIsDNSSubdomain(ep.nodeName, false)));
    if (typeof ep.hostname === 'string') errs.push(...invalidEach(`${p}.hostname`, ep.hostname, isDNS1123Label(ep.hostname)));
  });
  const ports = objItems(eps, 'ports');
  if (ports.length > maxPorts) errs.push(fieldErr.tooMany('ports', ports.length, maxPorts));
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = `ports[${i}]`;
    const name = str(port.name);
    if (name) errs.push(...invalidEach(`${p}.name`, name, isDNS1123Label(name)));
    if (names.has(name)) errs.push(fieldErr.duplicate(`${p}.name`, name));
    names.add(name);
    const protocol = str(port.protocol);
    if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push(fieldErr.notSupported(`${p}.protocol`, protocol, ['SCTP', 'TCP', 'UDP']));
    if (typeof port.port === 'number') errs.push(...invalidEach(`${p}.port`, port.port, isValidPortNum(port.port)));
    if (typeof port.appProtocol === 'string') errs.push(...invalidEach(`${p}.appProtocol`, port.appProtocol, isQualifiedName(port.appProtocol)));
  });
  return errs;
}

export function endpointSliceStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultEndpointSlice,
    // Everything but metadata counts, and labels too (they carry the owning service).
    generationChanged: (eps, old) => !semanticEqual(nonMetaNonStatus(eps), nonMetaNonStatus(old)) || !semanticEqual(eps.metadata.labels, old.metadata.labels),
    validateSpec: validateEndpointSlice,
    validateUpdate: (eps, old) => validateImmutableField(eps.addressType, old.addressType, 'addressType'),
  });
}
