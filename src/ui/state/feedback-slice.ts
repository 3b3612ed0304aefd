// What the page tells the user about their last action: the API's Status message on failure, a kubectl-like
// line ("configmap/demo created") on success.
import type { StateCreator } from 'zustand';
import type { AppState } from './store';

export interface ApiErrorView {
  message: string;
  reason: string;
  code: number;
}

export interface FeedbackSlice {
  error: ApiErrorView | undefined;
  notice: string | undefined;
  showError(error: ApiErrorView): void;
  showNotice(notice: string): void;
  clearError(): void;
}

export const createFeedbackSlice: StateCreator<AppState, [], [], FeedbackSlice> = (set) => ({
  error: undefined,
  notice: undefined,
  showError(error) {
    set({ error, notice: undefined });
  },
  showNotice(notice) {
    set({ notice, error: undefined });
  },
  clearError() {
    set({ error: undefined });
  },
});
