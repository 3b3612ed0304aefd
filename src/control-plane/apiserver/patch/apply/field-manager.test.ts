import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isStatusError } from '../../../../shared/api/status';
import type { KubeObject } from '../../../../shared/api/types';
import { builtinSchemaHints } from '../list-types';
import { FieldManager, type FieldManagerContext } from './field-manager';
import { FieldSet, pathString } from './field-set';
import { deepFreeze } from '../../../../shared/lib/deep-freeze';

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

describe('FieldManager.update without copying its input', () => {
  const podFm = new FieldManager(builtinSchemaHints('Pod'));
  const podCtx: FieldManagerContext = { apiVersion: 'v1', time: '2026-01-01T00:00:00Z', hasStatusSubresource: true };

  /** A random pod-ish object whose members may be undefined (a copy drops them). */
  const maybe = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined });
  const container = fc.record({ name: maybe(fc.constantFrom('a', 'b')), image: maybe(fc.constantFrom('x', 'y')), ports: maybe(fc.array(fc.record({ containerPort: maybe(fc.constantFrom(80, 81)), protocol: maybe(fc.constant('TCP')) }), { maxLength: 2 })) });
  const pod = fc.record({
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Pod'),
    metadata: fc.record({ name: fc.constant('p'), labels: maybe(fc.dictionary(fc.constantFrom('app', 'tier'), maybe(fc.constantFrom('web', 'db')))), annotations: maybe(fc.constant({ note: undefined })) }),
    spec: maybe(fc.record({ nodeName: maybe(fc.constantFrom('n1', 'n2')), containers: maybe(fc.array(container, { maxLength: 2 })), nodeSelector: maybe(fc.constant({ disk: undefined })) })),
    status: maybe(fc.record({ phase: maybe(fc.constantFrom('Pending', 'Running')), conditions: maybe(fc.array(fc.record({ type: maybe(fc.constantFrom('Ready', 'Initialized')), status: maybe(fc.constantFrom('True', 'False')) }), { maxLength: 2 })), hostIP: maybe(fc.constant('10.0.0.1')) })),
  });

  it('records the same managedFields for an object with undefined members as for its JSON copy', () => {
    fc.assert(
      fc.property(pod, pod, fc.constantFrom(undefined, 'status'), (a, b, subresource) => {
        const ctx = { ...podCtx, subresource };
        const copy = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
        const live = podFm.update(undefined, copy(a) as unknown as KubeObject, 'creator', podCtx);
        const viaCopy = podFm.update(copy(live), copy(b) as unknown as KubeObject, 'writer', ctx);
        const direct = podFm.update(copy(live), { ...(b as unknown as KubeObject) }, 'writer', ctx);
        expect(JSON.stringify(direct.metadata.managedFields)).toBe(JSON.stringify(viaCopy.metadata.managedFields));
      }),
      { numRuns: 300 },
    );
  });

  it('re-encodes a manager whose fields a write takes and keeps the document of one it leaves alone', () => {
    const created = podFm.update(undefined, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { app: 'web' } }, spec: { nodeName: 'n1' } }, 'creator', podCtx);
    const labelled = podFm.update(JSON.parse(JSON.stringify(created)), { ...JSON.parse(JSON.stringify(created)), metadata: { ...created.metadata, labels: { app: 'web', tier: 'x' } } }, 'labeller', podCtx);
    const live = JSON.parse(JSON.stringify(labelled)) as KubeObject;
    const next = JSON.parse(JSON.stringify(labelled)) as KubeObject;
    next.metadata.labels = { app: 'db', tier: 'x' };
    const out = podFm.update(live, next, 'relabeller', { ...podCtx, time: '2026-01-01T00:05:00Z' });
    const byManager = Object.fromEntries(out.metadata.managedFields!.map((e) => [e.manager, e]));
    // The creator keeps the labels map itself (a member) but loses labels.app to the relabeller.
    expect(byManager.creator.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': {} }, 'f:spec': { 'f:nodeName': {} } });
    expect(byManager.labeller.fieldsV1).toBe(live.metadata.managedFields!.find((e) => e.manager === 'labeller')!.fieldsV1);
    expect(byManager.relabeller).toMatchObject({ time: '2026-01-01T00:05:00Z', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } } });
  });

  it('shares one frozen document, and one entry when written at the same time, between equal creates', () => {
    const fm = new FieldManager(builtinSchemaHints('Pod'));
    const pod = (name: string): KubeObject => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
    });
    const a = fm.update(undefined, pod('a'), 'rs-controller', podCtx).metadata.managedFields![0];
    const other = fm.update(undefined, { ...pod('c'), spec: { nodeName: 'n1' } }, 'rs-controller', podCtx).metadata.managedFields![0];
    const b = fm.update(undefined, pod('b'), 'rs-controller', podCtx).metadata.managedFields![0];
    const later = fm.update(undefined, pod('d'), 'rs-controller', { ...podCtx, time: '2026-01-01T00:05:00Z' }).metadata.managedFields![0];
    expect(b).toBe(a);
    expect(other.fieldsV1).not.toBe(a.fieldsV1);
    expect(later).not.toBe(a);
    expect(later.fieldsV1).toBe(a.fieldsV1);
    expect(later.time).toBe('2026-01-01T00:05:00Z');
    expect(Object.isFrozen(a) && Object.isFrozen(a.fieldsV1)).toBe(true);
    expect(JSON.stringify(a.fieldsV1)).toBe(
      JSON.stringify({ 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } }),
    );
  });

  it('keeps the stored entry of a manager a write leaves alone, so the new version shares it', () => {
    const fm = new FieldManager(builtinSchemaHints('Pod'));
    const created = fm.update(undefined, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { app: 'web' } }, spec: { nodeName: 'n1' } }, 'creator', podCtx);
    const live = deepFreeze(JSON.parse(JSON.stringify(created)) as KubeObject);
    const next = JSON.parse(JSON.stringify(created)) as KubeObject;
    next.metadata.annotations = { note: 'x' };
    const out = fm.update(live, next, 'annotator', { ...podCtx, time: '2026-01-01T00:05:00Z' });
    const entries = out.metadata.managedFields!;
    expect(entries.map((e) => e.manager)).toEqual(['creator', 'annotator']);
    expect(entries[0]).toBe(live.metadata.managedFields![0]);
    // An entry that is not frozen (not a stored object's) is encoded afresh, to the same text.
    const unfrozen = fm.update(JSON.parse(JSON.stringify(created)) as KubeObject, JSON.parse(JSON.stringify(next)) as KubeObject, 'annotator', podCtx);
    const creator = unfrozen.metadata.managedFields!.find((e) => e.manager === 'creator')!;
    expect(creator).not.toBe(created.metadata.managedFields![0]);
    expect(JSON.stringify(creator)).toBe(JSON.stringify(live.metadata.managedFields![0]));
  });
});

describe('FieldManager document sharing per writer', () => {
  it('matches a writer’s new documents against its own recent ones, however many writers share the manager name', () => {
    const shared = new FieldManager(builtinSchemaHints('ConfigMap'));
    const cm = (writer: number): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${writer}` }, data: { [`key-${writer}`]: 'v' } });
    const docOf = (o: KubeObject) => o.metadata.managedFields![0]!.fieldsV1;
    const asWriter = (writer: number) => ({ apiVersion: 'v1', time: ctx.time, hasStatusSubresource: false, writer: `system:node:node-${writer}` });
    // Twelve writers, more than the recent documents one key keeps, each writing its own shape twice.
    const first = Array.from({ length: 12 }, (_, w) => docOf(shared.update(undefined, cm(w), 'kubelet', asWriter(w))));
    const second = Array.from({ length: 12 }, (_, w) => docOf(shared.update(undefined, cm(w), 'kubelet', asWriter(w))));
    second.forEach((doc, w) => expect(doc).toBe(first[w]));
    expect(shared.update(undefined, cm(0), 'kubelet', asWriter(0)).metadata.managedFields![0]!.manager).toBe('kubelet');
  });
});
