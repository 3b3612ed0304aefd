// The YAML editor panel: samples, Apply (button and Ctrl/Cmd+Enter), and kubectl-like results per document.
// Monaco arrives in its own chunk after the first paint; until then a plain placeholder holds its place. The
// YAML parser (apply-report) is loaded on first Apply, so it is not in the first-paint JavaScript either.
import { lazy, Suspense, useCallback, useId, useState } from 'react';
import { toErrorView } from '../../state/errors';
import { selectApplyLines } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import { useClient } from '../../worker-client/context';
import { samples } from './samples';

const MonacoEditor = lazy(() => import('./MonacoEditor'));

export function EditorPanel() {
  const client = useClient();
  const id = useId();
  const lines = useAppStore(selectApplyLines);
  const [busy, setBusy] = useState(false);

  const apply = useCallback(async () => {
    const manifest = appStore.getState().manifest;
    const { applyReport, parseManifests, syntaxMarkers, syntaxReport } = await import('./apply-report');
    const docs = parseManifests(manifest);
    const syntax = syntaxMarkers(docs);
    // Like kubectl: a file that does not parse applies nothing at all.
    if (syntax.length > 0) {
      appStore.getState().setApplyReport(syntaxReport(docs), syntax);
      return;
    }
    setBusy(true);
    try {
      const { outcomes } = await client.call('api/apply', { manifest });
      const report = applyReport(manifest, outcomes);
      appStore.getState().setApplyReport(report.lines, report.markers);
    } catch (err) {
      appStore.getState().setApplyReport([{ ok: false, text: toErrorView(err).message }], []);
    } finally {
      setBusy(false);
    }
  }, [client]);

  const loadSample = (sampleId: string) => {
    const sample = samples.find((s) => s.id === sampleId);
    if (!sample) return;
    appStore.getState().setManifest(sample.manifest);
    appStore.getState().setApplyReport([], []);
  };

  return (
    <section className="editor-panel" aria-labelledby={`${id}-title`}>
      <div className="panel-bar">
        <h2 id={`${id}-title`}>Manifest</h2>
        <label className="inline-label">
          <span className="visually-hidden">Samples</span>
          <select aria-label="Samples" value="" onChange={(e) => loadSample(e.target.value)}>
            <option value="">Load a sample…</option>
            {samples.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="primary" disabled={busy} onClick={() => void apply()} title="Apply (Ctrl/Cmd+Enter)">
          Apply
        </button>
      </div>
      <div className="editor-body">
        <Suspense fallback={<p className="editor-loading">Loading the editor…</p>}>
          <MonacoEditor onApply={() => void apply()} />
        </Suspense>
      </div>
      <ul className="apply-results" aria-label="Apply results" aria-live="polite">
        {lines.map((l, i) => (
          <li key={i} className={l.ok ? 'ok' : 'failed'}>
            {l.text}
          </li>
        ))}
      </ul>
    </section>
  );
}
