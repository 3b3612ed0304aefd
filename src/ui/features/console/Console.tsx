// The kubectl console: a transcript (role=log) and a prompt. Enter runs the line in the worker as kubectl;
// ↑/↓ walk the history; Tab completes commands, kinds, names and flags; Ctrl+C stops the running command (or
// copies when text is selected); Ctrl+L or `clear` clears. Shift+Enter adds a line, for heredocs; pasted
// multi-line text (a heredoc) runs as one input.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { useStore } from 'zustand';
import { appStore } from '../../state/store';
import { resourceKey } from '../../state/objects-slice';
import { useClient } from '../../worker-client/context';
import { complete } from './completion';
import { HistoryCursor } from './history';
import {
  appendEntries,
  clearTranscript,
  completionData,
  consoleStore,
  contextNamespace,
  finishEdit,
  interrupt,
  runLine,
  setDraft,
  type ConsoleEntry,
  type PendingEdit,
} from './console-store';
import './console.css';
import { samples } from '../editor/samples';

/** The gallery, for `kubectl apply -f samples/<id>.yaml`. */
const sampleFiles: Record<string, string> = Object.fromEntries(samples.map((s) => [`samples/${s.id}.yaml`, s.manifest]));

function objectNames(group: string, resource: string, namespace: string | undefined): string[] {
  const objects = appStore.getState().resources[resourceKey(group, resource)]?.objects;
  if (!objects) return [];
  const names: string[] = [];
  for (const obj of objects.values()) {
    if (namespace !== undefined && obj.metadata.namespace !== namespace) continue;
    if (obj.metadata.name) names.push(obj.metadata.name);
  }
  return names;
}

function hasPageSelection(): boolean {
  const selection = globalThis.getSelection?.();
  return !!selection && !selection.isCollapsed && selection.toString() !== '';
}

export function ConsolePanel() {
  const client = useClient();
  const entries = useStore(consoleStore, (s) => s.entries);
  const running = useStore(consoleStore, (s) => s.running);
  const draft = useStore(consoleStore, (s) => s.draft);
  const edit = useStore(consoleStore, (s) => s.edit);
  const namespace = useStore(consoleStore, (s) => contextNamespace(s.kubeconfig));
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const cursor = useRef<HistoryCursor | undefined>(undefined);

  useLayoutEffect(() => {
    const el = log.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [entries]);

  useEffect(() => {
    if (!running) input.current?.focus();
  }, [running]);

  const submit = () => {
    const line = consoleStore.getState().draft;
    cursor.current = undefined;
    following.current = true;
    void runLine(client, line, appStore.getState().manifest, sampleFiles);
  };

  const showHistory = (text: string | undefined) => {
    if (text === undefined) return;
    setDraft(text);
    requestAnimationFrame(() => {
      const el = input.current;
      if (el) el.selectionStart = el.selectionEnd = el.value.length;
    });
  };

  const completeAtCursor = async (el: HTMLTextAreaElement) => {
    const position = el.selectionStart;
    const before = el.value.slice(0, position);
    const after = el.value.slice(el.selectionEnd);
    let data;
    try {
      data = await completionData(client);
    } catch {
      return;
    }
    const state = consoleStore.getState();
    const result = complete(before, {
      catalog: data.catalog,
      resources: data.resources,
      namespace: contextNamespace(state.kubeconfig),
      objectNames: (rt, ns) => objectNames(rt.group, rt.resource, ns),
    });
    if (result.candidates.length) {
      appendEntries('command', before);
      appendEntries('info', result.candidates.join('  '));
    }
    setDraft(result.text + after);
    requestAnimationFrame(() => {
      if (input.current) input.current.selectionStart = input.current.selectionEnd = result.text.length;
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const el = e.currentTarget;
    const ctrl = e.ctrlKey || e.metaKey;
    if (e.key === 'Enter' && !e.shiftKey && !ctrl) {
      e.preventDefault();
      if (!running) submit();
      return;
    }
    if (ctrl && e.key.toLowerCase() === 'c' && !e.shiftKey) {
      // With text selected it copies, as in any terminal; otherwise it interrupts.
      if (el.selectionStart !== el.selectionEnd || hasPageSelection()) return;
      e.preventDefault();
      interrupt(client);
      return;
    }
    if (ctrl && e.key.toLowerCase() === 'l') {
      e.preventDefault();
      clearTranscript();
      return;
    }
    // Tab completes; on an empty prompt it moves focus on, so the keyboard is never trapped here.
    if (e.key === 'Tab' && !e.shiftKey && !ctrl && !e.altKey && el.value !== '') {
      e.preventDefault();
      void completeAtCursor(el);
      return;
    }
    if (e.key === 'ArrowUp' && !el.value.slice(0, el.selectionStart).includes('\n')) {
      e.preventDefault();
      cursor.current ??= new HistoryCursor(consoleStore.getState().history);
      showHistory(cursor.current.up(el.value));
      return;
    }
    if (e.key === 'ArrowDown' && !el.value.slice(el.selectionEnd).includes('\n')) {
      e.preventDefault();
      showHistory(cursor.current?.down());
    }
  };

  const onScroll = () => {
    const el = log.current;
    if (el) following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
  };

  // A click in the transcript that selects nothing goes back to the prompt.
  const onTranscriptMouseUp = () => {
    if (!hasPageSelection()) input.current?.focus();
  };

  const lines = Math.min(12, draft.split('\n').length);
  return (
    <div className="console" id="timeline-console" role="tabpanel" aria-labelledby="timeline-console-tab">
      <div className="console-log" role="log" aria-label="Console output" aria-live="polite" ref={log} onScroll={onScroll} onMouseUp={onTranscriptMouseUp}>
        {entries.length === 0 && <p className="console-hint">Type a kubectl command, e.g. kubectl get pods -A. Tab completes, ↑ recalls, Ctrl+C stops.</p>}
        {entries.map((entry) => (
          <Entry key={entry.id} entry={entry} />
        ))}
      </div>
      <div className="console-prompt">
        <span className="console-ps1" aria-hidden="true">
          {running ? '…' : '$'}
        </span>
        <textarea
          ref={input}
          aria-label="kubectl command"
          className="console-input"
          rows={lines}
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          autoCorrect="off"
          placeholder={running ? `${running.line.split('\n')[0]} is running — Ctrl+C stops it` : `kubectl … (namespace ${namespace})`}
          value={draft}
          onChange={(e) => {
            cursor.current = undefined;
            setDraft(e.target.value);
          }}
          onKeyDown={onKeyDown}
        />
        {running && (
          <button type="button" className="console-stop" onClick={() => interrupt(client)}>
            Stop
          </button>
        )}
      </div>
      {edit && <EditDialog edit={edit} onDone={(yaml) => finishEdit(client, yaml)} />}
    </div>
  );
}

function Entry({ entry }: { entry: ConsoleEntry }) {
  if (entry.kind === 'command') {
    return (
      <div className="console-entry console-command">
        <span aria-hidden="true">$ </span>
        {entry.text}
      </div>
    );
  }
  return <div className={`console-entry console-${entry.kind}`}>{entry.text === '' ? '\u00a0' : entry.text}</div>;
}

/** `kubectl edit`'s editor: the object's YAML to change; Save sends it back, Cancel (or Escape) leaves it. */
function EditDialog({ edit, onDone }: { edit: PendingEdit; onDone(yaml: string | null): void }) {
  const [text, setText] = useState(edit.yaml);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    setText(edit.yaml);
    area.current?.focus();
  }, [edit]);
  return (
    <div
      className="console-edit"
      role="dialog"
      aria-modal="true"
      aria-label={`Edit ${edit.title}`}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          onDone(null);
        } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          onDone(text);
        }
      }}
    >
      <div className="console-edit-head">
        <strong>kubectl edit {edit.title}</strong>
        <span className="console-edit-keys">Ctrl+Enter saves · Escape cancels</span>
      </div>
      <textarea ref={area} aria-label="Edited YAML" className="console-edit-text" spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="console-edit-actions">
        <button type="button" className="primary" onClick={() => onDone(text)}>
          Save
        </button>
        <button type="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </div>
  );
}
