// Priority (plugin/pkg/admission/priority/admission.go): a new pod's spec.priorityClassName is resolved into
// spec.priority and spec.preemptionPolicy; without a name the globalDefault class applies (the lowest value if
// several claim it), else priority 0. A PriorityClass may be globalDefault only if no other one is.
//
//   priorityClassName: high-priority (value 1000000) → priority 1000000, preemptionPolicy PreemptLowerPriority
//   priorityClassName: nope → pods "web" is forbidden: no PriorityClass with name nope was found
//
// The API server creates the two system classes at start (SystemPriorityClasses, the scheduling/bootstrap-
// system-priority-classes post-start hook): systemPriorityClassObjects().
import type { KubeObject } from '../../../shared/api/types';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation, MutatingAdmissionPlugin, ValidatingAdmissionPlugin } from '../types';
import { AdmissionOperation as Op } from '../types';
import { SystemPriorityClasses } from '../registry/scheduling/priorityclass/strategy';
import { admissionForbidden } from './errors';

export const PriorityPluginName = 'Priority';

const priorityClassesGR = Object.freeze({ group: 'scheduling.k8s.io', resource: 'priorityclasses' });

/** DefaultPriorityWhenNoDefaultClassExists. */
export const DefaultPriorityWhenNoDefaultClassExists = 0;

interface PriorityClassObj extends KubeObject {
  value?: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
}

const systemDescriptions: Readonly<Record<string, string>> = {
  'system-node-critical': 'Used for system critical pods that must not be moved from their current node.',
  'system-cluster-critical': 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
};

/** The system priority classes the API server bootstraps. */
export function systemPriorityClassObjects(): KubeObject[] {
  return Object.keys(SystemPriorityClasses).map((name) => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name },
    value: SystemPriorityClasses[name],
    description: systemDescriptions[name],
  }));
}

/** getDefaultPriorityClass: the globalDefault class with the lowest value. */
export function getDefaultPriorityClass(classes: readonly KubeObject[]): PriorityClassObj | undefined {
  let found: PriorityClassObj | undefined;
  for (const pc of classes as PriorityClassObj[]) {
    if (pc.globalDefault && (found === undefined || (found.value ?? 0) > (pc.value ?? 0))) found = pc;
  }
  return found;
}

export class PriorityAdmission implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
  readonly name = PriorityPluginName;

  handles(op: AdmissionOperation): boolean {
    return op === Op.Create || op === Op.Update;
  }

  admit(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    if (attrs.subresource || attrs.resourceType.group !== '' || attrs.resourceType.resource !== 'pods' || !attrs.object) return;
    const spec = ((attrs.object.spec ??= {}) as Record<string, unknown>);
    if (attrs.operation === Op.Update) {
      // The priority set on create is kept; validation refuses any other change to it.
      const old = (attrs.oldObject?.spec ?? {}) as Record<string, unknown>;
      if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
      if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    let priority: number;
    let preemptionPolicy: string | undefined;
    const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
    if (!className) {
      const dpc = getDefaultPriorityClass(ctx.reader.list(priorityClassesGR));
      if (dpc) {
        spec.priorityClassName = dpc.metadata.name;
        priority = dpc.value ?? 0;
        preemptionPolicy = dpc.preemptionPolicy;
      } else {
        priority = DefaultPriorityWhenNoDefaultClassExists;
        preemptionPolicy = 'PreemptLowerPriority';
      }
    } else {
      const pc = ctx.reader.get(priorityClassesGR, undefined, className) as PriorityClassObj | undefined;
      if (!pc) throw admissionForbidden(attrs, `no PriorityClass with name ${className} was found`);
      priority = pc.value ?? 0;
      preemptionPolicy = pc.preemptionPolicy;
    }
    if (typeof spec.priority === 'number' && spec.priority !== priority) {
      throw admissionForbidden(
        attrs,
        `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
      );
    }
    spec.priority = priority;
    if (preemptionPolicy) {
      if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== preemptionPolicy) {
        throw admissionForbidden(
          attrs,
          `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`,
        );
      }
      spec.preemptionPolicy = preemptionPolicy;
    }
  }

  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    if (attrs.subresource || attrs.resourceType.group !== priorityClassesGR.group || attrs.resourceType.resource !== priorityClassesGR.resource) return;
    const pc = attrs.object as PriorityClassObj | undefined;
    if (!pc?.globalDefault) return;
    const dpc = getDefaultPriorityClass(ctx.reader.list(priorityClassesGR));
    if (!dpc) return;
    if (attrs.operation === Op.Create || dpc.metadata.name !== pc.metadata.name) {
      throw admissionForbidden(attrs, `PriorityClass ${dpc.metadata.name} is already marked as default. Only one default can exist`);
    }
  }
}
