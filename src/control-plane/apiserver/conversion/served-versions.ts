// Requests at a version other than the storage version (autoscaling/v1 HorizontalPodAutoscaler): the body is
// decoded and checked at the requested version, converted to the storage version for the pipeline, and every
// object that goes back out (responses, list items, watch events) is converted to the requested version.
import type { ApiRequest, ApiResponse } from '../../../shared/api/request';
import type { ResourceType } from '../../../shared/api/resources';
import { formatApiVersion, type KubeObject, type KubeList, type WatchEvent } from '../../../shared/api/types';
import { hpaV1ToV2, hpaV2ToV1 } from './autoscaling-hpa';

export interface VersionConversion {
  /** An object at the requested version → the storage version. */
  toStorage(obj: KubeObject): KubeObject;
  /** A stored object → the requested version. */
  fromStorage(obj: KubeObject): KubeObject;
}

const conversions: Readonly<Record<string, VersionConversion>> = {
  'autoscaling/v1/horizontalpodautoscalers': { toStorage: hpaV1ToV2, fromStorage: hpaV2ToV1 },
};

/** The conversion a request needs, or undefined when it is at the storage version (or unknown). */
export function conversionFor(req: ApiRequest, storage: ResourceType | undefined): VersionConversion | undefined {
  if (!storage || storage.version === req.version || !storage.alsoServedAt?.includes(req.version)) return undefined;
  return conversions[`${req.group}/${req.version}/${req.resource}`];
}

function isObject(v: unknown): v is KubeObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as KubeObject).kind === 'string';
}

/** Converts a response body (an object, a list, or a Status, which passes unchanged) to the requested version. */
export function convertResponse(res: ApiResponse, conv: VersionConversion, requestVersion: string, rt: ResourceType): ApiResponse {
  const body = res.body;
  if (!isObject(body) || body.kind === 'Status') return res;
  if (Array.isArray((body as unknown as KubeList).items)) {
    const list = body as unknown as KubeList;
    return {
      ...res,
      body: { ...list, apiVersion: formatApiVersion(rt.group, requestVersion), items: list.items.map((i) => conv.fromStorage(i)) },
    };
  }
  return { ...res, body: conv.fromStorage(body) };
}

export function convertWatchEvents(events: WatchEvent[], conv: VersionConversion): WatchEvent[] {
  return events.map((e) =>
    e.type === 'ERROR' || e.type === 'BOOKMARK' ? e : { ...e, object: conv.fromStorage(e.object) },
  );
}
