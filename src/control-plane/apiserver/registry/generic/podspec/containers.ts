// Container validation (validateContainers, validateInitContainers, validateContainerCommon and their helpers):
// names, image, ports, env, envFrom, volume mounts, pull policy, probes, lifecycle, resources, security context.
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import {
  inclusiveRangeError,
  isConfigMapKey,
  isDNS1123Label,
  isEnvVarName,
  isHTTPHeaderName,
  isQualifiedName,
  isValidPortName,
  isValidPortNum,
  nameIsDNSSubdomain,
} from '../../../../../shared/lib/validation';
import { type Obj, arrAt, invalidEach, isObj, objItems, str, validateNonnegativeField } from '../util';
import { validateContainerResourceRequirements } from './resources';
import { validateLocalDescendingPath } from './volumes';

const supportedPortProtocols = ['SCTP', 'TCP', 'UDP'];
const MaxInt32 = 2147483647;

function validateContainerPorts(ports: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = `${path}[${i}]`;
    const name = str(port.name);
    if (name) {
      const msgs = isValidPortName(name);
      if (msgs.length) errs.push(...invalidEach(`${p}.name`, name, msgs));
      else if (names.has(name)) errs.push(fieldErr.duplicate(`${p}.name`, name));
      else names.add(name);
    }
    const containerPort = typeof port.containerPort === 'number' ? port.containerPort : 0;
    if (containerPort === 0) errs.push(fieldErr.required(`${p}.containerPort`, ''));
    else errs.push(...invalidEach(`${p}.containerPort`, containerPort, isValidPortNum(containerPort)));
    const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
    if (hostPort !== 0) errs.push(...invalidEach(`${p}.hostPort`, hostPort, isValidPortNum(hostPort)));
    const protocol = str(port.protocol);
    if (!protocol) errs.push(fieldErr.required(`${p}.protocol`, ''));
    else if (!supportedPortProtocols.includes(protocol)) errs.push(fieldErr.notSupported(`${p}.protocol`, protocol, supportedPortProtocols));
  });
  return errs;
}

const envFieldPaths = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];
// Field labels the v1 downward API converts at all; anything else is "field label not supported".
const convertibleFieldPaths = new Set([
  ...envFieldPaths,
  'metadata.annotations',
  'metadata.labels',
  'spec.restartPolicy',
  'spec.schedulerName',
  'status.phase',
]);
const resourceFieldPaths = [
  'limits.cpu',
  'limits.ephemeral-storage',
  'limits.memory',
  'requests.cpu',
  'requests.ephemeral-storage',
  'requests.memory',
];

export function validateObjectFieldSelector(fs: Obj, expressions: readonly string[], path: string): FieldError[] {
  if (!str(fs.apiVersion)) return [fieldErr.required(`${path}.apiVersion`, '')];
  const fieldPath = str(fs.fieldPath);
  if (!fieldPath) return [fieldErr.required(`${path}.fieldPath`, '')];
  const sub = /^(metadata\.(?:annotations|labels))\['(.*)'\]$/.exec(fieldPath);
  if (sub) return invalidEach(path, sub[1] === 'metadata.annotations' ? sub[2].toLowerCase() : sub[2], isQualifiedName(sub[1] === 'metadata.annotations' ? sub[2].toLowerCase() : sub[2]));
  if (!convertibleFieldPaths.has(fieldPath) || str(fs.apiVersion) !== 'v1') {
    return [fieldErr.invalid(`${path}.fieldPath`, fieldPath, `error converting fieldPath: field label not supported: ${fieldPath}`)];
  }
  if (!expressions.includes(fieldPath)) return [fieldErr.notSupported(`${path}.fieldPath`, fieldPath, expressions)];
  return [];
}

function validateKeySelector(s: Obj, path: string): FieldError[] {
  const errs = invalidEach(`${path}.name`, str(s.name), nameIsDNSSubdomain(str(s.name), false));
  if (!str(s.key)) errs.push(fieldErr.required(`${path}.key`, ''));
  else errs.push(...invalidEach(`${path}.key`, str(s.key), isConfigMapKey(str(s.key))));
  return errs;
}

function validateEnv(env: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  env.forEach((ev, i) => {
    const p = `${path}[${i}]`;
    const name = str(ev.name);
    if (!name) errs.push(fieldErr.required(`${p}.name`, ''));
    else errs.push(...invalidEach(`${p}.name`, name, isEnvVarName(name)));
    const vf = ev.valueFrom;
    if (!isObj(vf)) return;
    const vp = `${p}.valueFrom`;
    let sources = 0;
    if (isObj(vf.fieldRef)) {
      sources++;
      errs.push(...validateObjectFieldSelector(vf.fieldRef, envFieldPaths, `${vp}.fieldRef`));
    }
    if (isObj(vf.resourceFieldRef)) {
      sources++;
      const resource = str(vf.resourceFieldRef.resource);
      if (!resource) errs.push(fieldErr.required(`${vp}.resourceFieldRef.resource`, ''));
      else if (!resourceFieldPaths.includes(resource) && !/^(requests|limits)\.hugepages-/.test(resource)) {
        errs.push(fieldErr.notSupported(`${vp}.resourceFieldRef.resource`, resource, resourceFieldPaths));
      }
    }
    if (isObj(vf.configMapKeyRef)) {
      sources++;
      errs.push(...validateKeySelector(vf.configMapKeyRef, `${vp}.configMapKeyRef`));
    }
    if (isObj(vf.secretKeyRef)) {
      sources++;
      errs.push(...validateKeySelector(vf.secretKeyRef, `${vp}.secretKeyRef`));
    }
    if (sources === 0) {
      errs.push(fieldErr.invalid(vp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
    } else if (str(ev.value)) {
      errs.push(fieldErr.invalid(vp, '', 'may not be specified when `value` is not empty'));
    } else if (sources > 1) {
      errs.push(fieldErr.invalid(vp, '', 'may not have more than one field specified at a time'));
    }
  });
  return errs;
}

function validateEnvFrom(envFrom: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  envFrom.forEach((ev, i) => {
    const p = `${path}[${i}]`;
    if (str(ev.prefix)) errs.push(...invalidEach(`${p}.prefix`, str(ev.prefix), isEnvVarName(str(ev.prefix))));
    let sources = 0;
    for (const key of ['configMapRef', 'secretRef']) {
      const ref = ev[key];
      if (!isObj(ref)) continue;
      sources++;
      const name = str(ref.name);
      if (!name) errs.push(fieldErr.required(`${p}.${key}.name`, ''));
      else errs.push(...invalidEach(`${p}.${key}.name`, name, nameIsDNSSubdomain(name, true)));
    }
    if (sources === 0) errs.push(fieldErr.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1) errs.push(fieldErr.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return errs;
}

function validateVolumeMounts(mounts: Obj[], volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  mounts.forEach((m, i) => {
    const p = `${path}[${i}]`;
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (!name) errs.push(fieldErr.required(`${p}.name`, ''));
    if (!volumes.has(name)) errs.push(fieldErr.notFound(`${p}.name`, name));
    if (!mountPath) errs.push(fieldErr.required(`${p}.mountPath`, ''));
    if (mountPoints.has(mountPath)) errs.push(fieldErr.invalid(`${p}.mountPath`, mountPath, 'must be unique'));
    mountPoints.add(mountPath);
    if (str(m.subPath)) errs.push(...validateLocalDescendingPath(str(m.subPath), `${path}.subPath`));
    if (str(m.subPathExpr)) {
      if (str(m.subPath)) errs.push(fieldErr.invalid(`${p}.subPathExpr`, m.subPathExpr, 'subPathExpr and subPath are mutually exclusive'));
      errs.push(...validateLocalDescendingPath(str(m.subPathExpr), `${path}.subPathExpr`));
    }
  });
  return errs;
}

function validatePullPolicy(policy: unknown, path: string): FieldError[] {
  const p = str(policy);
  if (p === 'Always' || p === 'IfNotPresent' || p === 'Never') return [];
  if (!p) return [fieldErr.required(path, '')];
  return [fieldErr.notSupported(path, p, ['Always', 'IfNotPresent', 'Never'])];
}

function validatePortNumOrName(port: unknown, path: string): FieldError[] {
  if (typeof port === 'number') return invalidEach(path, port, isValidPortNum(port));
  if (typeof port === 'string') return invalidEach(path, port, isValidPortName(port));
  return [fieldErr.internal(path, `unknown type: ${port === undefined ? 'nil' : typeof port}`)];
}

function validateHandler(handler: Obj, gracePeriod: number | undefined, path: string, allowSleep: boolean): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  const kinds = allowSleep ? ['exec', 'httpGet', 'tcpSocket', 'sleep'] : ['exec', 'httpGet', 'tcpSocket', 'grpc'];
  for (const kind of kinds) {
    const h = handler[kind];
    if (!isObj(h)) continue;
    if (count > 0) {
      errs.push(fieldErr.forbidden(`${path}.${kind}`, 'may not specify more than 1 handler type'));
      continue;
    }
    count++;
    const p = `${path}.${kind}`;
    switch (kind) {
      case 'exec':
        if (arrAt(h, 'command').length === 0) errs.push(fieldErr.required(`${p}.command`, ''));
        break;
      case 'httpGet':
        if (!str(h.path)) errs.push(fieldErr.required(`${p}.path`, ''));
        errs.push(...validatePortNumOrName(h.port, `${p}.port`));
        if (h.scheme !== 'HTTP' && h.scheme !== 'HTTPS') errs.push(fieldErr.notSupported(`${p}.scheme`, h.scheme ?? '', ['HTTP', 'HTTPS']));
        for (const header of objItems(h, 'httpHeaders')) errs.push(...invalidEach(`${p}.httpHeaders`, str(header.name), isHTTPHeaderName(str(header.name))));
        break;
      case 'tcpSocket':
        errs.push(...validatePortNumOrName(h.port, `${p}.port`));
        break;
      case 'grpc':
        errs.push(...validatePortNumOrName(typeof h.port === 'number' ? h.port : 0, `${p}.port`));
        break;
      case 'sleep': {
        const seconds = typeof h.seconds === 'number' ? h.seconds : 0;
        if (gracePeriod !== undefined && (seconds <= 0 || seconds > gracePeriod)) {
          errs.push(
            fieldErr.invalid(
              p,
              seconds,
              `must be greater than 0 and less than terminationGracePeriodSeconds (${gracePeriod}). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.`,
            ),
          );
        }
        break;
      }
    }
  }
  if (count === 0) errs.push(fieldErr.required(path, 'must specify a handler type'));
  return errs;
}

function validateProbe(probe: unknown, gracePeriod: number | undefined, path: string, kind: 'liveness' | 'readiness' | 'startup'): FieldError[] {
  if (!isObj(probe)) return [];
  const errs = validateHandler(probe, gracePeriod, path, false);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
    errs.push(...validateNonnegativeField(probe[f], `${path}.${f}`));
  }
  const tgps = probe.terminationGracePeriodSeconds;
  if (typeof tgps === 'number' && tgps <= 0) errs.push(fieldErr.invalid(`${path}.terminationGracePeriodSeconds`, tgps, 'must be greater than 0'));
  if (kind === 'readiness' && tgps !== undefined && tgps !== null) {
    errs.push(fieldErr.invalid(`${path}.terminationGracePeriodSeconds`, tgps, 'must not be set for readinessProbes'));
  }
  if (kind !== 'readiness' && (probe.successThreshold ?? 1) !== 1) {
    errs.push(fieldErr.invalid(`${path}.successThreshold`, probe.successThreshold, 'must be 1'));
  }
  return errs;
}

function validateLifecycle(lifecycle: Obj, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isObj(lifecycle.postStart)) errs.push(...validateHandler(lifecycle.postStart, gracePeriod, `${path}.postStart`, true));
  if (isObj(lifecycle.preStop)) errs.push(...validateHandler(lifecycle.preStop, gracePeriod, `${path}.preStop`, true));
  return errs;
}

function validateSecurityContext(sc: unknown, path: string): FieldError[] {
  if (!isObj(sc)) return [];
  const errs: FieldError[] = [];
  for (const f of ['runAsUser', 'runAsGroup']) {
    const v = sc[f];
    if (typeof v === 'number' && (v < 0 || v > MaxInt32)) errs.push(fieldErr.invalid(`${path}.${f}`, v, inclusiveRangeError(0, MaxInt32)));
  }
  if (sc.allowPrivilegeEscalation === false && sc.privileged === true) {
    errs.push(fieldErr.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
  }
  return errs;
}

function validateContainerCommon(c: Obj, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = str(c.name);
  if (!name) errs.push(fieldErr.required(`${path}.name`, ''));
  else errs.push(...invalidEach(`${path}.name`, name, isDNS1123Label(name)));
  if (!str(c.image)) errs.push(fieldErr.required(`${path}.image`, ''));
  const tmp = str(c.terminationMessagePolicy);
  if (!tmp) errs.push(fieldErr.required(`${path}.terminationMessagePolicy`, ''));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    errs.push(fieldErr.notSupported(`${path}.terminationMessagePolicy`, tmp, ['File', 'FallbackToLogsOnError']));
  }
  errs.push(...validateContainerPorts(objItems(c, 'ports'), `${path}.ports`));
  errs.push(...validateEnv(objItems(c, 'env'), `${path}.env`));
  errs.push(...validateEnvFrom(objItems(c, 'envFrom'), `${path}.envFrom`));
  errs.push(...validateVolumeMounts(objItems(c, 'volumeMounts'), volumes, `${path}.volumeMounts`));
  errs.push(...validatePullPolicy(c.imagePullPolicy, `${path}.imagePullPolicy`));
  errs.push(...validateContainerResourceRequirements(c.resources, `${path}.resources`));
  errs.push(...validateSecurityContext(c.securityContext, `${path}.securityContext`));
  return errs;
}

/** AccumulateUniqueHostPorts: the same protocol/hostIP/hostPort may not be used twice. */
function checkHostPortConflicts(containers: Obj[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    objItems(c, 'ports').forEach((port, pi) => {
      const hostPort = typeof port.hostPort === 'number' ? port.hostPort : 0;
      if (!hostPort) return;
      const key = `${str(port.protocol)}/${str(port.hostIP)}/${hostPort}`;
      if (seen.has(key)) errs.push(fieldErr.duplicate(`${path}[${ci}].ports[${pi}].hostPort`, key));
      else seen.add(key);
    });
  });
  return errs;
}

export function validateContainers(containers: Obj[], volumes: Set<string>, gracePeriod: number | undefined, path: string): FieldError[] {
  if (containers.length === 0) return [fieldErr.required(path, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, p));
    const name = str(c.name);
    if (names.has(name)) errs.push(fieldErr.duplicate(`${p}.name`, name));
    else names.add(name);
    if (isObj(c.lifecycle)) errs.push(...validateLifecycle(c.lifecycle, gracePeriod, `${p}.lifecycle`));
    errs.push(...validateProbe(c.livenessProbe, gracePeriod, `${p}.livenessProbe`, 'liveness'));
    errs.push(...validateProbe(c.readinessProbe, gracePeriod, `${p}.readinessProbe`, 'readiness'));
    errs.push(...validateProbe(c.startupProbe, gracePeriod, `${p}.startupProbe`, 'startup'));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      errs.push(fieldErr.forbidden(`${p}.restartPolicy`, 'may not be set for non-init containers'));
    }
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

export function validateInitContainers(
  initContainers: Obj[],
  containers: Obj[],
  volumes: Set<string>,
  gracePeriod: number | undefined,
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(containers.map((c) => str(c.name)));
  initContainers.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, p));
    let restartAlways = false;
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      if (c.restartPolicy !== 'Always') errs.push(fieldErr.notSupported(`${p}.restartPolicy`, c.restartPolicy, ['Always']));
      restartAlways = c.restartPolicy === 'Always';
    }
    const name = str(c.name);
    if (names.has(name)) errs.push(fieldErr.duplicate(`${p}.name`, name));
    else if (name) names.add(name);
    errs.push(...checkHostPortConflicts([c], path));
    if (restartAlways) {
      if (isObj(c.lifecycle)) errs.push(...validateLifecycle(c.lifecycle, gracePeriod, `${p}.lifecycle`));
      errs.push(...validateProbe(c.livenessProbe, gracePeriod, `${p}.livenessProbe`, 'liveness'));
      errs.push(...validateProbe(c.readinessProbe, gracePeriod, `${p}.readinessProbe`, 'readiness'));
      errs.push(...validateProbe(c.startupProbe, gracePeriod, `${p}.startupProbe`, 'startup'));
    } else {
      for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
        if (c[f] !== undefined && c[f] !== null) {
          errs.push(fieldErr.forbidden(`${p}.${f}`, 'may not be set for init containers without restartPolicy=Always'));
        }
      }
    }
  });
  return errs;
}

export function validateEphemeralContainers(ephemeral: Obj[], containers: Obj[], initContainers: Obj[], volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const others = new Set([...containers, ...initContainers].map((c) => str(c.name)));
  const all = new Set(others);
  ephemeral.forEach((c, i) => {
    const p = `${path}[${i}]`;
    errs.push(...validateContainerCommon(c, volumes, p));
    const name = str(c.name);
    if (all.has(name)) errs.push(fieldErr.duplicate(`${p}.name`, name));
    else all.add(name);
    if (str(c.targetContainerName) && !others.has(str(c.targetContainerName))) {
      errs.push(fieldErr.notFound(`${p}.targetContainerName`, c.targetContainerName));
    }
    for (const f of ['ports', 'resources', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle']) {
      const v = c[f];
      const set = Array.isArray(v) ? v.length > 0 : isObj(v) ? Object.keys(v).length > 0 : v !== undefined && v !== null;
      if (set) errs.push(fieldErr.forbidden(`${p}.${f}`, 'cannot be set for an Ephemeral Container'));
    }
  });
  return errs;
}
