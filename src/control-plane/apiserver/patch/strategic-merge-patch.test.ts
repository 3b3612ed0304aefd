import { describe, expect, it } from 'vitest';
import { builtinSchemaHints } from './list-types';
import { applyStrategicMergePatch } from './strategic-merge-patch';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', finalizers: ['a.example.com/x'] },
  spec: {
    replicas: 2,
    template: {
      spec: {
        containers: [
          { name: 'web', image: 'nginx:1.25', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] },
          { name: 'sidecar', image: 'busybox' },
        ],
        tolerations: [{ key: 'a', operator: 'Exists' }],
        volumes: [{ name: 'data', emptyDir: {} }],
      },
    },
  },
};
const hints = builtinSchemaHints('Deployment');
const smp = (patch: unknown): any => applyStrategicMergePatch(deployment, patch, hints);

describe('strategic merge patch', () => {
  it('merges containers by name and their env by name', () => {
    const out = smp({ spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.27', env: [{ name: 'B', value: '2' }] }] } } } });
    expect(out.spec.template.spec.containers).toEqual([
      { name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] },
      { name: 'sidecar', image: 'busybox' },
    ]);
  });

  it('appends a new container and deletes one with $patch: delete', () => {
    const out = smp({ spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }, { name: 'new', image: 'redis' }] } } } });
    expect(out.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['web', 'new']);
  });

  it('replaces lists without a merge strategy (tolerations)', () => {
    const out = smp({ spec: { template: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } } } });
    expect(out.spec.template.spec.tolerations).toEqual([{ key: 'b', operator: 'Exists' }]);
  });

  it('merges finalizers as a set and removes with $deleteFromPrimitiveList', () => {
    expect(smp({ metadata: { finalizers: ['b.example.com/y', 'a.example.com/x'] } }).metadata.finalizers).toEqual(['a.example.com/x', 'b.example.com/y']);
    expect(smp({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a.example.com/x'] } }).metadata.finalizers).toEqual([]);
  });

  it('deletes with null and replaces maps with $patch: replace', () => {
    const out = smp({ spec: { replicas: null, template: { spec: { $patch: 'replace', containers: [{ name: 'only', image: 'x' }] } } } });
    expect(out.spec.replicas).toBeUndefined();
    expect(out.spec.template.spec).toEqual({ containers: [{ name: 'only', image: 'x' }] });
  });

  it('replaces a whole merge list with a $patch: replace element', () => {
    const out = smp({ spec: { template: { spec: { containers: [{ $patch: 'replace' }, { name: 'solo', image: 'x' }] } } } });
    expect(out.spec.template.spec.containers).toEqual([{ name: 'solo', image: 'x' }]);
  });

  it('honours $retainKeys and $setElementOrder', () => {
    const base = { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } }, template: deployment.spec.template } };
    const out = applyStrategicMergePatch(base, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, hints) as any;
    expect(out.spec.strategy).toEqual({ type: 'Recreate' });
    const ordered = applyStrategicMergePatch(
      base,
      { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'web' }] } } } },
      hints,
    ) as any;
    expect(ordered.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['sidecar', 'web']);
  });

  it('merges container ports by containerPort and service ports by port', () => {
    const out = smp({ spec: { template: { spec: { containers: [{ name: 'web', ports: [{ containerPort: 443 }] }] } } } });
    expect(out.spec.template.spec.containers[0].ports).toEqual([{ containerPort: 80 }, { containerPort: 443 }]);
    const svc = { spec: { ports: [{ port: 80, targetPort: 8080 }] } };
    const svcOut = applyStrategicMergePatch(svc, { spec: { ports: [{ port: 80, targetPort: 9090 }, { port: 443 }] } }, builtinSchemaHints('Service')) as any;
    expect(svcOut.spec.ports).toEqual([{ port: 80, targetPort: 9090 }, { port: 443 }]);
  });

  it('refuses a merge-list element without its key', () => {
    expect(() => smp({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } })).toThrow('does not contain declared merge key: name');
  });

  it('keeps __proto__ keys as data and never pollutes', () => {
    const patch = JSON.parse('{"metadata":{"labels":{"__proto__":{"polluted":"yes"}}},"__proto__":{"polluted":"yes"}}');
    const out = smp(patch);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(out, '__proto__')).toBe(true);
  });
});
