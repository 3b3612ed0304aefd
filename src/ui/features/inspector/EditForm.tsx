// Edit: the object's YAML (without managedFields) in a plain textarea; "Apply changes" PUTs it with the
// resourceVersion it was read at, so a concurrent change is refused with the API server's 409 text.
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { KubeObject } from '../../../shared/api/types';
import type { ObjectSelection } from '../../state/ui-slice';
import { useClient } from '../../worker-client/context';
import { editCancelledMessage, editedMessage, parseEdit, statusLines, statusOf, updateRequest } from './edit';
import { useInspectorUi } from './state';

interface Props {
  selection: ObjectSelection;
  /** The object as the watch shows it now. */
  live: KubeObject;
  /** The object the edit started from. */
  original: KubeObject;
  text: string;
  onText(text: string): void;
  onReload(): void;
  onDone(): void;
}

export function EditForm({ selection, live, original, text, onText, onReload, onDone }: Props) {
  const client = useClient();
  const report = useInspectorUi((s) => s.report);
  const [busy, setBusy] = useState(false);
  const id = `${selection.resourceKey}|${selection.key}`;
  const label = `${original.kind.toLowerCase()}/${original.metadata.name ?? ''}`;
  const stale = live.metadata.resourceVersion !== original.metadata.resourceVersion;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseEdit(text, original);
    if (parsed.outcome === 'invalid') return report(id, [{ ok: false, text: parsed.message }]);
    if (parsed.outcome === 'unchanged') {
      report(id, [{ ok: true, text: editCancelledMessage }]);
      return onDone();
    }
    setBusy(true);
    try {
      const res = await client.call('api/request', updateRequest(selection.resourceKey, original, text));
      report(id, [{ ok: true, text: editedMessage(res.body as KubeObject) }, ...(res.warnings ?? []).map((w) => ({ ok: true, text: `Warning: ${w}` }))]);
      onDone();
    } catch (err) {
      report(id, statusLines(statusOf(err)).map((t) => ({ ok: false, text: t })));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="edit-form" onSubmit={(e) => void submit(e)} aria-label={`Edit ${label}`}>
      <p className="muted edit-note">
        Editing at resourceVersion {original.metadata.resourceVersion}. The status is read-only here: an update
        of the object ignores changes to it (controllers write it through the status subresource).
      </p>
      {stale && (
        <p className="inline-error">
          {label} changed since you started editing (resourceVersion {original.metadata.resourceVersion} → {live.metadata.resourceVersion}): applying
          will be refused with a conflict.{' '}
          <button type="button" className="small neutral" onClick={onReload}>
            Start over from the latest version
          </button>
        </p>
      )}
      <textarea
        aria-label={`Edit YAML of ${label}`}
        className="mono edit-area"
        spellCheck={false}
        value={text}
        onChange={(e) => onText(e.target.value)}
        onKeyDown={(e) => {
          // Ctrl/Cmd+Enter applies, as in the manifest editor.
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          }
        }}
        rows={Math.min(40, text.split('\n').length + 1)}
      />
      <div className="edit-buttons">
        <button type="submit" disabled={busy}>
          Apply changes
        </button>
        <button type="button" className="small neutral" onClick={onDone} disabled={busy}>
          Cancel edit
        </button>
      </div>
    </form>
  );
}
