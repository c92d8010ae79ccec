import { bubbleVars, checkNotificationBubble } from '../../shared/surfaces/notificationBubble';
import { describe, expect, it } from 'vitest';
import { TOOLTIP_DEFAULTS } from '../../shared/constants';
import type { Guide } from '../../shared/guides/guides';
import { chooseResourceCenter } from '../../shared/surfaces/chooseResourceCenter';
import { readLauncherConfig } from '../../shared/surfaces/chooseLauncher';
import { checkTheme, themeVars, tooltipCaret } from '../../shared/surfaces/guideTheme';

describe('the app\'s guide theme (ours): checkTheme, themeVars, tooltipCaret', () => {
  it('checks each field, naming it under the given path', () => {
    expect(checkTheme({}, 'theme')).toBeNull();
    expect(checkTheme({ background: '#fff', text: '#1E293B', accent: '#facc15', borderColor: '#000', borderWidth: 0, radius: 24 }, 'theme')).toBeNull();
    expect(checkTheme([], 'theme')).toEqual({ error: 'theme must be an object { background, text, accent, borderColor, borderWidth, radius }', field: 'theme' });
    expect(checkTheme({ accent: 'red' }, 'theme')).toEqual({ error: 'theme.accent must be a colour written #rgb or #rrggbb', field: 'theme.accent' });
    expect(checkTheme({ accent: '#ffff' }, 'theme')?.field).toBe('theme.accent');
    expect(checkTheme({ borderWidth: 9 }, 'theme')).toEqual({ error: 'theme.borderWidth must be a whole number of px from 0 to 8', field: 'theme.borderWidth' });
    expect(checkTheme({ radius: 1.5 }, 'theme')?.field).toBe('theme.radius');
    expect(checkTheme({ shadow: 'none' }, 'steps[0].attributes.theme')).toEqual({
      error: 'unknown theme field steps[0].attributes.theme.shadow (known: background, text, accent, borderColor, borderWidth, radius)',
      field: 'steps[0].attributes.theme.shadow',
    });
  });

  it('turns a theme into the step box\'s custom properties; what is not a theme\'s value is left out', () => {
    expect(themeVars(undefined)).toEqual({});
    expect(themeVars({ background: '#1E293B', text: '#fff', accent: '#3b5bdb', borderColor: '#facc15', borderWidth: 2, radius: 0 })).toEqual({
      '--wm-bg': '#1e293b',
      '--wm-text': '#ffffff',
      '--wm-muted': '#ffffffb3',
      '--wm-hover': '#ffffff1a',
      '--wm-line': '#ffffff2e',
      '--wm-accent': '#3b5bdb',
      '--wm-accent-hover': '#3450c1',
      '--wm-on-accent': '#ffffff',
      '--wm-bc': '#facc15',
      '--wm-bw': '2px',
      '--wm-radius': '0px',
    });
    // A border is a colour and a width together: half of one draws nothing (and takes no room).
    expect(themeVars({ borderWidth: 3 })).toEqual({});
    expect(themeVars({ borderColor: '#000', borderWidth: 0 })).toEqual({});
    // A hand-written guide cannot write CSS through it.
    expect(themeVars({ background: 'red; position: fixed', accent: 'url(https://x)', borderWidth: 99, radius: '4px' })).toEqual({});
  });

  it('puts black-ish text on a light button colour and white on a dark one, whichever reads better', () => {
    expect(themeVars({ accent: '#facc15' })['--wm-on-accent']).toBe('#111827');
    expect(themeVars({ accent: '#ffffff' })['--wm-on-accent']).toBe('#111827');
    expect(themeVars({ accent: '#1d4ed8' })['--wm-on-accent']).toBe('#ffffff');
    expect(themeVars({ accent: '#000' })['--wm-on-accent']).toBe('#ffffff');
  });

  it('guides §9 border caret: a plain caret is 11 px centred on the edge; a bordered one 10 px plus the border, centred on its outer edge', () => {
    expect(TOOLTIP_DEFAULTS.caretSize).toBe(11);
    expect(TOOLTIP_DEFAULTS.borderCaretSize).toBe(10);
    expect(tooltipCaret(undefined)).toEqual({ bordered: false, outset: 5.5 });
    // A width without a colour, or a colour with width 0, draws no border.
    expect(tooltipCaret({ borderWidth: 3 })).toEqual({ bordered: false, outset: 5.5 });
    expect(tooltipCaret({ borderColor: '#000', borderWidth: 0 })).toEqual({ bordered: false, outset: 5.5 });
    expect(tooltipCaret({ borderColor: '#000', borderWidth: 1 })).toEqual({ bordered: true, outset: 6.5 });
    expect(tooltipCaret({ borderColor: '#000', borderWidth: 4 })).toEqual({ bordered: true, outset: 11 });
  });

  it('the launcher config carries the theme the server put beside it, for its badge and panel', () => {
    const read = readLauncherConfig({ enabled: true, data: {}, theme: { accent: '#facc15' } });
    expect(read && 'settings' in read ? read.settings.theme : null).toEqual({ accent: '#facc15' });
  });

  it('the resource center carries its first step\'s theme, for its badge and panel', () => {
    const theme = { accent: '#facc15' };
    const step = (id: string, extra = {}) => ({ id, guideId: id.split('-')[0]!, type: 'lightbox' as const, domJson: { type: 'p', props: {}, content: id }, ...extra });
    const guides: Guide[] = [
      { id: 'rc', name: 'Help', launchMethod: 'badge', attributes: { resourceCenter: { isTopLevel: true, children: ['mod'] } }, steps: [step('rc-1', { attributes: { theme } })] },
      { id: 'mod', name: 'Guides', launchMethod: 'api', attributes: { resourceCenter: { isModule: true, moduleId: 'guideList', children: ['a'] } }, steps: [step('mod-1')] },
      { id: 'a', name: 'A', launchMethod: 'api', steps: [step('a-1')] },
    ];
    const choice = chooseResourceCenter({ guides, lastGuideStepSeen: {} }, { url: 'https://app.example/', device: 'desktop', now: 0 });
    expect(choice.resourceCenter?.theme).toEqual(theme);
  });
});

describe('the console\'s word on a theme hard to read (WCAG contrast)', () => {
  it('measures contrast as WCAG does, and warns under 4.5:1 for text and 3:1 for buttons and links', async () => {
    const { contrastRatio } = await import('../../shared/surfaces/guideTheme');
    const { hardToRead } = await import('../../console/themeWarnings');
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(hardToRead({})).toEqual([]);
    expect(hardToRead({ background: '#1e293b', text: '#f8fafc', accent: '#facc15' })).toEqual([]);
    expect(hardToRead({ text: '#d1d5db' })).toEqual(['Text on this background is hard to read (contrast 1.5:1; aim for 4.5:1 or more).']);
    expect(hardToRead({ background: '#1e293b' })).toEqual([
      'Text on this background is hard to read (contrast 1.1:1; aim for 4.5:1 or more).',
      'Buttons and links hardly stand out from this background (contrast 2.6:1; aim for 3:1 or more).',
    ]);
  });
});

describe('guides §3 notificationBubble: the resource center bubble\'s colours', () => {
  it('is checked naming the field', () => {
    expect(checkNotificationBubble({ background: '#0b7285', color: '#fff' })).toBeNull();
    expect(checkNotificationBubble({})).toBeNull();
    expect(checkNotificationBubble('red')).toEqual({ error: 'notificationBubble must be an object { background, color }', field: 'notificationBubble' });
    expect(checkNotificationBubble({ background: 'red' })).toEqual({ error: 'notificationBubble.background must be a colour written #rgb or #rrggbb', field: 'notificationBubble.background' });
    expect(checkNotificationBubble({ fontSize: 12 })).toEqual({ error: 'unknown notificationBubble field notificationBubble.fontSize (known: background, color)', field: 'notificationBubble.fontSize' });
  });

  it('becomes CSS custom properties; the count is written in what reads on the background; what is not a colour is dropped', () => {
    expect(bubbleVars({ background: '#0b7285', color: '#fde68a' })).toEqual({ '--wm-bubble': '#0b7285', '--wm-on-bubble': '#fde68a' });
    expect(bubbleVars({ background: '#ffd43b' })).toEqual({ '--wm-bubble': '#ffd43b', '--wm-on-bubble': '#111827' });
    expect(bubbleVars({ background: '#123' })).toEqual({ '--wm-bubble': '#112233', '--wm-on-bubble': '#ffffff' });
    expect(bubbleVars({ background: 'red; display: none' })).toEqual({});
    expect(bubbleVars(undefined)).toEqual({});
  });
});
