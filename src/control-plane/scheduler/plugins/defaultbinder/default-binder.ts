// DefaultBinder (pkg/scheduler/framework/plugins/defaultbinder): POSTs a Binding to the pod's binding
// subresource. The binding carries the pod's uid, so a pod deleted and recreated under the same name is not
// bound by mistake; the API server refuses (409) a pod that is already assigned.
import type { Binding } from 'kubernetes-types/core/v1';
import type { Client } from '../../../client/client';
import type { CycleState } from '../../framework/cycle-state';
import type { BindPlugin } from '../../framework/interface';
import { asStatus, type Status } from '../../framework/status';
import type { PodInfo } from '../../framework/types';

export const Name = 'DefaultBinder';

export class DefaultBinder {
  readonly name = Name;
  constructor(private readonly client: Client) {}

  bind(_state: CycleState, pod: PodInfo, nodeName: string): Status | undefined {
    const binding: Binding = {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { namespace: pod.namespace, name: pod.pod.metadata.name, uid: pod.uid },
      target: { kind: 'Node', name: nodeName },
    };
    try {
      this.client.handle({
        verb: 'create',
        group: '',
        version: 'v1',
        resource: 'pods',
        subresource: 'binding',
        namespace: pod.namespace,
        name: pod.pod.metadata.name,
        body: binding,
      });
      return undefined;
    } catch (err) {
      return asStatus(err);
    }
  }
}

DefaultBinder.prototype satisfies BindPlugin;
