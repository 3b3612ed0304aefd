// The manifest buffer and what the last Apply reported per document. The buffer is saved to localStorage on
// every change so a reload never loses it.
import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export const manifestStorageKey = 'kubeplay.editor.manifest';

/** One line of Apply's report: kubectl's `deployment.apps/nginx created`, or the API's error for a document. */
export interface ApplyLine {
  ok: boolean;
  text: string;
}

/** A problem to mark in the editor (1-based lines and columns). */
export interface EditorMarker {
  message: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface EditorSlice {
  manifest: string;
  applyLines: readonly ApplyLine[];
  markers: readonly EditorMarker[];
  setManifest(manifest: string): void;
  setApplyReport(lines: ApplyLine[], markers: EditorMarker[]): void;
}

export function loadManifest(fallback: string): string {
  try {
    return globalThis.localStorage?.getItem(manifestStorageKey) ?? fallback;
  } catch {
    return fallback;
  }
}

function saveManifest(text: string): void {
  try {
    globalThis.localStorage?.setItem(manifestStorageKey, text);
  } catch {
    // Storage full or disabled: the buffer lives on in memory.
  }
}

export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = (set) => ({
  manifest: '',
  applyLines: [],
  markers: [],
  setManifest(manifest) {
    saveManifest(manifest);
    set({ manifest });
  },
  setApplyReport(applyLines, markers) {
    set({ applyLines, markers });
  },
});
