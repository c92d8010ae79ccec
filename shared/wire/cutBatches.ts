/**
 * Cuts a run of serialized events into batches whose estimated encoded size stays within `limit`
 * characters, estimating the compressed size as JSON length divided by `ratio` (spec: analytics §9,
 * compression ratio assumptions). Returns `[start, end)` index pairs. An event that alone exceeds the
 * estimate gets a batch of its own: the caller decides what to do with it once it is really compressed.
 */
export function cutBatches(lengths: readonly number[], limit: number, ratio: number): Array<[number, number]> {
  const budget = limit * ratio;
  const batches: Array<[number, number]> = [];
  let start = 0;
  // JSON array brackets, then one comma per event after the first.
  let size = 2;
  for (let i = 0; i < lengths.length; i++) {
    const add = lengths[i]! + (i > start ? 1 : 0);
    if (i > start && size + add > budget) {
      batches.push([start, i]);
      start = i;
      size = 2 + lengths[i]!;
    } else {
      size += add;
    }
  }
  if (lengths.length > start) batches.push([start, lengths.length]);
  return batches;
}

/** Joins serialized events into the JSON array text of one batch. */
export function joinBatch(jsons: readonly string[], start: number, end: number): string {
  return `[${jsons.slice(start, end).join(',')}]`;
}
