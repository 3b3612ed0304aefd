// NamespaceLifecycle (apiserver/pkg/admission/plugin/namespace/lifecycle/admission.go). A mutating plugin in
// Kubernetes (it implements Admit), so it refuses before any other plugin looks at the object.
import { newForbidden, newNotFound } from '../../../shared/api/status';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation, MutatingAdmissionPlugin } from '../types';
import { AdmissionOperation as Op } from '../types';
import { admissionForbidden } from './errors';

export const NamespaceLifecyclePluginName = 'NamespaceLifecycle';

/** default, kube-system and kube-public: the API server refuses to delete them. */
export const immortalNamespaces: readonly string[] = ['default', 'kube-system', 'kube-public'];

const namespacesGR = Object.freeze({ group: '', resource: 'namespaces' });

/** Access reviews must not reveal whether a namespace exists. */
const accessReviewResources = new Set(['authorization.k8s.io/localsubjectaccessreviews']);

export const namespaceLifecycle: MutatingAdmissionPlugin = {
  name: NamespaceLifecyclePluginName,
  handles(op: AdmissionOperation): boolean {
    return op === Op.Create || op === Op.Update || op === Op.Delete;
  },
  admit(attrs: AdmissionAttributes, ctx: AdmissionContext): void {
    const { group, kind } = attrs.resourceType;
    const isNamespace = group === '' && kind === 'Namespace';
    if (attrs.operation === Op.Delete && isNamespace && immortalNamespaces.includes(attrs.name)) {
      throw newForbidden(namespacesGR, attrs.name, 'this namespace may not be deleted');
    }
    // Cluster-scoped objects and the namespaces themselves pass.
    if (!attrs.namespace || isNamespace) return;
    if (attrs.operation === Op.Delete) return;
    if (accessReviewResources.has(`${group}/${attrs.resourceType.resource}`)) return;

    const ns = ctx.reader.get(namespacesGR, undefined, attrs.namespace);
    if (!ns) throw newNotFound(namespacesGR, attrs.namespace);
    if (attrs.operation !== Op.Create) return;
    const phase = (ns.status as { phase?: string } | undefined)?.phase;
    if (phase !== 'Terminating') return;
    const err = admissionForbidden(attrs, `unable to create new content in namespace ${attrs.namespace} because it is being terminated`);
    const details = err.status.details ?? (err.status.details = {});
    details.causes = [
      ...(details.causes ?? []),
      { reason: 'NamespaceTerminating', message: `namespace ${attrs.namespace} is being terminated`, field: 'metadata.namespace' },
    ];
    throw err;
  },
};
