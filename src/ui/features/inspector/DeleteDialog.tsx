// Delete with a propagation policy: a modal dialog with Background (the default) / Foreground / Orphan and an
// optional grace period, then a DELETE through the API server; kubectl's line or the API's error.
import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { PropagationPolicy } from '../../../shared/api/request';
import type { KubeObject } from '../../../shared/api/types';
import type { ObjectSelection } from '../../state/ui-slice';
import { useClient } from '../../worker-client/context';
import type { DeleteChoice } from './edit';
import { deleteRequest, deletedMessage, kindGroup, statusLines, statusOf } from './edit';
import { useInspectorUi } from './state';

const policies: { id: PropagationPolicy; label: string; help: string }[] = [
  { id: 'Background', label: 'Background', help: 'delete it now; the garbage collector deletes its dependents afterwards' },
  { id: 'Foreground', label: 'Foreground', help: 'it stays (Terminating) until the garbage collector has deleted its blocking dependents' },
  { id: 'Orphan', label: 'Orphan', help: 'delete it and leave its dependents, their ownerReferences removed' },
];

interface Props {
  selection: ObjectSelection;
  obj: KubeObject;
  onClose(): void;
}

export function DeleteDialog({ selection, obj, onClose }: Props) {
  const client = useClient();
  const report = useInspectorUi((s) => s.report);
  const ref = useRef<HTMLDialogElement>(null);
  const [policy, setPolicy] = useState<PropagationPolicy>('Background');
  const [grace, setGrace] = useState('');
  const title = `Delete ${kindGroup(obj)}/${obj.metadata.name ?? ''}`;
  const graceValid = grace.trim() === '' || /^\d+$/.test(grace.trim());

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
    return () => dialog?.close?.();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!graceValid) return;
    const choice: DeleteChoice = { propagationPolicy: policy };
    if (grace.trim() !== '') choice.gracePeriodSeconds = Number(grace.trim());
    const id = `${selection.resourceKey}|${selection.key}`;
    onClose();
    try {
      await client.call('api/request', deleteRequest(selection.resourceKey, obj, choice));
      report(id, [{ ok: true, text: deletedMessage(obj) }]);
    } catch (err) {
      report(id, statusLines(statusOf(err)).map((t) => ({ ok: false, text: t })));
    }
  };

  return (
    <dialog ref={ref} className="delete-dialog" aria-labelledby="inspector-delete-title" onCancel={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <h3 id="inspector-delete-title">{title}</h3>
        <fieldset>
          <legend>Propagation policy</legend>
          {policies.map((p) => (
            <label key={p.id} className="policy">
              <input type="radio" name="propagationPolicy" value={p.id} checked={policy === p.id} onChange={() => setPolicy(p.id)} />
              <span>
                <strong>{p.label}</strong>
                {p.id === 'Background' && ' (default)'} <span className="muted">— {p.help}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <label className="grace">
          Grace period (seconds)
          <input
            type="text"
            inputMode="numeric"
            value={grace}
            placeholder="the object's own"
            aria-invalid={!graceValid}
            onChange={(e) => setGrace(e.target.value)}
          />
        </label>
        {!graceValid && <p className="inline-error">The grace period is a whole number of seconds (0 deletes at once).</p>}
        <div className="dialog-buttons">
          <button type="submit" className="danger" disabled={!graceValid}>
            Delete
          </button>
          <button type="button" className="small neutral" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
