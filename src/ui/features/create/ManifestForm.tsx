import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { ApplyOutcome } from '../../../shared/protocol/methods';
import { toErrorView } from '../../state/errors';
import { appStore } from '../../state/store';
import { useClient } from '../../worker-client/context';

const example = `apiVersion: v1
kind: ConfigMap
metadata:
  name: example
data:
  greeting: hello
`;

/** kubectl's line for one applied document: "configmap/demo created". */
function outcomeLine(o: ApplyOutcome & { ok: true }): string {
  return `${o.object.kind.toLowerCase()}/${o.object.metadata.name} ${o.action}`;
}

function failureLine(o: ApplyOutcome & { ok: false }): string {
  const where = o.line ? ` (line ${o.line}${o.column ? `, column ${o.column}` : ''})` : '';
  return `document ${o.document}${where}: ${o.status.message}`;
}

/** Applies a YAML manifest (one or more documents); the worker parses it and sends each object to the API server. */
export function ManifestForm() {
  const client = useClient();
  const id = useId();
  const [manifest, setManifest] = useState(example);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const { outcomes } = await client.call('api/apply', { manifest });
      const done = outcomes.filter((o): o is ApplyOutcome & { ok: true } => o.ok).map(outcomeLine);
      const failed = outcomes.filter((o): o is ApplyOutcome & { ok: false } => !o.ok);
      if (failed.length > 0) {
        const first = failed[0].status;
        appStore.getState().showError({ message: failed.map(failureLine).join('\n'), reason: first.reason, code: first.code });
      } else {
        appStore.getState().showNotice(done.length > 0 ? done.join('\n') : 'no objects passed to apply');
      }
    } catch (err) {
      appStore.getState().showError(toErrorView(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel" aria-labelledby={`${id}-title`} onSubmit={submit}>
      <h2 id={`${id}-title`}>Apply a manifest</h2>
      <label htmlFor={`${id}-manifest`}>Manifest</label>
      <textarea id={`${id}-manifest`} value={manifest} onChange={(e) => setManifest(e.target.value)} rows={10} spellCheck={false} />
      <button type="submit" disabled={busy}>
        Apply
      </button>
    </form>
  );
}
