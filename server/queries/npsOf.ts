/**
 * Net Promoter Score of an NPS poll's responses (docs/console-api.md): 9-10 promoters, 7-8 passives, 0-6
 * detractors; score = % promoters - % detractors, rounded. Responses that are not an integer 0-10 are left out.
 */
import type { Nps } from '../../shared/api';

/** NPS of `responses` (value and how many times it was given). */
export function npsOf(responses: ReadonlyArray<{ value: string | number; count: number }>): Nps {
  const distribution = new Array<number>(11).fill(0);
  for (const { value, count } of responses) {
    const score = typeof value === 'number' ? value : /^\d{1,2}$/.test(value) ? Number(value) : NaN;
    if (Number.isInteger(score) && score >= 0 && score <= 10) distribution[score] += count;
  }
  const total = distribution.reduce((a, b) => a + b, 0);
  const promoters = distribution[9] + distribution[10];
  const passives = distribution[7] + distribution[8];
  const detractors = total - promoters - passives;
  const score = total === 0 ? 0 : Math.round(((promoters - detractors) * 100) / total);
  return { score, promoters, passives, detractors, total, distribution };
}
