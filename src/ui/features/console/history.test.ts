import { describe, expect, it } from 'vitest';
import { HistoryCursor, addToHistory, historyLimit, historyStorageKey, loadHistory, saveHistory } from './history';

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
    clear: () => data.clear(),
    key: (i) => [...data.keys()][i] ?? null,
    get length() {
      return data.size;
    },
  };
}

describe('console history', () => {
  it('adds lines like bash ignoredups and keeps at most the limit', () => {
    let h = addToHistory([], 'kubectl get pods');
    h = addToHistory(h, 'kubectl get pods');
    h = addToHistory(h, '   ');
    h = addToHistory(h, 'kubectl version');
    expect(h).toEqual(['kubectl get pods', 'kubectl version']);
    let long: string[] = [];
    for (let i = 0; i < historyLimit + 5; i++) long = addToHistory(long, `cmd ${i}`);
    expect(long).toHaveLength(historyLimit);
    expect(long[0]).toBe('cmd 5');
  });

  it('persists and reloads, ignoring what is not a list of strings', () => {
    const storage = memoryStorage();
    saveHistory(['a', 'b'], storage);
    expect(loadHistory(storage)).toEqual(['a', 'b']);
    storage.setItem(historyStorageKey, '{"not":"a list"}');
    expect(loadHistory(storage)).toEqual([]);
    storage.setItem(historyStorageKey, 'not json');
    expect(loadHistory(storage)).toEqual([]);
  });

  it('walks up and down, coming back to the draft', () => {
    const cursor = new HistoryCursor(['one', 'two', 'three']);
    expect(cursor.down()).toBeUndefined();
    expect(cursor.up('kubectl ge')).toBe('three');
    expect(cursor.up('three')).toBe('two');
    expect(cursor.up('two')).toBe('one');
    expect(cursor.up('one')).toBeUndefined();
    expect(cursor.down()).toBe('two');
    expect(cursor.down()).toBe('three');
    expect(cursor.down()).toBe('kubectl ge');
    expect(cursor.down()).toBeUndefined();
  });
});
