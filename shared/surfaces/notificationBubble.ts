/**
 * guides §3 `notificationBubble` on the top-level resource center guide: the colours of its badge's unseen-count
 * bubble (guides §2), so a product team can put it in its brand. The spec names the field only; its shape is
 * ours: `{ background, color }`, each `#rgb` or `#rrggbb`; without `color` the count is written in black-ish or
 * white, whichever reads better on the background (WCAG contrast). The server checks it naming the field; the
 * overlay reads it into CSS custom properties and drops what is not a colour, so a guide cannot write CSS through it.
 */
import { COLOR, colorOf, onColor } from './guideTheme';

const KEYS = ['background', 'color'] as const;

/** What is wrong with a guide's `notificationBubble`, naming the field under `at`, or null when it is one. */
export function checkNotificationBubble(raw: unknown, at = 'notificationBubble'): { error: string; field: string } | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: `${at} must be an object { ${KEYS.join(', ')} }`, field: at };
  for (const [key, value] of Object.entries(raw)) {
    const field = `${at}.${key}`;
    if (!(KEYS as readonly string[]).includes(key)) return { error: `unknown notificationBubble field ${field} (known: ${KEYS.join(', ')})`, field };
    if (typeof value !== 'string' || !COLOR.test(value)) return { error: `${field} must be a colour written #rgb or #rrggbb`, field };
  }
  return null;
}

/** The bubble's CSS custom properties (`--wm-bubble`, `--wm-on-bubble`) for a served `notificationBubble`. */
export function bubbleVars(raw: unknown): Record<string, string> {
  if (typeof raw !== 'object' || raw === null) return {};
  const given = raw as Record<string, unknown>;
  const background = colorOf(given, 'background');
  const text = colorOf(given, 'color') ?? (background && onColor(background));
  return { ...(background && { '--wm-bubble': background }), ...(text && { '--wm-on-bubble': text }) };
}
