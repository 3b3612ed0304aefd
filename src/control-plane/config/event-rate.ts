// A sliding one-minute count of event creations in virtual time, kept as 60 one-second buckets so its memory
// does not grow with the cap (a benchmark may raise the cap to millions).
const bucketMs = 1000;
const buckets = 60;

export class EventRateWindow {
  private readonly counts = new Float64Array(buckets);
  /** The second each bucket holds (a bucket of an older second counts for nothing). */
  private readonly seconds = new Float64Array(buckets).fill(-1);

  /** Creations in the minute ending at now (the current second and the 59 before it). */
  count(now: number): number {
    const current = Math.floor(now / bucketMs);
    let sum = 0;
    for (let i = 0; i < buckets; i++) {
      const s = this.seconds[i];
      if (s > current - buckets && s <= current) sum += this.counts[i];
    }
    return sum;
  }

  record(now: number): void {
    const second = Math.floor(now / bucketMs);
    const i = ((second % buckets) + buckets) % buckets;
    if (this.seconds[i] !== second) {
      this.seconds[i] = second;
      this.counts[i] = 0;
    }
    this.counts[i]++;
  }
}
