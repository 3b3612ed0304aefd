// Bumped whenever a message or method changes shape, so a cached page never talks to a newer worker (or the
// reverse) without noticing: the client refuses every call when the worker's version differs.
export const PROTOCOL_VERSION = 3;
