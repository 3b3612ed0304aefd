// Event strategies (pkg/registry/core/event, pkg/apis/core/validation/events.go). core/v1 Events get the lenient
// legacy checks; events.k8s.io/v1 Events the strict ones (eventTime, type, reportingController, action, reason).
import { fieldErr, type FieldError } from '../../../../../shared/api/field-errors';
import type { ResourceType } from '../../../../../shared/api/resources';
import type { KubeObject } from '../../../../../shared/api/types';
import { isDNS1123Subdomain, isQualifiedName, nameIsDNSSubdomain, validatePathSegmentName } from '../../../../../shared/lib/validation';
import type { ResourceStrategy } from '../../../types';
import { validateKubeObjectMeta, validateKubeObjectMetaUpdate } from '../../generic/kubemeta';
import { validateObjectMeta } from '../../generic/objectmeta';
import { defineStrategy } from '../../generic/strategy';
import { invalidEach, isObj, str } from '../../generic/util';

const ReportingInstanceLengthLimit = 128;
const ActionLengthLimit = 128;
const ReasonLengthLimit = 128;
const NoteLengthLimit = 1024;

/**
 * legacyValidateEvent: every Event gets it. Without eventTime (old-style events) only the namespace must agree;
 * with eventTime the reporting fields are required. `names` gives the fields' names in the request's API version.
 */
function legacyValidateEvent(ev: KubeObject, names: { involved: string; reporting: string; note: string }): FieldError[] {
  const errs: FieldError[] = [];
  const ns = ev.metadata.namespace ?? '';
  const involved = isObj(ev[names.involved]) ? (ev[names.involved] as Record<string, unknown>) : {};
  const involvedNs = str(involved.namespace);
  if (!ev.eventTime) {
    if (!involvedNs) {
      if (ns !== '' && ns !== 'default') errs.push(fieldErr.invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    } else if (ns !== involvedNs) {
      errs.push(fieldErr.invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    }
  } else {
    if (!involvedNs && ns !== 'default' && ns !== 'kube-system') {
      errs.push(fieldErr.invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
    }
    const rc = str(ev[names.reporting]);
    if (!rc) errs.push(fieldErr.required(names.reporting, ''));
    errs.push(...invalidEach(names.reporting, rc, isQualifiedName(rc)));
    const instance = str(ev.reportingInstance);
    if (!instance) errs.push(fieldErr.required('reportingInstance', ''));
    if (instance.length > ReportingInstanceLengthLimit) errs.push(fieldErr.invalid('reportingInstance', '', `can have at most ${ReportingInstanceLengthLimit} characters`));
    const action = str(ev.action);
    if (!action) errs.push(fieldErr.required('action', ''));
    if (action.length > ActionLengthLimit) errs.push(fieldErr.invalid('action', '', `can have at most ${ActionLengthLimit} characters`));
    const reason = str(ev.reason);
    if (!reason) errs.push(fieldErr.required('reason', ''));
    if (reason.length > ReasonLengthLimit) errs.push(fieldErr.invalid('reason', '', `can have at most ${ReasonLengthLimit} characters`));
    if (str(ev[names.note]).length > NoteLengthLimit) errs.push(fieldErr.invalid('message', '', `can have at most ${NoteLengthLimit} characters`));
  }
  errs.push(...invalidEach('namespace', ns, isDNS1123Subdomain(ns)));
  return errs;
}

/** core/v1 Events: the legacy checks only (their names follow just the generic path-segment rule). */
export function validateCoreEvent(ev: KubeObject): FieldError[] {
  return legacyValidateEvent(ev, { involved: 'involvedObject', reporting: 'reportingComponent', note: 'message' });
}

/** events.k8s.io/v1 Events: the legacy checks, then the strict ones. */
export function validateEventsV1Event(ev: KubeObject): FieldError[] {
  const errs = legacyValidateEvent(ev, { involved: 'regarding', reporting: 'reportingController', note: 'note' });
  if (isObj(ev.series)) {
    if (typeof ev.series.count !== 'number' || ev.series.count < 2) errs.push(fieldErr.invalid('series.count', '', 'should be at least 2'));
    if (!ev.series.lastObservedTime) errs.push(fieldErr.required('series.lastObservedTime', ''));
  }
  if (!ev.eventTime) errs.push(fieldErr.required('eventTime', ''));
  const type = str(ev.type);
  if (type !== 'Normal' && type !== 'Warning') errs.push(fieldErr.invalid('type', '', `has invalid value: ${type}`));
  if (ev.deprecatedFirstTimestamp) errs.push(fieldErr.invalid('firstTimestamp', '', 'needs to be unset'));
  if (ev.deprecatedLastTimestamp) errs.push(fieldErr.invalid('lastTimestamp', '', 'needs to be unset'));
  if (ev.deprecatedCount) errs.push(fieldErr.invalid('count', '', 'needs to be unset'));
  if (isObj(ev.deprecatedSource) && (str(ev.deprecatedSource.component) || str(ev.deprecatedSource.host))) {
    errs.push(fieldErr.invalid('source', '', 'needs to be unset'));
  }
  return errs;
}

function involvedField(ev: KubeObject, key: string): string {
  return isObj(ev.involvedObject) ? str(ev.involvedObject[key]) : '';
}

export function coreEventStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    // A recorder's Events repeat their source, and a kubelet's Events about one container their involvedObject.
    sharedSubtrees: [['source'], ['involvedObject']],
    validateFull: (ev) => [...validateObjectMeta(ev.metadata, true, validatePathSegmentName), ...validateCoreEvent(ev)],
    validateUpdateFull: (ev, old) => [...validateKubeObjectMetaUpdate(ev.metadata, old.metadata), ...validateCoreEvent(ev)],
    selectableFields: (ev) => ({
      'involvedObject.kind': involvedField(ev, 'kind'),
      'involvedObject.namespace': involvedField(ev, 'namespace'),
      'involvedObject.name': involvedField(ev, 'name'),
      'involvedObject.uid': involvedField(ev, 'uid'),
      'involvedObject.apiVersion': involvedField(ev, 'apiVersion'),
      'involvedObject.resourceVersion': involvedField(ev, 'resourceVersion'),
      'involvedObject.fieldPath': involvedField(ev, 'fieldPath'),
      reason: str(ev.reason),
      reportingComponent: str(ev.reportingComponent),
      source: isObj(ev.source) ? str(ev.source.component) : '',
      type: str(ev.type),
    }),
  });
}

export function eventsV1EventStrategy(rt: ResourceType): ResourceStrategy {
  return defineStrategy(rt, {
    validateFull: (ev) => [...validateKubeObjectMeta(ev.metadata, true, nameIsDNSSubdomain), ...validateEventsV1Event(ev)],
    validateUpdateFull: (ev, old) => [...validateKubeObjectMetaUpdate(ev.metadata, old.metadata), ...validateEventsV1Event(ev)],
    selectableFields: (ev) => {
      const regarding = isObj(ev.regarding) ? ev.regarding : {};
      return {
        'regarding.kind': str(regarding.kind),
        'regarding.namespace': str(regarding.namespace),
        'regarding.name': str(regarding.name),
        'regarding.uid': str(regarding.uid),
        'regarding.apiVersion': str(regarding.apiVersion),
        'regarding.resourceVersion': str(regarding.resourceVersion),
        'regarding.fieldPath': str(regarding.fieldPath),
        reason: str(ev.reason),
        reportingController: str(ev.reportingController),
        type: str(ev.type),
      };
    },
  });
}
