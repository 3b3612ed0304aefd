// POST: handlers/create.go then the generic registry's Store.Create. Decode → wipe system fields → namespace
// check → defaulting → managed fields → mutating admission → defaulting → name generation and system fields →
// BeforeCreate (prepare + validate) → validating admission → one store transaction.
import { StatusError, newAlreadyExists, newBadRequest, newGenerateNameConflict, type Status } from '../../../shared/api/status';
import type { KubeObject } from '../../../shared/api/types';
import { objectKey } from '../../store/keys';
import { rfc3339 } from '../../sim/clock';
import { AdmissionOperation, type AdmissionAttributes, type ApiResponse, type SideWrite } from '../types';
import { admissionAttributes, mutatingAdmissionStage, validatingAdmissionStage } from '../pipeline/admission';
import type { ResourceContext } from '../pipeline/context';
import { decodeStage } from '../pipeline/decode';
import { defaultingStage } from '../pipeline/defaulting';
import { ensureObjectNamespaceMatchesRequest, fillObjectMetaSystemFields, generateName, wipeObjectMetaSystemFields } from '../pipeline/object-meta';
import { persistenceStage } from '../pipeline/persistence';
import { validateCreateStage } from '../pipeline/validation';
import { resourceVersionOf, toStoredBy, writableMeta } from '../storage/object-codec';
import { fieldManagerName } from './field-manager-name';

/** apiserver/pkg/registry/generic/registry/store.go maxNameGenerationCreateAttempts. */
const maxNameGenerationCreateAttempts = 8;

export function createHandler(ctx: ResourceContext): ApiResponse<KubeObject> {
  if (ctx.req.subresource) throw newBadRequest(`${ctx.req.subresource} is not supported on create`);
  const obj = decodeStage(ctx, { body: ctx.req.body, rawBody: ctx.req.rawBody });
  wipeObjectMetaSystemFields(obj);
  if (ctx.rt.namespaced && !ctx.namespace) ctx.namespace = obj.metadata?.namespace;
  if (ctx.rt.namespaced && !ctx.namespace) throw newBadRequest('Namespace parameter required.');
  ensureObjectNamespaceMatchesRequest(ctx, obj);
  const created = createObject(ctx, obj);
  return { code: 201, body: created, warnings: ctx.warnings.length ? ctx.warnings : undefined };
}

/**
 * The create path from defaulting on, shared with create-on-update and create-on-apply. obj is a private,
 * decoded copy whose namespace already matches the request.
 */
export function createObject(ctx: ResourceContext, obj: KubeObject, options: { managedFieldsDone?: boolean } = {}): KubeObject {
  const { server } = ctx;
  const sideWrites: SideWrite[] = [];
  defaultingStage(ctx, obj);
  if (!options.managedFieldsDone) {
    server.fieldManagerFor(ctx.rt).update(undefined, obj, fieldManagerName(ctx), {
      apiVersion: obj.apiVersion,
      time: rfc3339(server.clock.now()),
      hasStatusSubresource: ctx.rt.subresources.status,
      writer: ctx.user.username,
    });
  }
  const mutatingAttrs = admissionAttributes(ctx, AdmissionOperation.Create, obj, undefined);
  mutatingAdmissionStage(ctx, mutatingAttrs, sideWrites);
  defaultingStage(ctx, obj);

  fillObjectMetaSystemFields(obj, server.clock, server.rng);
  const generate = !obj.metadata.name && !!obj.metadata.generateName;
  let key = '';
  for (let attempt = 0; ; attempt++) {
    if (generate) obj.metadata.name = generateName(obj.metadata.generateName!, server.rng);
    if (!obj.metadata.name) break; // validation reports the missing name
    key = objectKey(ctx.rt, ctx.rt.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name);
    if (!generate || !server.store.get(key)) break;
    if (attempt + 1 >= maxNameGenerationCreateAttempts) throw newGenerateNameConflict(ctx.rt, obj.metadata.name, 1);
  }

  validateCreateStage(ctx, obj);
  // The same attributes again unless the name or namespace changed since (generateName, a mutating plugin).
  const validatingAttrs = sameTarget(mutatingAttrs, obj) ? mutatingAttrs : admissionAttributes(ctx, AdmissionOperation.Create, obj, undefined);
  validatingAdmissionStage(ctx, validatingAttrs, sideWrites);
  key ||= objectKey(ctx.rt, ctx.rt.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name ?? '');

  if (ctx.dryRun) {
    // DryRunnableStorage.Create: the existence check still happens; nothing is written.
    if (server.store.get(key)) throw alreadyExists(ctx, key, obj.metadata.name ?? '');
    return obj;
  }
  if (resourceVersionOf(obj) !== 0) throw resourceVersionSetOnCreate();
  const stored = toStoredBy(ctx.strategy, obj);
  const result = persistenceStage(ctx, { key, expectModRevision: 0, op: { type: 'put', key, value: stored } }, sideWrites, () =>
    alreadyExists(ctx, key, obj.metadata.name ?? ''),
  );
  // obj is the request's private copy and equals what was stored: answer with it instead of copying again.
  delete writableMeta(obj).selfLink;
  writableMeta(obj).resourceVersion = String(result.results[0]!.modRevision);
  return obj;
}

/** Whether attrs, built for obj earlier in this request, still name it (admissionAttributes would build the same). */
function sameTarget(attrs: AdmissionAttributes, obj: KubeObject): boolean {
  const name = obj.metadata?.name;
  return !!name && name === attrs.name && (!attrs.resourceType.namespaced || attrs.namespace === (obj.metadata.namespace ?? ''));
}

function alreadyExists(ctx: ResourceContext, key: string, name: string): StatusError {
  const err = newAlreadyExists(ctx.rt, name);
  const existing = ctx.server.store.get(key);
  if (existing?.value.metadata?.deletionTimestamp) err.status.message = `object is being deleted: ${err.status.message}`;
  return err;
}

/**
 * storage.ErrResourceVersionSetOnCreate: a plain error, not an API status, so the server answers 500 with
 * reason "" (StatusReasonUnknown) and the bare message (responsewriters.ErrorToAPIStatus).
 */
export function resourceVersionSetOnCreate(): StatusError {
  const status: Status = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'resourceVersion should not be set on objects to be created',
    reason: '',
    code: 500,
  };
  return new StatusError(status);
}
