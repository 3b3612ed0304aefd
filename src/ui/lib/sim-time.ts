/** Simulated time for the header: "2026-01-01 00:03:12 UTC". */
export function formatSimTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
