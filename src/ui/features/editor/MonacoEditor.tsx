// The Monaco editor bound to the store's manifest buffer. Loaded lazily (React.lazy) so the first paint never
// waits for Monaco; markers come from the last Apply.
import { useEffect, useRef } from 'react';
import type { editor as MonacoEditorNs } from 'monaco-editor/esm/vs/editor/editor.api.js';
import { selectEditorMarkers, selectEffectiveDark } from '../../state/selectors';
import { appStore, useAppStore } from '../../state/store';
import { manifestModelUri, setUpMonaco } from './monaco-setup';

const markerOwner = 'kubeplay-apply';

export interface MonacoEditorProps {
  /** Ctrl/Cmd+Enter. */
  onApply(): void;
}

export default function MonacoEditor({ onApply }: MonacoEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<MonacoEditorNs.IStandaloneCodeEditor | undefined>(undefined);
  const applyRef = useRef(onApply);
  applyRef.current = onApply;
  const markers = useAppStore(selectEditorMarkers);
  const dark = useAppStore(selectEffectiveDark);
  const fontSize = useAppStore((s) => (s.presentation ? 20 : 14));

  useEffect(() => {
    const monaco = setUpMonaco();
    const uri = monaco.Uri.parse(manifestModelUri);
    const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(appStore.getState().manifest, 'yaml', uri);
    if (model.getValue() !== appStore.getState().manifest) model.setValue(appStore.getState().manifest);
    const editor = monaco.editor.create(host.current!, {
      model,
      ariaLabel: 'Manifest editor',
      automaticLayout: true,
      minimap: { enabled: false },
      // With React Flow on the page the EditContext API would swallow Space.
      editContext: false,
      tabSize: 2,
      insertSpaces: true,
      scrollBeyondLastLine: false,
      formatOnPaste: false,
      autoIndent: 'keep',
      fixedOverflowWidgets: true,
    });
    editorRef.current = editor;
    const sub = model.onDidChangeContent(() => appStore.getState().setManifest(model.getValue()));
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => applyRef.current());
    // The store may change the buffer too (a sample was chosen).
    const unsubscribe = appStore.subscribe((s) => {
      if (s.manifest !== model.getValue()) model.setValue(s.manifest);
    });
    return () => {
      unsubscribe();
      sub.dispose();
      editor.dispose();
      model.dispose();
      editorRef.current = undefined;
    };
  }, []);

  useEffect(() => {
    const monaco = setUpMonaco();
    const model = monaco.editor.getModel(monaco.Uri.parse(manifestModelUri));
    if (!model) return;
    monaco.editor.setModelMarkers(
      model,
      markerOwner,
      markers.map((m) => ({
        severity: monaco.MarkerSeverity.Error,
        message: m.message,
        startLineNumber: m.line,
        startColumn: m.column,
        endLineNumber: m.endLine,
        endColumn: Math.max(m.endColumn, m.column + 1),
      })),
    );
  }, [markers]);

  useEffect(() => {
    const apply = () => setUpMonaco().editor.setTheme(selectEffectiveDark(appStore.getState()) ? 'vs-dark' : 'vs');
    apply();
    // Following the system: the OS may switch between light and dark while the page is open.
    const query = matchMedia('(prefers-color-scheme: dark)');
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, [dark]);

  useEffect(() => {
    editorRef.current?.updateOptions({ fontSize });
  }, [fontSize]);

  return <div ref={host} className="monaco-host" data-testid="monaco-host" />;
}
