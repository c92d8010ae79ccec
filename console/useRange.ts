/**
 * The date range of the overview and guide stats, kept in the URL (`?range=7d`, or `?from=&to=` for a custom
 * one) so a view can be shared and survives a reload.
 */
import { useSearchParams } from 'react-router';

/** The presets of the range control. */
export const RANGE_PRESETS = [
  { key: '24h', label: 'Last 24 hours', ms: 24 * 3600_000 },
  { key: '7d', label: 'Last 7 days', ms: 7 * 86400_000 },
  { key: '30d', label: 'Last 30 days', ms: 30 * 86400_000 },
  { key: '90d', label: 'Last 90 days', ms: 90 * 86400_000 },
] as const;

/** A chosen range: a preset key or 'custom', and its from/to in epoch ms. */
export interface ChosenRange {
  key: string;
  from: number;
  to: number;
}

/** A preset's key. */
export type RangeKey = (typeof RANGE_PRESETS)[number]['key'];

/**
 * Reads the range from the URL and sets it; without one in the URL, the `fallback` preset (the last 7 days; a view
 * of weekly cohorts starts wider).
 */
export function useRange(now = Date.now(), fallback: RangeKey = '7d'): [ChosenRange, (next: ChosenRange) => void] {
  const [params, setParams] = useSearchParams();
  const from = Number(params.get('from'));
  const to = Number(params.get('to'));
  let range: ChosenRange;
  if (params.get('range') === 'custom' && from > 0 && to > from) range = { key: 'custom', from, to };
  else {
    const preset = RANGE_PRESETS.find((p) => p.key === params.get('range')) ?? RANGE_PRESETS.find((p) => p.key === fallback)!;
    // Rounded to the minute so the query key (and the cache) holds still between renders.
    const end = Math.ceil(now / 60_000) * 60_000;
    range = { key: preset.key, from: end - preset.ms, to: end };
  }
  const set = (next: ChosenRange) => {
    const copy = new URLSearchParams(params);
    copy.set('range', next.key);
    if (next.key === 'custom') {
      copy.set('from', String(next.from));
      copy.set('to', String(next.to));
    } else {
      copy.delete('from');
      copy.delete('to');
    }
    setParams(copy, { replace: true });
  };
  return [range, set];
}
