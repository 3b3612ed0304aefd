import { memo, useCallback, useRef } from 'react';
import type { Ref } from 'react';
import { parseApiVersion } from '../../../shared/api/types';
import { age } from '../../../shared/lib/duration';
import { toErrorView } from '../../state/errors';
import type { ObjectRow } from '../../state/selectors';
import { selectObjectRows } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import { useRowWindow } from '../../lib/use-row-window';
import { useClient } from '../../worker-client/context';

/** "configmap/demo in default": the row's name for its Delete button. */
export function objectLabel(row: Pick<ObjectRow, 'kind' | 'name' | 'namespace'>): string {
  return `${row.kind.toLowerCase()}/${row.name}${row.namespace ? ` in ${row.namespace}` : ''}`;
}

const columns = 8;

/**
 * Every object in the cluster, live: rows come and go as watch batches arrive. A long table renders only the
 * rows around its viewport (spacer rows keep the scrollbar's length); aria-rowcount and aria-rowindex tell
 * assistive technology the whole table's size and each rendered row's place in it.
 */
export function ObjectsTable() {
  const client = useClient();
  const rows = useAppStore(selectObjectRows);
  const scroller = useRef<HTMLDivElement>(null);
  const firstRow = useRef<HTMLTableRowElement>(null);
  const win = useRowWindow(rows.length, scroller, firstRow);

  const remove = useCallback(
    async (row: ObjectRow) => {
      const { group, version } = parseApiVersion(row.apiVersion);
      const resource = row.resourceKey.slice(row.resourceKey.indexOf('/') + 1);
      try {
        await client.call('api/request', {
          verb: 'delete',
          group,
          version,
          resource,
          namespace: row.namespace || undefined,
          name: row.name,
        });
        appStore.getState().showNotice(`${row.kind.toLowerCase()} "${row.name}" deleted`);
      } catch (err) {
        appStore.getState().showError(toErrorView(err));
      }
    },
    [client],
  );

  return (
    <section className="panel objects" aria-labelledby="objects-title">
      <h2 id="objects-title">Objects</h2>
      <div className="table-scroll" ref={scroller}>
        <table aria-rowcount={rows.length + 1}>
          <caption>
            {rows.length} object{rows.length === 1 ? '' : 's'} in the cluster
          </caption>
          <thead>
            <tr aria-rowindex={1}>
              <th scope="col">Kind</th>
              <th scope="col">Namespace</th>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">UID</th>
              <th scope="col">Resource version</th>
              <th scope="col">Age</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {win.above > 0 && <Spacer height={win.above} />}
            {rows.slice(win.start, win.end).map((row, i) => (
              <Row key={row.id} row={row} index={win.start + i} onDelete={remove} rowRef={i === 0 ? firstRow : undefined} />
            ))}
            {win.below > 0 && <Spacer height={win.below} />}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Stands for the rows not rendered: not a row to assistive technology. */
function Spacer({ height }: { height: number }) {
  return (
    <tr aria-hidden="true" className="row-spacer">
      <td colSpan={columns} style={{ height }} />
    </tr>
  );
}

interface RowProps {
  row: ObjectRow;
  /** Place among all rows (0-based), for aria-rowindex (the header row is 1). */
  index: number;
  onDelete(row: ObjectRow): void;
  rowRef?: Ref<HTMLTableRowElement>;
}

function inspect(row: ObjectRow) {
  appStore.getState().select({ resourceKey: row.resourceKey, key: row.id.slice(row.id.indexOf('|') + 1) });
}

/** Re-renders only when the displayed age string changes, not on every clock poll. */
function AgeCell({ creationTimestamp }: { creationTimestamp: string | undefined }) {
  const text = useAppStore((s) => (s.sim ? age(creationTimestamp, s.sim.time) : ''));
  return <td>{text}</td>;
}

const Row = memo(function Row({ row, index, onDelete, rowRef }: RowProps) {
  return (
    <tr ref={rowRef} aria-rowindex={index + 2}>
      <td>{row.kind}</td>
      <td>{row.namespace}</td>
      <td>
        <button type="button" className="inspect-link" aria-label={`Inspect ${objectLabel(row)}`} onClick={() => inspect(row)}>
          {row.name}
        </button>
      </td>
      <td>{row.status}</td>
      <td className="mono">{row.uid}</td>
      <td className="mono">{row.resourceVersion}</td>
      <AgeCell creationTimestamp={row.creationTimestamp} />
      <td>
        <button type="button" className="small" aria-label={`Delete ${objectLabel(row)}`} onClick={() => onDelete(row)}>
          Delete
        </button>
      </td>
    </tr>
  );
});
