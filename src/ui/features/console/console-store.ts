// The console's state, kept outside the component so a running command keeps printing while another tab of the
// timeline is shown: the transcript, the command running (one at a time, as in a terminal), the history and the
// kubeconfig (both persisted), and a `kubectl edit` waiting for the user. The commands run in the worker
// ('kubectl/run'); this only shows what they print.
import { createStore } from 'zustand/vanilla';
import type { ResourceType } from '../../../shared/api/resources';
import type { KubectlEvent, ProtocolClient } from '../../../shared/protocol/client';
import type { KubeconfigState, KubectlCatalog } from '../../../shared/protocol/methods';
import { addToHistory, loadHistory, saveHistory } from './history';

export const kubeconfigStorageKey = 'kubeplay.console.kubeconfig';
/** Transcript lines kept; older ones scroll away for good. */
export const transcriptLimit = 5000;

export type EntryKind = 'command' | 'stdout' | 'stderr' | 'status' | 'info';

export interface ConsoleEntry {
  id: number;
  kind: EntryKind;
  text: string;
}

export interface PendingEdit {
  id: string;
  yaml: string;
  title: string;
}

export interface ConsoleState {
  entries: ConsoleEntry[];
  /** The command running, if any. */
  running?: { id: string; line: string };
  history: string[];
  kubeconfig: KubeconfigState;
  edit?: PendingEdit;
  /** What the prompt holds (kept here so it survives switching tabs). */
  draft: string;
  /** Completion data, fetched on the first Tab. */
  catalog?: KubectlCatalog;
  resources?: ResourceType[];
}

export function defaultKubeconfig(): KubeconfigState {
  return { currentContext: 'kubeplay', contexts: [{ name: 'kubeplay', cluster: 'kubeplay', user: 'admin' }] };
}

export function loadKubeconfig(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): KubeconfigState {
  try {
    const parsed = JSON.parse(storage?.getItem(kubeconfigStorageKey) ?? 'null') as KubeconfigState | null;
    if (parsed && typeof parsed.currentContext === 'string' && Array.isArray(parsed.contexts)) return parsed;
  } catch {
    // Unreadable: start from the default.
  }
  return defaultKubeconfig();
}

function saveKubeconfig(config: KubeconfigState): void {
  try {
    globalThis.localStorage?.setItem(kubeconfigStorageKey, JSON.stringify(config));
  } catch {
    // Storage full or disabled: the kubeconfig lives on in memory.
  }
}

/** The namespace commands run in when they name none: the current context's, else "default". */
export function contextNamespace(config: KubeconfigState): string {
  return config.contexts.find((c) => c.name === config.currentContext)?.namespace || 'default';
}

export const consoleStore = createStore<ConsoleState>()(() => ({
  entries: [],
  history: loadHistory(),
  kubeconfig: loadKubeconfig(),
  draft: '',
}));

let nextEntryId = 1;
let nextRunId = 1;

export function appendEntries(kind: EntryKind, text: string): void {
  const lines = text.split('\n').map((line) => ({ id: nextEntryId++, kind, text: line }));
  consoleStore.setState((s) => {
    const entries = [...s.entries, ...lines];
    return { entries: entries.length > transcriptLimit ? entries.slice(-transcriptLimit) : entries };
  });
}

export function clearTranscript(): void {
  consoleStore.setState({ entries: [] });
}

export function setDraft(draft: string): void {
  consoleStore.setState({ draft });
}

/**
 * Runs a console line in the worker: echoes it, streams its output into the transcript, opens the editor when it
 * asks, and shows the exit status when it fails. `clear` clears instead. Resolves with the exit code.
 */
export async function runLine(client: ProtocolClient, line: string, editorBuffer?: string, files?: Record<string, string>): Promise<number> {
  const state = consoleStore.getState();
  if (state.running) return -1;
  const history = addToHistory(state.history, line);
  saveHistory(history);
  consoleStore.setState({ history, draft: '' });
  appendEntries('command', line);
  if (line.trim() === 'clear') {
    clearTranscript();
    return 0;
  }
  if (line.trim() === '') return 0;

  const id = `run-${nextRunId++}-${Date.now().toString(36)}`;
  consoleStore.setState({ running: { id, line } });
  const unsubscribe = client.onKubectl((event: KubectlEvent) => {
    if (event.id !== id) return;
    if (event.type === 'kubectl/output') appendEntries(event.stream, event.text);
    else consoleStore.setState({ edit: { id, yaml: event.yaml, title: event.title } });
  });
  try {
    const result = await client.call('kubectl/run', {
      id,
      line,
      kubeconfig: consoleStore.getState().kubeconfig,
      ...(editorBuffer !== undefined ? { editorBuffer } : {}),
      ...(files !== undefined ? { files } : {}),
    });
    saveKubeconfig(result.kubeconfig);
    consoleStore.setState({ kubeconfig: result.kubeconfig });
    if (result.exitCode !== 0) appendEntries('status', `exit status ${result.exitCode}`);
    return result.exitCode;
  } catch (err) {
    appendEntries('stderr', `error: ${err instanceof Error ? err.message : String(err)}`);
    appendEntries('status', 'exit status 1');
    return 1;
  } finally {
    unsubscribe();
    consoleStore.setState((s) => (s.running?.id === id ? { running: undefined, edit: s.edit?.id === id ? undefined : s.edit } : {}));
  }
}

/** Ctrl+C: stops the running command (`^C` is echoed as a terminal does). */
export function interrupt(client: ProtocolClient): void {
  const { running } = consoleStore.getState();
  appendEntries('info', '^C');
  if (!running) {
    consoleStore.setState({ draft: '' });
    return;
  }
  consoleStore.setState({ edit: undefined });
  void client.call('kubectl/cancel', { id: running.id }).catch(() => undefined);
}

/** The user saved (yaml) or closed (null) the `kubectl edit` editor. */
export function finishEdit(client: ProtocolClient, yaml: string | null): void {
  const { edit } = consoleStore.getState();
  if (!edit) return;
  consoleStore.setState({ edit: undefined });
  void client.call('kubectl/edited', { id: edit.id, yaml }).catch(() => undefined);
}

/** Fetches what completion needs, once. */
export async function completionData(client: ProtocolClient): Promise<{ catalog: KubectlCatalog; resources: ResourceType[] }> {
  const state = consoleStore.getState();
  if (state.catalog && state.resources) return { catalog: state.catalog, resources: state.resources };
  const [catalog, discovery] = await Promise.all([client.call('kubectl/catalog'), client.call('api/discovery')]);
  consoleStore.setState({ catalog, resources: discovery.resources });
  return { catalog, resources: discovery.resources };
}
