import { describe, expect, it } from 'vitest';
import { isStatusError } from '../../../../shared/api/status';
import type { KubeObject } from '../../../../shared/api/types';
import { builtinSchemaHints } from '../list-types';
import { FieldManager, type FieldManagerContext } from './field-manager';
import { FieldSet, pathString } from './field-set';

const ctx: FieldManagerContext = { apiVersion: 'apps/v1', time: '2026-01-01T00:00:00Z', hasStatusSubresource: true };
const fm = new FieldManager(builtinSchemaHints('Deployment'));

function deployment(replicas: number, image = 'nginx:1.25'): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 80 }] }] } },
    },
  };
}

describe('FieldSet', () => {
  it('round-trips the fieldsV1 format with "." for nodes that are members too', () => {
    const doc = {
      'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } },
    };
    const set = FieldSet.fromFieldsV1(doc);
    expect(set.has(['f:metadata', 'f:labels'])).toBe(true);
    expect(set.has(['f:metadata'])).toBe(false);
    expect(set.toFieldsV1()).toEqual(doc);
    expect(pathString(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'])).toBe(
      '.spec.template.spec.containers[name="web"].image',
    );
  });
});

describe('FieldManager', () => {
  it('records an Update entry on create with every field the object sets', () => {
    const created = fm.update(undefined, deployment(1), 'kubectl-create', ctx);
    const entries = created.metadata.managedFields!;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', time: ctx.time });
    const fields = entries[0].fieldsV1 as Record<string, any>;
    expect(fields['f:metadata']['f:labels']).toEqual({ '.': {}, 'f:app': {} });
    expect(fields['f:spec']['f:replicas']).toEqual({});
    expect(fields['f:spec']['f:selector']).toEqual({});
    expect(fields['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}']).toEqual({
      '.': {},
      'f:image': {},
      'f:name': {},
      'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
    });
    expect(fields['f:metadata']['f:name']).toBeUndefined();
  });

  it('conflicts when applying a field another manager owns, and force takes it over', () => {
    const live = fm.update(undefined, deployment(1), 'kubectl-client-side-apply', ctx);
    let err: unknown;
    try {
      fm.apply(live, deployment(3), 'kubectl', false, ctx);
    } catch (e) {
      err = e;
    }
    expect(isStatusError(err)).toBe(true);
    const status = (err as { status: { code: number; message: string; details: { causes: unknown[] } } }).status;
    expect(status.code).toBe(409);
    expect(status.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
    expect(status.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }]);

    const forced = fm.apply(live, deployment(3), 'kubectl', true, ctx);
    expect((forced.spec as { replicas: number }).replicas).toBe(3);
    const byManager = Object.fromEntries(forced.metadata.managedFields!.map((e) => [e.manager, FieldSet.fromFieldsV1(e.fieldsV1)]));
    expect(byManager.kubectl.has(['f:spec', 'f:replicas'])).toBe(true);
    expect(byManager['kubectl-client-side-apply'].has(['f:spec', 'f:replicas'])).toBe(false);
    expect(forced.metadata.managedFields!.map((e) => e.operation)).toEqual(['Apply', 'Update']);
  });

  it('shares fields applied with the same value and removes fields the applier stops applying', () => {
    const first = fm.apply(undefined, deployment(2), 'a', false, ctx);
    const withAnnotation = { ...deployment(2), metadata: { ...deployment(2).metadata, annotations: { note: 'x' } } };
    const second = fm.apply(first, withAnnotation, 'a', false, ctx);
    expect(second.metadata.annotations).toEqual({ note: 'x' });
    const third = fm.apply(second, deployment(2), 'a', false, ctx);
    expect(third.metadata.annotations).toEqual({});
    // Another applier with the same replicas: no conflict, both own it.
    const shared = fm.apply(third, deployment(2), 'b', false, ctx);
    const owners = shared.metadata.managedFields!.filter((e) => FieldSet.fromFieldsV1(e.fieldsV1).has(['f:spec', 'f:replicas'])).map((e) => e.manager);
    expect(owners.sort()).toEqual(['a', 'b']);
  });

  it('an identical apply keeps the old managedFields timestamps', () => {
    const first = fm.apply(undefined, deployment(2), 'a', false, ctx);
    const again = fm.apply(first, deployment(2), 'a', false, { ...ctx, time: '2026-01-02T00:00:00Z' });
    expect(again.metadata.managedFields).toEqual(first.metadata.managedFields);
  });

  it('an update takes over the fields it changes', () => {
    const applied = fm.apply(undefined, deployment(2), 'kubectl', false, ctx);
    const scaled = fm.update(applied, deployment(5), 'kube-controller-manager', ctx);
    const sets = Object.fromEntries(scaled.metadata.managedFields!.map((e) => [e.manager, FieldSet.fromFieldsV1(e.fieldsV1)]));
    expect(sets['kube-controller-manager'].has(['f:spec', 'f:replicas'])).toBe(true);
    expect(sets.kubectl.has(['f:spec', 'f:replicas'])).toBe(false);
    expect(sets.kubectl.has(['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'])).toBe(true);
  });
});

describe('managedView', () => {
  it('shares the object without copying it, and reads undefined members as a copy would (absent)', async () => {
    const { managedView } = await import('./field-manager');
    const obj = deployment(2) as unknown as Record<string, unknown>;
    const view = managedView(obj, ctx);
    expect(view.spec).toBe(obj.spec);
    expect(view).toEqual(JSON.parse(JSON.stringify({ metadata: { labels: { app: 'web' } }, spec: obj.spec })));
    const withUndefined = { ...obj, spec: { ...(obj.spec as object), paused: undefined }, status: { replicas: 1 } };
    expect(Object.keys(managedView(withUndefined, ctx).spec as object)).not.toContain('paused');
    expect(managedView(withUndefined, { ...ctx, subresource: 'status' })).toEqual({ status: { replicas: 1 } });
  });

  it('keeps an unchanged manager\'s fieldsV1 document and re-encodes a changed one', () => {
    const created = fm.update(undefined, deployment(2), 'kubectl', ctx);
    const docBefore = created.metadata.managedFields![0].fieldsV1;
    const live = JSON.parse(JSON.stringify(created)) as KubeObject;
    const next = JSON.parse(JSON.stringify(created)) as KubeObject;
    (next.metadata.labels as Record<string, string>).tier = 'x';
    const updated = fm.update(live, next, 'other', { ...ctx, time: '2026-01-01T00:01:00Z' });
    const kubectl = updated.metadata.managedFields!.find((e) => e.manager === 'kubectl')!;
    expect(kubectl.fieldsV1).toBe(live.metadata.managedFields![0].fieldsV1);
    expect(kubectl.fieldsV1).toEqual(docBefore);
    const other = updated.metadata.managedFields!.find((e) => e.manager === 'other')!;
    expect(other.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:tier': {} } } });
  });
});
