// Objects made at their final size. V8 gives an object made as `{}` room for 4 members inside it; a fifth goes to
// a separate property array (16 bytes of header, grown 3 members at a time). A stored object lives as long as it
// is stored, and a pod and its Events hold a dozen objects of 5–15 members each (top level, metadata, spec,
// status, containers, Events), so that overhead was ~0.3 KiB per pod. JSON.parse makes an object with room
// inside it for every member it reads: a copy of 5 or more members starts from a parsed template of its keys
// (each null), whose members are then overwritten in place. Same keys, same order: only the layout differs.

/** Below this, `{}` has room for every member already. */
const minMembers = 5;

interface Template {
  readonly keys: readonly string[];
  readonly text: string;
}

/** Templates by their first key (the keys of one kind's objects recur: few shapes per first key). */
const templates = new Map<string, Template[]>();
let templateCount = 0;
/** A cache: emptied when it holds this many shapes (user objects with arbitrary keys must not grow it). */
const maxTemplates = 4096;
/** Objects with more members than this are rare and big: the property array matters little there. */
const maxMembers = 64;

/**
 * A new object to set exactly these members on, in this order: with 5 to 64 keys, one that has them already
 * (each null, to be overwritten) and room for all of them inside it; otherwise a plain `{}`. Either way the
 * caller sets every member as it would on `{}` (through setOwn for "__proto__").
 */
export function objectFor(keys: readonly string[]): Record<string, unknown> {
  const n = keys.length;
  if (n < minMembers || n > maxMembers) return {};
  const first = keys[0]!;
  let list = templates.get(first);
  if (list) {
    for (let i = 0; i < list.length; i++) {
      const t = list[i]!;
      if (t.keys.length === n && sameKeys(t.keys, keys)) return JSON.parse(t.text) as Record<string, unknown>;
    }
  } else {
    if (templateCount >= maxTemplates) {
      templates.clear();
      templateCount = 0;
    }
    templates.set(first, (list = []));
  }
  let text = '{';
  for (let i = 0; i < n; i++) text += `${i ? ',' : ''}${JSON.stringify(keys[i])}:null`;
  text += '}';
  list.push({ keys: keys.slice(), text });
  templateCount++;
  return JSON.parse(text) as Record<string, unknown>;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
