import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/api/types';
import { defaultTolerationSecondsPlugin } from './default-toleration-seconds';
import { FakeReader, admissionAttrs, fakeAdmissionContext } from './fake-reader';

const pods = { group: '', resource: 'pods' };
const { ctx } = fakeAdmissionContext(new FakeReader());

function admit(tolerations?: unknown[]): unknown[] {
  const p: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'default', name: 'p' }, spec: { containers: [], tolerations } };
  defaultTolerationSecondsPlugin.admit(admissionAttrs(pods, p), ctx);
  return (p.spec as { tolerations: unknown[] }).tolerations;
}

describe('DefaultTolerationSeconds', () => {
  it('adds not-ready and unreachable NoExecute tolerations of 300 s', () => {
    expect(admit()).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  it('keeps a toleration the pod already has for either taint', () => {
    const own = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 6000 };
    expect(admit([own])).toEqual([own, { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]);
  });

  it('treats an empty key or effect as tolerating everything', () => {
    expect(admit([{ operator: 'Exists' }])).toEqual([{ operator: 'Exists' }]);
    // A NoSchedule toleration does not cover NoExecute.
    expect(admit([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' }])).toHaveLength(3);
  });
});
