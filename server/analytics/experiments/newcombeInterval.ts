/**
 * The 95% confidence interval of a difference of two proportions by Newcombe's hybrid score method (R. G. Newcombe,
 * "Interval estimation for the difference between independent proportions: comparison of eleven methods",
 * Statistics in Medicine 17, 1998, method 10), built from each proportion's Wilson score interval (E. B. Wilson,
 * 1927, without continuity correction). Chosen because it keeps close to its nominal coverage with small counts
 * and with proportions near 0 or 1, where the textbook Wald interval (p ± z·se) is too narrow or leaves [-1, 1],
 * and because it has a closed form: no iteration, the same answer everywhere.
 */

/** The standard normal quantile of 0.975: a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

/** An interval [lower, upper]. */
export interface Interval {
  lower: number;
  upper: number;
}

/** Wilson's score interval of `successes` out of `trials` (trials > 0). */
export function wilsonInterval(successes: number, trials: number, z = Z_95): Interval {
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // Rounding may leave the bounds a hair outside [0, 1] at p = 0 or 1.
  return { lower: Math.max(0, centre - half), upper: Math.min(1, centre + half) };
}

/**
 * Newcombe's interval of p1 - p2, p1 = x1/n1 and p2 = x2/n2 (n1, n2 > 0): with (l1, u1) and (l2, u2) their Wilson
 * intervals, [d - sqrt((p1 - l1)² + (u2 - p2)²), d + sqrt((u1 - p1)² + (p2 - l2)²)].
 */
export function newcombeInterval(x1: number, n1: number, x2: number, n2: number, z = Z_95): Interval {
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const a = wilsonInterval(x1, n1, z);
  const b = wilsonInterval(x2, n2, z);
  const d = p1 - p2;
  return {
    lower: d - Math.hypot(p1 - a.lower, b.upper - p2),
    upper: d + Math.hypot(a.upper - p1, p2 - b.lower),
  };
}
