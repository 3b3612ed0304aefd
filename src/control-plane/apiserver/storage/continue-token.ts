// The opaque continue token of a paged list, shaped like the etcd3 storage's: base64 of
// {"v":"meta.k8s.io/v1","rv":<revision the first page was read at>,"start":"<next key, relative to the prefix>"}.
import { newBadRequest } from '../../../shared/api/status';

export interface ContinueToken {
  /** The revision every page is read at, so the pages form one consistent list. */
  rv: number;
  /** The key (relative to the resource prefix) to start the next page at. */
  start: string;
}

export function encodeContinue(token: ContinueToken): string {
  const json = JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start });
  return base64(json);
}

export function decodeContinue(s: string): ContinueToken {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unbase64(s));
  } catch {
    throw newBadRequest('continue key is not valid: illegal base64 data at input byte 0');
  }
  const t = parsed as { v?: unknown; rv?: unknown; start?: unknown };
  if (t.v !== 'meta.k8s.io/v1') throw newBadRequest('continue key is not valid: server does not recognize this encoded version');
  if (typeof t.rv !== 'number' || !Number.isInteger(t.rv) || t.rv <= 0 || typeof t.start !== 'string') {
    throw newBadRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  }
  if (t.start.includes('..') || t.start.startsWith('/')) throw newBadRequest('continue key is not valid: path traversal attempt detected');
  return { rv: t.rv, start: t.start };
}

function base64(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function unbase64(s: string): string {
  const bin = atob(s);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}
