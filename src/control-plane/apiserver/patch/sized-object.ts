// Objects made at their final size. V8 gives an object made as `{}` room for 4 members inside it; a fifth goes to
// a separate property array (16 bytes of header, grown 3 members at a time). A stored object lives as long as it
// is stored, and a pod and its Events hold a dozen objects of 5–15 members each (top level, metadata, spec,
// status, containers, Events), so that overhead was ~0.3 KiB per pod. An object made by a constructor has room
// inside it for as many members as the constructor's body assigns to `this` (plus slack), and once a constructor
// has made a few objects V8 shrinks that room to the members they were given. So each shape of keys gets a
// constructor of its own, whose body names 56 members in a branch that never runs: its objects end up with room
// for exactly their members. Same keys, same order as `{}` would get: only the layout differs.

/** Below this, `{}` has room for every member already. */
const minMembers = 5;

interface Template {
  readonly keys: readonly string[];
  readonly Shape: ShapeConstructor;
}

type ShapeConstructor = new () => Record<string, unknown>;

/** Templates by their first key (the keys of one kind's objects recur: few shapes per first key). */
const templates = new Map<string, Template[]>();
let templateCount = 0;
/** A cache: emptied when it holds this many shapes (user objects with arbitrary keys must not grow it). */
const maxTemplates = 4096;
/** Objects with more members than this are rare and big: the property array matters little there. */
const maxMembers = 64;

/**
 * A new, empty object to set exactly these members on, in this order: with 5 to 64 keys, one with room inside it
 * for all of them (once its shape has made a few); otherwise a plain `{}`. Either way the caller sets every
 * member as it would on `{}` (through setOwn for "__proto__").
 */
export function objectFor(keys: readonly string[]): Record<string, unknown> {
  const n = keys.length;
  if (n < minMembers || n > maxMembers) return {};
  const first = keys[0]!;
  let list = templates.get(first);
  if (list) {
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      if (t.keys.length === n && sameKeys(t.keys, keys)) return new t.Shape();
    }
  } else {
    if (templateCount >= maxTemplates) {
      templates.clear();
      templateCount = 0;
    }
    templates.set(first, (list = []));
  }
  const Shape = shapeConstructor();
  list.push({ keys: keys.slice(), Shape });
  templateCount++;
  return new Shape();
}

/** A constructor of plain objects (prototype Object.prototype) with room for up to 64 members: 56 named + 8 slack. */
function shapeConstructor(): ShapeConstructor {
  const Shape = function (this: Record<string, number>) {
    // Under `new` it returns here: the assignments below never run, they are only counted when V8 sizes objects.
    if (new.target) return;
    this.m0 = 0; this.m1 = 0; this.m2 = 0; this.m3 = 0; this.m4 = 0; this.m5 = 0; this.m6 = 0; this.m7 = 0;
    this.m8 = 0; this.m9 = 0; this.m10 = 0; this.m11 = 0; this.m12 = 0; this.m13 = 0; this.m14 = 0; this.m15 = 0;
    this.m16 = 0; this.m17 = 0; this.m18 = 0; this.m19 = 0; this.m20 = 0; this.m21 = 0; this.m22 = 0; this.m23 = 0;
    this.m24 = 0; this.m25 = 0; this.m26 = 0; this.m27 = 0; this.m28 = 0; this.m29 = 0; this.m30 = 0; this.m31 = 0;
    this.m32 = 0; this.m33 = 0; this.m34 = 0; this.m35 = 0; this.m36 = 0; this.m37 = 0; this.m38 = 0; this.m39 = 0;
    this.m40 = 0; this.m41 = 0; this.m42 = 0; this.m43 = 0; this.m44 = 0; this.m45 = 0; this.m46 = 0; this.m47 = 0;
    this.m48 = 0; this.m49 = 0; this.m50 = 0; this.m51 = 0; this.m52 = 0; this.m53 = 0; this.m54 = 0; this.m55 = 0;
  };
  Shape.prototype = Object.prototype;
  return Shape as unknown as ShapeConstructor;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
