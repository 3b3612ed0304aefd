import { describe, expect, it } from 'vitest';
import { age, humanDuration } from './duration';

const s = 1000;
const m = 60 * s;
const h = 60 * m;
const d = 24 * h;

describe('humanDuration (kubectl AGE)', () => {
  it.each([
    [-3 * s, '<invalid>'],
    [-1 * s, '0s'],
    [0, '0s'],
    [45 * s, '45s'],
    [119 * s, '119s'],
    [2 * m, '2m'],
    [3 * m + 12 * s, '3m12s'],
    [10 * m, '10m'],
    [179 * m, '179m'],
    [3 * h, '3h'],
    [5 * h + 3 * m, '5h3m'],
    [30 * h, '30h'],
    [3 * d + 4 * h, '3d4h'],
    [2 * d, '2d'],
    [100 * d, '100d'],
    [3 * 365 * d + 12 * d, '3y12d'],
    [9 * 365 * d, '9y'],
  ])('%i ms → %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });

  it('computes an object age from its creationTimestamp and the simulated now', () => {
    expect(age('2026-01-01T00:00:00Z', Date.UTC(2026, 0, 1, 0, 4, 30))).toBe('4m30s');
    expect(age(undefined, 0)).toBe('<unknown>');
  });
});
