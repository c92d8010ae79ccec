/**
 * The Settings page's guide appearance: the colours, border and corners of every step of the app
 * (shared/surfaces/guideTheme), each empty for the agent's own. Beside them a sample step drawn with the
 * overlay's own stylesheet in a shadow root, as a visitor will see it, caret and border included, and a word when
 * the colours chosen would be hard to read.
 */
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { useFormContext } from 'react-hook-form';
import { THEME_LIMITS, themeVars, tooltipCaret, type GuideTheme } from '../../shared/surfaces/guideTheme';
import { DEFAULT_COLORS, hardToRead } from '../themeWarnings';
import { OVERLAY_CSS } from '../../overlay/styles';

/** What part of the Settings form this editor owns: every input is text, '' for the default. */
export interface ThemeForm {
  theme: Record<ThemeKey, string>;
}

type ThemeKey = keyof Required<GuideTheme>;

const COLORS: Array<{ key: ThemeKey; label: string; fallback: string }> = [
  { key: 'background', label: 'Background', fallback: DEFAULT_COLORS.background },
  { key: 'text', label: 'Text', fallback: DEFAULT_COLORS.text },
  { key: 'accent', label: 'Buttons and links', fallback: DEFAULT_COLORS.accent },
  { key: 'borderColor', label: 'Border', fallback: DEFAULT_COLORS.borderColor },
];
const SIZES: Array<{ key: 'borderWidth' | 'radius'; label: string }> = [
  { key: 'borderWidth', label: 'Border width (px)' },
  { key: 'radius', label: 'Corner radius (px)' },
];

export const themeFormOf = (theme: GuideTheme = {}): ThemeForm['theme'] => ({
  background: theme.background ?? '',
  text: theme.text ?? '',
  accent: theme.accent ?? '',
  borderColor: theme.borderColor ?? '',
  borderWidth: theme.borderWidth === undefined ? '' : String(theme.borderWidth),
  radius: theme.radius === undefined ? '' : String(theme.radius),
});

/** The form's values as the settings' `theme`: empty inputs left out; numbers as numbers (the server checks them). */
export function themeOfForm(form: ThemeForm['theme']): GuideTheme {
  const theme: Record<string, string | number> = {};
  for (const { key } of COLORS) if (form[key].trim()) theme[key] = form[key].trim();
  for (const { key } of SIZES) if (form[key].trim()) theme[key] = Number(form[key]);
  return theme as GuideTheme;
}

export function ThemeEditor({ errorAt }: { errorAt(prefix: string): string | undefined }) {
  const { register, setValue, watch } = useFormContext<ThemeForm>();
  const values = watch('theme');
  const theme = themeOfForm(values);
  const error = errorAt('theme');
  return (
    <section className="card form">
      <h2>Guide appearance</h2>
      <p className="muted">Every step of this app&apos;s guides; a guide&apos;s own theme wins. Empty: Waymark&apos;s default.</p>
      <div className="theme-editor">
        <div className="theme-fields">
          {COLORS.map(({ key, label, fallback }) => (
            <div className="field" key={key}>
              <span id={`theme-${key}`}>{label}</span>
              <div className="row">
                <input
                  type="color"
                  aria-label={`${label} colour picker`}
                  value={/^#[0-9a-f]{6}$/i.test(values[key]) ? values[key] : fallback}
                  onChange={(e) => setValue(`theme.${key}`, e.target.value, { shouldDirty: true })}
                />
                <input aria-labelledby={`theme-${key}`} placeholder="default" spellCheck={false} className="mono" {...register(`theme.${key}`)} />
              </div>
            </div>
          ))}
          {SIZES.map(({ key, label }) => (
            <label className="field" key={key}>
              <span>{label}</span>
              <input type="number" min={0} max={THEME_LIMITS[key]} step={1} placeholder="default" {...register(`theme.${key}`)} />
            </label>
          ))}
        </div>
        <ThemeSample theme={theme} />
      </div>
      {hardToRead(theme).map((warning) => (
        <p key={warning} className="warn-note" role="status">
          {warning}
        </p>
      ))}
      {error && <p className="field-error" role="alert">{error}</p>}
      <div className="toolbar">
        {/* Every field emptied: Waymark's own look once saved. */}
        <button type="button" onClick={() => setValue('theme', themeFormOf(), { shouldDirty: true })}>
          Use Waymark&apos;s look
        </button>
      </div>
    </section>
  );
}

/** A tooltip step in the overlay's own stylesheet, in a shadow root like the agent's. */
function ThemeSample({ theme }: { theme: GuideTheme }) {
  const host = useRef<HTMLDivElement>(null);
  const [root, setRoot] = useState<ShadowRoot | null>(null);
  useEffect(() => {
    const el = host.current!;
    const shadow = el.shadowRoot ?? el.attachShadow({ mode: 'open' });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(`${OVERLAY_CSS}\n.wm-step { position: relative; margin-top: 14px; }`);
    shadow.adoptedStyleSheets = [sheet];
    setRoot(shadow);
  }, []);
  const caret = tooltipCaret(theme);
  return (
    <div className="theme-sample" ref={host} aria-label="Sample step" role="figure">
      {root &&
        createPortal(
          <div className={caret.bordered ? 'wm-step wm-tooltip wm-bordered' : 'wm-step wm-tooltip'} data-side="bottom" style={{ width: 300, ...(themeVars(theme) as CSSProperties) }}>
            <div className="wm-caret" style={{ left: 40, top: -caret.outset }} />
            <button type="button" className="wm-close" aria-label="Close" tabIndex={-1}>
              ×
            </button>
            <h2>Welcome aboard</h2>
            <p>
              Your reports live here. <a href="#sample">Learn more</a>
            </p>
            <button type="button" tabIndex={-1}>
              Next
            </button>
            <div className="wm-footer">
              <span>Step 1 of 3</span>
            </div>
          </div>,
          root,
        )}
    </div>
  );
}
