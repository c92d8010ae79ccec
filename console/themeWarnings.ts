/**
 * What of a guide theme visitors would find hard to read (WCAG contrast): text under 4.5:1 against the
 * background (AA), buttons and links under 3:1. A colour the theme leaves out counts as the overlay's own.
 */
import { contrastRatio, type GuideTheme } from '../shared/surfaces/guideTheme';

/** The overlay's own colours (overlay/styles.ts), what an unset part of a theme shows. */
export const DEFAULT_COLORS = { background: '#ffffff', text: '#1f2430', accent: '#3b5bdb', borderColor: '#cbd5e1' } as const;

const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function hardToRead(theme: GuideTheme): string[] {
  const color = (key: 'background' | 'text' | 'accent') => (theme[key] && COLOR.test(theme[key]) ? theme[key] : DEFAULT_COLORS[key]);
  const background = color('background');
  const warnings: string[] = [];
  const text = contrastRatio(color('text'), background);
  if (text < 4.5) warnings.push(`Text on this background is hard to read (contrast ${text.toFixed(1)}:1; aim for 4.5:1 or more).`);
  const accent = contrastRatio(color('accent'), background);
  if (accent < 3) warnings.push(`Buttons and links hardly stand out from this background (contrast ${accent.toFixed(1)}:1; aim for 3:1 or more).`);
  return warnings;
}
