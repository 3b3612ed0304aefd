// The console's command history, as a shell keeps it: newest last, no empty lines, no immediate repeats, capped,
// and persisted in localStorage so a reload keeps it. HistoryCursor walks it with ↑/↓, keeping the line being
// typed as a draft to come back to.

export const historyStorageKey = 'kubeplay.console.history';
export const historyLimit = 500;

export function loadHistory(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(historyStorageKey) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((x): x is string => typeof x === 'string').slice(-historyLimit) : [];
  } catch {
    return [];
  }
}

export function saveHistory(entries: readonly string[], storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage): void {
  try {
    storage?.setItem(historyStorageKey, JSON.stringify(entries.slice(-historyLimit)));
  } catch {
    // Storage full or disabled: the history lives on in memory.
  }
}

/** The history with `line` added (bash's ignoredups: an immediate repeat is kept once). */
export function addToHistory(entries: readonly string[], line: string): string[] {
  const trimmed = line.trim();
  if (trimmed === '' || entries[entries.length - 1] === line) return [...entries];
  return [...entries, line].slice(-historyLimit);
}

/** ↑/↓ over a history snapshot. index === entries.length is the draft (the line being typed). */
export class HistoryCursor {
  private index: number;
  private draft = '';

  constructor(private readonly entries: readonly string[]) {
    this.index = entries.length;
  }

  /** ↑: the previous entry, or undefined at the oldest. `current` is what the prompt holds now. */
  up(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index];
  }

  /** ↓: the next entry, then the draft; undefined when already at the draft. */
  down(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index++;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }
}
