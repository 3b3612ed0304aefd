// Relations: the owner chain up to the root and the dependents (objects whose ownerReferences name this one),
// grouped by kind and counted. Every resolved object is a button that opens it here.
import { memo, useMemo } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import { objectStatus } from '../../lib/object-status';
import { appStore, useAppStore } from '../../state/store';
import { selectUidIndex } from './inspector-selectors';
import type { ObjectEntry } from './relations';
import { dependentsOf, groupByKind, ownerChain } from './relations';

/** Groups longer than this start folded, and show at most `shown` items when opened. */
const foldAt = 8;
const shown = 50;

function open(entry: ObjectEntry) {
  appStore.getState().select({ resourceKey: entry.resourceKey, key: entry.key });
}

function ObjectButton({ entry }: { entry: ObjectEntry }) {
  const status = objectStatus(entry.object);
  return (
    <button type="button" className="link-button object-link" onClick={() => open(entry)}>
      {entry.object.kind} {entry.object.metadata.name}
      {status && <span className="muted"> ({status})</span>}
    </button>
  );
}

export const RelationsPanel = memo(function RelationsPanel({ obj }: { obj: KubeObject }) {
  const index = useAppStore(selectUidIndex);
  const chain = useMemo(() => ownerChain(obj, index), [obj, index]);
  const dependents = dependentsOf(obj.metadata.uid, index);
  const groups = useMemo(() => groupByKind(dependents), [dependents]);
  const extraOwners = (obj.metadata.ownerReferences ?? []).filter((r) => r.uid !== chain.at(-1)?.ref.uid);
  const label = `${obj.kind.toLowerCase()}/${obj.metadata.name ?? ''}`;
  return (
    <>
      <section aria-labelledby="inspector-owners">
        <h4 id="inspector-owners">Owner chain</h4>
        {chain.length === 0 ? (
          <p className="muted">No owner: {label} is a root (nothing garbage-collects it).</p>
        ) : (
          <ol className="owner-chain" aria-label={`Owners of ${label}, root first`}>
            {chain.map((link) => (
              <li key={link.ref.uid}>
                {link.owner ? (
                  <ObjectButton entry={link.owner} />
                ) : (
                  <span>
                    {link.ref.kind} {link.ref.name} <span className="muted">(not found)</span>
                  </span>
                )}
                {link.ref.controller && <span className="muted"> · controller</span>}
              </li>
            ))}
            <li aria-current="true">
              <strong>
                {obj.kind} {obj.metadata.name}
              </strong>{' '}
              <span className="muted">(this object)</span>
            </li>
          </ol>
        )}
        {extraOwners.length > 0 && (
          <p className="muted">
            Also owned by: {extraOwners.map((r) => `${r.kind} ${r.name}`).join(', ')}
          </p>
        )}
      </section>
      <section aria-labelledby="inspector-dependents">
        <h4 id="inspector-dependents">Dependents ({dependents.length})</h4>
        {groups.length === 0 ? (
          <p className="muted">No object names {label} as its owner.</p>
        ) : (
          groups.map((g) => (
            <details key={g.kind} open={g.items.length <= foldAt} className="dependent-group">
              <summary>
                {g.kind} ({g.items.length})
              </summary>
              <ul aria-label={`${g.kind} dependents of ${label}`}>
                {g.items.slice(0, shown).map((e) => (
                  <li key={`${e.resourceKey}|${e.key}`}>
                    <ObjectButton entry={e} />
                  </li>
                ))}
                {g.items.length > shown && <li className="muted">… and {g.items.length - shown} more</li>}
              </ul>
            </details>
          ))
        )}
      </section>
    </>
  );
});
