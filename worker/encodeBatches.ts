/**
 * Turns a run of serialized events into jzb payloads that fit their transport (spec: analytics §7, §9):
 * one GET while the jzb stays within 1900 characters, otherwise POST silos of at most 65536 characters.
 * Batches are cut on estimates first (compression ratios 5, 3.75, 2.5 in turn), so nearly every payload is
 * compressed once; the real length then confirms the cut.
 */
import { COMPRESSION_RATIOS, GET_URL_LIMIT, SEND_SILO_LIMIT } from '../shared/constants';
import { cutBatches, joinBatch } from '../shared/cutBatches';
import { encodeJsonAsJzb } from '../shared/jzb';

export interface EncodedBatch {
  method: 'GET' | 'POST';
  jzb: string;
  /** The input events this payload carries: indexes [start, start + count). */
  start: number;
  count: number;
}

export interface EncodeResult {
  batches: EncodedBatch[];
  /** Indexes of single events too large for any payload, with their encoded length. */
  oversize: Array<{ index: number; length: number }>;
}

/** Ratios from optimistic to cautious: a failed estimate is cut again more cautiously. */
const RATIOS = [...COMPRESSION_RATIOS].sort((a, b) => b - a);

export function encodeBatches(jsons: readonly string[], mode: 'get-or-post' | 'get-only' | 'post-only'): EncodeResult {
  const result: EncodeResult = { batches: [], oversize: [] };
  if (jsons.length === 0) return result;
  const lengths = jsons.map((j) => j.length);

  if (mode !== 'post-only') {
    const whole = cutBatches(lengths, GET_URL_LIMIT, RATIOS[0]!);
    if (whole.length === 1 || mode === 'get-only') {
      fit(jsons, lengths, 0, jsons.length, GET_URL_LIMIT, 0, mode === 'get-only' ? 'GET' : null, result);
      return result;
    }
  }
  fit(jsons, lengths, 0, jsons.length, SEND_SILO_LIMIT, 0, 'POST', result);
  return result;
}

/**
 * Encodes events [start, end) into payloads within `limit`. `method` null means "GET if it fits, else
 * fall back to POST silos" (the get-or-post case for a run that was estimated to fit one GET).
 */
function fit(
  jsons: readonly string[],
  lengths: readonly number[],
  start: number,
  end: number,
  limit: number,
  ratioIndex: number,
  method: 'GET' | 'POST' | null,
  out: EncodeResult,
): void {
  const ratio = RATIOS[Math.min(ratioIndex, RATIOS.length - 1)]!;
  for (const [a, b] of cutBatches(lengths.slice(start, end), limit, ratio)) {
    const from = start + a;
    const to = start + b;
    const jzb = encodeJsonAsJzb(joinBatch(jsons, from, to));
    if (jzb.length <= limit) {
      out.batches.push({ method: method ?? 'GET', jzb, start: from, count: to - from });
    } else if (method === null) {
      // Did not fit one GET after all: the whole run goes as POST silos.
      fit(jsons, lengths, from, to, SEND_SILO_LIMIT, 0, 'POST', out);
    } else if (to - from === 1) {
      if (method === 'GET' && jzb.length <= SEND_SILO_LIMIT) out.batches.push({ method: 'GET', jzb, start: from, count: 1 });
      else out.oversize.push({ index: from, length: jzb.length });
    } else if (ratioIndex + 1 < RATIOS.length) {
      fit(jsons, lengths, from, to, limit, ratioIndex + 1, method, out);
    } else {
      const mid = from + Math.ceil((to - from) / 2);
      fit(jsons, lengths, from, mid, limit, ratioIndex, method, out);
      fit(jsons, lengths, mid, to, limit, ratioIndex, method, out);
    }
  }
}
