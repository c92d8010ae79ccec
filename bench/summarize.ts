/**
 * The statistics the bench reports: medians with their range, never a single timing (STYLE §7).
 */

/** Median and range of a set of runs. */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** Every value, in run order, so the JSON can be re-analysed. */
  values: number[];
}

/** Median, min and max of `values` (the mean of the middle two for an even count). Throws on an empty list. */
export function spreadOf(values: number[]): Spread {
  if (values.length === 0) throw new Error('spreadOf needs at least one value');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, values };
}

/** Pads each column to its widest cell; numbers-looking cells are right-aligned. */
export function formatTable(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (/^[-+]?[\d.]+/.test(cell) && i > 0 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Bytes -> `12.3` (KB). */
export function kb(bytes: number): string {
  return (bytes / 1024).toFixed(1);
}

/** `0.123` -> `12%`. */
export function pct(share: number): string {
  return `${(share * 100).toFixed(0)}%`;
}

/** `12345.6` -> `12,346`. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
