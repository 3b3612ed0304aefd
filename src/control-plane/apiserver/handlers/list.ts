// GET on one object and on a collection. Lists read one store range (one namespace's prefix, or the whole
// resource's) at one revision, filter by label and field selectors, and page with limit/continue; the list's
// resourceVersion is the revision read at, which is where a watch must start to miss nothing.
//
// resourceVersion semantics (api-concepts "Semantics for get and list"):
//   unset       most recent (a consistent read)
//   "0"         any (served from the current state here)
//   "N"         NotOlderThan (default): at least N, else 504 "Too large resource version"
//   "N" Exact   exactly revision N, 410 once compacted
// Items carry apiVersion and kind, as they are stored (kubectl and our clients read them either way).
import { fieldErr, type FieldError } from '../../../shared/api/field-errors';
import {
  newInvalid,
  newNotFound,
  newResourceExpired,
  newTooLargeResourceVersion,
  StatusError,
} from '../../../shared/api/status';
import { formatApiVersion, type KubeList, type KubeObject } from '../../../shared/api/types';
import { resourcePrefix } from '../../store/keys';
import type { ApiRequest, ApiResponse } from '../types';
import type { ResourceContext } from '../pipeline/context';
import { decodeContinue, encodeContinue } from '../storage/continue-token';
import { fromStored } from '../storage/object-codec';
import { parseSelection, selectionMatches } from '../storage/selection';
import { objectKeyFor } from './guaranteed-update';
import { getScale } from './scale';
import { convertToTable } from '../printers/convert';

type Options = NonNullable<ApiRequest['options']>;

export function getHandler(ctx: ResourceContext): ApiResponse<KubeObject> {
  if (ctx.req.subresource === 'scale') return getScale(ctx);
  const name = ctx.req.name ?? '';
  const rv = ctx.req.options?.resourceVersion;
  const key = objectKeyFor(ctx, name);
  // "N" means "not older than N": the current state serves it, unless N is in the future.
  if (rv !== undefined && rv !== '' && rv !== '0') {
    const n = parseRV(rv);
    if (n > ctx.server.store.revision) throw newTooLargeResourceVersion(n, ctx.server.store.revision);
  }
  const kv = ctx.server.store.get(key);
  if (!kv) throw newNotFound(ctx.rt, name);
  return { code: 200, body: asTableIfAsked(ctx, fromStored(kv)) };
}

export function listHandler(ctx: ResourceContext): ApiResponse<KubeList> {
  return { code: 200, body: asTableIfAsked(ctx, listObjects(ctx, ctx.req.options ?? {})) };
}

/** as=Table (kubectl get): the server prints the object or list as a meta.k8s.io/v1 Table. */
function asTableIfAsked<T extends KubeObject | KubeList>(ctx: ResourceContext, body: T): T {
  const opts = ctx.req.options;
  if (opts?.as !== 'Table') return body;
  return convertToTable(ctx.rt, body, { now: ctx.server.clock.now(), reader: ctx.server.reader, includeObject: opts.includeObject }) as unknown as T;
}

function parseRV(rv: string): number {
  if (!/^[0-9]+$/.test(rv)) {
    throw newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', [fieldErr.invalid('resourceVersion', rv, 'must be a non-negative integer')]);
  }
  return Number(rv);
}

/** ValidateListOptions. */
function validateListOptions(opts: Options): void {
  const errs: FieldError[] = [];
  const rv = opts.resourceVersion ?? '';
  if (opts.continue && rv !== '' && rv !== '0') {
    errs.push(fieldErr.forbidden('resourceVersion', 'specifying resource version is not allowed when using continue'));
  }
  if (opts.resourceVersionMatch !== undefined) {
    if (rv === '') errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    else if (opts.continue) errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    else if (opts.resourceVersionMatch === 'Exact' && rv === '0') {
      errs.push(fieldErr.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    } else if (opts.resourceVersionMatch !== 'Exact' && opts.resourceVersionMatch !== 'NotOlderThan') {
      errs.push(fieldErr.notSupported('resourceVersionMatch', opts.resourceVersionMatch, ['Exact', 'NotOlderThan', '']));
    }
  }
  if (opts.limit !== undefined && (!Number.isInteger(opts.limit) || opts.limit < 0)) {
    errs.push(fieldErr.invalid('limit', opts.limit, 'must be greater than or equal to 0'));
  }
  if (errs.length) throw newInvalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errs);
}

const continueTooOld =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

export function listObjects(ctx: ResourceContext, opts: Options): KubeList {
  validateListOptions(opts);
  const { store } = ctx.server;
  const selection = parseSelection(opts, ctx.rt, ctx.strategy);
  const prefix = resourcePrefix(ctx.rt, ctx.rt.namespaced ? ctx.namespace : undefined);

  let atRevision: number | undefined;
  let startKey: string | undefined;
  if (opts.continue) {
    const token = decodeContinue(opts.continue);
    atRevision = token.rv;
    startKey = prefix + token.start;
    if (atRevision < store.compactRevision) throw newResourceExpired(continueTooOld);
  } else {
    const rv = opts.resourceVersion ?? '';
    if (rv !== '' && rv !== '0') {
      const n = parseRV(rv);
      if (n > store.revision) throw newTooLargeResourceVersion(n, store.revision);
      if (opts.resourceVersionMatch === 'Exact') {
        if (n < store.compactRevision) throw newResourceExpired('The resourceVersion for the provided list is too old.');
        atRevision = n;
      }
    }
  }

  let range;
  try {
    range = store.range(prefix, atRevision);
  } catch (err) {
    if (err instanceof StatusError && err.code === 410) throw newResourceExpired(opts.continue ? continueTooOld : 'The resourceVersion for the provided list is too old.');
    throw err;
  }
  const limit = opts.limit && opts.limit > 0 ? opts.limit : undefined;
  const items: KubeObject[] = [];
  let i = 0;
  const kvs = range.kvs;
  if (startKey !== undefined) {
    // Keys are sorted: skip to the first key at or after the token's start.
    let lo = 0;
    let hi = kvs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (kvs[mid].key < startKey) lo = mid + 1;
      else hi = mid;
    }
    i = lo;
  }
  let lastKey: string | undefined;
  for (; i < kvs.length; i++) {
    if (limit !== undefined && items.length >= limit) break;
    const kv = kvs[i];
    lastKey = kv.key;
    if (!selection.everything) {
      // Selectors look at the stored value; only matches are copied.
      const v = kv.value;
      if (!selectionMatches(selection, v, ctx.rt, ctx.strategy)) continue;
    }
    items.push(fromStored(kv));
  }

  const metadata: KubeList['metadata'] = { resourceVersion: String(range.revision) };
  if (limit !== undefined && i < kvs.length && lastKey !== undefined) {
    metadata.continue = encodeContinue({ rv: range.revision, start: `${lastKey.slice(prefix.length)}\u0000` });
    if (selection.everything) metadata.remainingItemCount = kvs.length - i;
  }
  return { apiVersion: formatApiVersion(ctx.rt.group, ctx.rt.version), kind: `${ctx.rt.kind}List`, metadata, items };
}
