/**
 * The look of an app's guide steps: background, text, button colour, border and corners. Ours: the spec names
 * no theme (only the tooltip's border caret, guides §9); product teams set their brand here as they do in any
 * guidance product. The app's theme is set in the console's Settings (`theme`); the server writes it into each
 * step's `attributes.theme` when it serves the step (a step's own values win), and the overlay turns it into CSS
 * custom properties of the step's box (overlay/styles.ts reads them, our defaults beneath).
 */
import { TOOLTIP_DEFAULTS } from '../constants';

/** A theme as stored and served; every part optional (an unset part keeps the overlay's default). */
export interface GuideTheme {
  /** The step's background, `#rgb` or `#rrggbb`. */
  background?: string;
  /** Its text and headings. */
  text?: string;
  /** Buttons, links and the progress bar; the button's text is black or white, whichever reads on it. */
  accent?: string;
  borderColor?: string;
  /** Border width in whole px, 0 to THEME_LIMITS.borderWidth; a tooltip's caret carries the border too. */
  borderWidth?: number;
  /** Corner radius in whole px, 0 to THEME_LIMITS.radius. */
  radius?: number;
}

export const THEME_LIMITS = { borderWidth: 8, radius: 24 } as const;

const COLORS = ['background', 'text', 'accent', 'borderColor'] as const;
const SIZES = ['borderWidth', 'radius'] as const;
/** A colour as themes write it: `#rgb` or `#rrggbb`. */
export const COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** What is wrong with a theme, naming the field under `at` (`theme.accent`), or null when it is one. */
export function checkTheme(raw: unknown, at: string): { error: string; field: string } | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { error: `${at} must be an object { ${[...COLORS, ...SIZES].join(', ')} }`, field: at };
  }
  for (const key of Object.keys(raw)) {
    const value = (raw as Record<string, unknown>)[key];
    const field = `${at}.${key}`;
    if ((COLORS as readonly string[]).includes(key)) {
      if (typeof value !== 'string' || !COLOR.test(value)) return { error: `${field} must be a colour written #rgb or #rrggbb`, field };
    } else if ((SIZES as readonly string[]).includes(key)) {
      const most = THEME_LIMITS[key as keyof typeof THEME_LIMITS];
      if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > most) {
        return { error: `${field} must be a whole number of px from 0 to ${most}`, field };
      }
    } else {
      return { error: `unknown theme field ${field} (known: ${[...COLORS, ...SIZES].join(', ')})`, field };
    }
  }
  return null;
}

/**
 * The step box's CSS custom properties for a served `attributes.theme`; a value that is not a theme's is left
 * out (the overlay's default shows), so a hand-written guide cannot write CSS through it.
 */
export function themeVars(raw: unknown): Record<string, string> {
  const vars: Record<string, string> = {};
  if (typeof raw !== 'object' || raw === null) return vars;
  const theme = raw as Record<string, unknown>;
  const color = (key: string) => colorOf(theme, key);
  const size = (key: keyof typeof THEME_LIMITS) => {
    const value = theme[key];
    return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= THEME_LIMITS[key] ? (value as number) : undefined;
  };
  const background = color('background');
  const text = color('text');
  const accent = color('accent');
  const borderColor = color('borderColor');
  const borderWidth = size('borderWidth');
  const radius = size('radius');
  if (background) vars['--wm-bg'] = background;
  if (text) {
    vars['--wm-text'] = text;
    // The close button, footer and hints: the text colour, quieter; hovers and dividers a tint of it.
    vars['--wm-muted'] = `${text}b3`;
    vars['--wm-hover'] = `${text}1a`;
    vars['--wm-line'] = `${text}2e`;
  }
  if (accent) {
    vars['--wm-accent'] = accent;
    vars['--wm-accent-hover'] = mix(accent, 0.88);
    vars['--wm-on-accent'] = onColor(accent);
  }
  // A border is a colour and a width over 0 together: half of one would only take room (a transparent border).
  if (borderColor && borderWidth) {
    vars['--wm-bc'] = borderColor;
    vars['--wm-bw'] = `${borderWidth}px`;
  }
  if (radius !== undefined) vars['--wm-radius'] = `${radius}px`;
  return vars;
}

/**
 * A tooltip's caret under the served theme: whether it carries a border (the theme draws one: a colour and a
 * width over 0), and how far its centre sits out from the box's padding edge. guides §9: a plain caret is 11 px,
 * centred on the box's edge; a bordered one is a 10 px caret plus the border, centred on the border's outer edge,
 * so it covers the border where it joins and its own border runs round its point.
 */
export function tooltipCaret(raw: unknown): { bordered: boolean; outset: number } {
  const vars = themeVars(raw);
  const border = vars['--wm-bw'] ? parseInt(vars['--wm-bw'], 10) : 0;
  return border
    ? { bordered: true, outset: (TOOLTIP_DEFAULTS.borderCaretSize + border) / 2 + border }
    : { bordered: false, outset: TOOLTIP_DEFAULTS.caretSize / 2 };
}

/** `given[key]` as `#rrggbb` when it is a colour as themes write it, else undefined. */
export function colorOf(given: Record<string, unknown>, key: string): string | undefined {
  const value = given[key];
  return typeof value === 'string' && COLOR.test(value) ? longHex(value) : undefined;
}

/** `#abc` -> `#aabbcc`. */
function longHex(hex: string): string {
  return hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}`.toLowerCase() : hex.toLowerCase();
}

function channels(hex: string): number[] {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

/** The colour darkened to `factor` of each channel (a hover state). */
function mix(hex: string, factor: number): string {
  return `#${channels(hex).map((c) => Math.round(c * factor).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The WCAG contrast ratio of two theme colours (`#rgb` or `#rrggbb`), 1 to 21; the console warns under 4.5 for
 * text (AA) and 3 for links and buttons against the background.
 */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(longHex(a)), luminance(longHex(b))].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black-ish or white, whichever has the more contrast on `hex` (WCAG contrast ratio). */
export function onColor(hex: string): string {
  const l = luminance(hex);
  const dark = luminance('#111827');
  return 1.05 / (l + 0.05) >= (l + 0.05) / (dark + 0.05) ? '#ffffff' : '#111827';
}

/** Relative luminance (WCAG) of a `#rrggbb` colour, 0 (black) to 1 (white). */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
