// policy, rbac, autoscaling, coordination and scheduling: disruption budgets, role bindings, horizontal pod
// autoscalers, leases and priority classes (printers.go, v1.32 columns).
import type { KubeObject } from '../../../shared/api/types';
import { quantity } from './core';
import { ageColumn, arr, column, field, nameColumn, num, rec, str, translateTimestampSince, type KindPrinter } from './table';

const name = (obj: KubeObject): string => obj.metadata?.name ?? '';
const age = (obj: KubeObject, now: number): string => translateTimestampSince(obj.metadata?.creationTimestamp, now);

const intOrString = (v: unknown): string => (typeof v === 'number' || typeof v === 'string' ? String(v) : 'N/A');

export const podDisruptionBudgetPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Min Available', 'string', 'The minimum number of pods that must be available.'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable.'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageColumn(),
  ],
  cells: (obj, { now }) => [
    name(obj),
    intOrString(field(obj, 'spec', 'minAvailable')),
    intOrString(field(obj, 'spec', 'maxUnavailable')),
    num(field(obj, 'status', 'disruptionsAllowed')),
    age(obj, now),
  ],
};

/** rbac.SubjectsStrings: users, groups and "namespace/name" service accounts. */
function subjectsStrings(subjects: unknown[]): [string, string, string] {
  const users: string[] = [];
  const groups: string[] = [];
  const sas: string[] = [];
  for (const s of subjects) {
    const kind = field(s, 'kind');
    if (kind === 'ServiceAccount') sas.push(`${str(field(s, 'namespace'))}/${str(field(s, 'name'))}`);
    else if (kind === 'User') users.push(str(field(s, 'name')));
    else if (kind === 'Group') groups.push(str(field(s, 'name')));
  }
  return [users.join(', '), groups.join(', '), sas.join(', ')];
}

function bindingPrinter(what: string, roleRefDoc: string): KindPrinter {
  return {
    columns: [
      nameColumn(),
      column('Role', 'string', roleRefDoc),
      ageColumn(),
      column('Users', 'string', `Users in the ${what}`, { priority: 1 }),
      column('Groups', 'string', `Groups in the ${what}`, { priority: 1 }),
      column('ServiceAccounts', 'string', `ServiceAccounts in the ${what}`, { priority: 1 }),
    ],
    cells(obj, { now }) {
      const roleRef = `${str(field(obj, 'roleRef', 'kind'))}/${str(field(obj, 'roleRef', 'name'))}`;
      return [name(obj), roleRef, age(obj, now), ...subjectsStrings(arr(field(obj, 'subjects')))];
    },
  };
}

export const roleBindingPrinter = bindingPrinter('roleBinding', 'io.k8s.api.rbac.v1.RoleBinding#roleRef');
export const clusterRoleBindingPrinter = bindingPrinter('clusterRoleBinding', 'io.k8s.api.rbac.v1.ClusterRoleBinding#roleRef');

// ---------------------------------------------------------------- autoscaling

const hpaSpec = 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec';

/** "<current>/<target>" for a metric target: averageValue → "x/y (avg)" for External/Object, utilization → "cpu: 12%/50%". */
function formatHPAMetrics(specs: unknown[], statuses: unknown[]): string {
  if (specs.length === 0) return '<none>';
  const list: string[] = [];
  const max = 2;
  let count = 0;
  specs.forEach((spec, i) => {
    const status = statuses[i];
    const type = field(spec, 'type');
    switch (type) {
      case 'External':
      case 'Object': {
        const key = type === 'External' ? 'external' : 'object';
        const target = rec(field(spec, key, 'target'));
        const current = field(status, key, 'current');
        if (target.averageValue !== undefined) {
          const cur = current && field(current, 'averageValue') !== undefined ? quantity(field(current, 'averageValue')) : '<unknown>';
          list.push(`${cur}/${quantity(target.averageValue)} (avg)`);
        } else {
          const cur = current ? quantity(field(current, 'value')) : '<unknown>';
          list.push(`${cur}/${quantity(target.value)}`);
        }
        break;
      }
      case 'Pods': {
        const current = field(status, 'pods', 'current');
        const cur = current ? quantity(field(current, 'averageValue')) : '<unknown>';
        list.push(`${cur}/${quantity(field(spec, 'pods', 'target', 'averageValue'))}`);
        break;
      }
      case 'Resource':
      case 'ContainerResource': {
        const key = type === 'Resource' ? 'resource' : 'containerResource';
        const resourceName = str(field(spec, key, 'name'));
        const target = rec(field(spec, key, 'target'));
        const current = field(status, key, 'current');
        if (target.averageValue !== undefined) {
          const cur = current ? quantity(field(current, 'averageValue')) : '<unknown>';
          list.push(`${resourceName}: ${cur}/${quantity(target.averageValue)}`);
        } else {
          const utilization = field(current, 'averageUtilization');
          const cur = typeof utilization === 'number' ? `${utilization}%` : '<unknown>';
          const tgt = typeof target.averageUtilization === 'number' ? `${target.averageUtilization}%` : '<auto>';
          list.push(`${resourceName}: ${cur}/${tgt}`);
        }
        break;
      }
      default:
        list.push('<unknown type>');
    }
    count++;
  });
  if (count > max) return `${list.slice(0, max).join(', ')} + ${count - max} more...`;
  return list.join(', ');
}

export const horizontalPodAutoscalerPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Reference', 'string', `${hpaSpec}#scaleTargetRef`),
    column('Targets', 'string', `${hpaSpec}#metrics`),
    column('MinPods', 'string', `${hpaSpec}#minReplicas`),
    column('MaxPods', 'string', `${hpaSpec}#maxReplicas`),
    column('Replicas', 'string', 'io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus#currentReplicas'),
    ageColumn(),
  ],
  cells(hpa, { now }) {
    const spec = rec(field(hpa, 'spec'));
    const reference = `${str(field(spec.scaleTargetRef, 'kind'))}/${str(field(spec.scaleTargetRef, 'name'))}`;
    const minPods = typeof spec.minReplicas === 'number' ? String(spec.minReplicas) : '<unset>';
    return [
      name(hpa),
      reference,
      formatHPAMetrics(arr(spec.metrics), arr(field(hpa, 'status', 'currentMetrics'))),
      minPods,
      num(spec.maxReplicas),
      num(field(hpa, 'status', 'currentReplicas')),
      age(hpa, now),
    ];
  },
};

// ---------------------------------------------------------------- coordination and scheduling

export const leasePrinter: KindPrinter = {
  columns: [nameColumn(), column('Holder', 'string', 'io.k8s.api.coordination.v1.LeaseSpec#holderIdentity'), ageColumn()],
  cells: (obj, { now }) => [name(obj), str(field(obj, 'spec', 'holderIdentity')), age(obj, now)],
};

const priorityClassDoc = 'io.k8s.api.scheduling.v1.PriorityClass';

export const priorityClassPrinter: KindPrinter = {
  columns: [
    nameColumn(),
    column('Value', 'integer', `${priorityClassDoc}#value`),
    column('Global-Default', 'boolean', `${priorityClassDoc}#globalDefault`),
    ageColumn(),
    column('PreemptionPolicy', 'string', `${priorityClassDoc}#preemptionPolicy`),
  ],
  cells(obj, { now }) {
    const o = obj as unknown as Record<string, unknown>;
    return [name(obj), num(o.value), o.globalDefault === true, age(obj, now), str(o.preemptionPolicy)];
  },
};
