// apimachinery pkg/util/duration HumanDuration: how AGE, DURATION and "(5m ago)" cells read, wherever they are
// printed (the API server's Tables, kubectl describe, the page).

/** "45s", "3m12s", "25m", "5h3m", "30h", "3d4h", "100d", "3y12d", "9y"; "0s" for a skew under 2 s, else "<invalid>". */
export function humanDuration(ms: number): string {
  // int(d.Seconds()) truncates toward zero.
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) {
    const dy = days % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/** AGE of an object at simulated time `now`, or "<unknown>" without a (valid) creationTimestamp. */
export function age(creationTimestamp: string | undefined, now: number): string {
  if (!creationTimestamp) return '<unknown>';
  const created = Date.parse(creationTimestamp);
  return Number.isNaN(created) ? '<unknown>' : humanDuration(now - created);
}
