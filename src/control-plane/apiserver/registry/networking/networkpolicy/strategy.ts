// NetworkPolicy strategy (pkg/registry/networking/networkpolicy/strategy.go): policyTypes default to Ingress (plus
// Egress when egress rules exist), ports default to TCP; peers, ports and CIDRs are validated; generation.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject, LabelSelector } from '../../../../../shared/api/types';
import { isCIDR, isValidPortName, isValidPortNum } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateLabelSelector } from '../../generic/metav1';
import { defineStrategy, specChanged } from '../../generic/strategy';
import { type Obj, arrAt, ensureObj, invalidEach, isObj, objItems, setDefault, str } from '../../generic/util';

export function defaultNetworkPolicy(np: KubeObject): void {
  const spec = ensureObj(np as Obj, 'spec');
  for (const rule of [...objItems(spec, 'ingress'), ...objItems(spec, 'egress')]) {
    for (const p of objItems(rule, 'ports')) setDefault(p, 'protocol', 'TCP');
  }
  if (arrAt(spec, 'policyTypes').length === 0) {
    spec.policyTypes = objItems(spec, 'egress').length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
}

function validatePort(port: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const protocol = port.protocol;
  if (protocol !== undefined && protocol !== 'TCP' && protocol !== 'UDP' && protocol !== 'SCTP') {
    errs.push(fieldErr.notSupported(`${path}.protocol`, protocol, ['TCP', 'UDP', 'SCTP']));
  }
  const p = port.port;
  if (typeof p === 'number') errs.push(...invalidEach(`${path}.port`, p, isValidPortNum(p)));
  else if (typeof p === 'string') errs.push(...invalidEach(`${path}.port`, p, isValidPortName(p)));
  if (port.endPort !== undefined && port.endPort !== null) {
    if (typeof p !== 'number') errs.push(fieldErr.required(`${path}.port`, 'must be specified when endPort is specified'));
    else if (typeof port.endPort === 'number' && port.endPort < p) {
      errs.push(fieldErr.invalid(`${path}.endPort`, port.endPort, 'must be greater than or equal to `port`'));
    }
  }
  return errs;
}

function validatePeer(peer: Obj, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  if (isObj(peer.podSelector)) {
    count++;
    errs.push(...validateLabelSelector(peer.podSelector as LabelSelector, {}, `${path}.podSelector`));
  }
  if (isObj(peer.namespaceSelector)) {
    count++;
    errs.push(...validateLabelSelector(peer.namespaceSelector as LabelSelector, {}, `${path}.namespaceSelector`));
  }
  if (isObj(peer.ipBlock)) {
    count++;
    const cidr = str(peer.ipBlock.cidr);
    if (!cidr) errs.push(fieldErr.required(`${path}.ipBlock.cidr`, ''));
    else if (!isCIDR(cidr)) errs.push(fieldErr.invalid(`${path}.ipBlock.cidr`, cidr, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    arrAt(peer.ipBlock, 'except').forEach((e, i) => {
      if (!isCIDR(String(e))) errs.push(fieldErr.invalid(`${path}.ipBlock.except[${i}]`, e, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    });
  }
  if (count === 0) errs.push(fieldErr.required(path, 'must specify a peer'));
  else if (isObj(peer.ipBlock) && count > 1) errs.push(fieldErr.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

function validateNetworkPolicySpec(np: KubeObject): FieldError[] {
  const spec = isObj(np.spec) ? np.spec : {};
  const errs = validateLabelSelector(spec.podSelector as LabelSelector | undefined, {}, 'spec.podSelector');
  for (const [key, peersKey] of [
    ['ingress', 'from'],
    ['egress', 'to'],
  ] as const) {
    objItems(spec, key).forEach((rule, i) => {
      const p = `spec.${key}[${i}]`;
      objItems(rule, 'ports').forEach((port, j) => errs.push(...validatePort(port, `${p}.ports[${j}]`)));
      objItems(rule, peersKey).forEach((peer, j) => errs.push(...validatePeer(peer, `${p}.${peersKey}[${j}]`)));
    });
  }
  const types = arrAt(spec, 'policyTypes');
  types.forEach((t, i) => {
    if (t !== 'Ingress' && t !== 'Egress') errs.push(fieldErr.notSupported(`spec.policyTypes[${i}]`, t, ['Ingress', 'Egress']));
  });
  if (types.length > 2) errs.push(fieldErr.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
  return errs;
}

export function networkPolicyStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    applyDefaults: defaultNetworkPolicy,
    generationChanged: specChanged,
    validateSpec: validateNetworkPolicySpec,
  });
}
