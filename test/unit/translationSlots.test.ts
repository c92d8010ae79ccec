/**
 * Issue #17 localization, the console's translation editor: a step's texts in order, a translation written as the
 * authored content with its texts replaced, and read back (console/translationSlots.ts).
 */
import { describe, expect, it } from 'vitest';
import type { DomNode } from '../../shared/guides/guides';
import { checkBuildingBlocks } from '../../shared/guides/checkBuildingBlocks';
import { textSlots, translatedTexts, withTexts } from '../../console/translationSlots';

const authored: DomNode = {
  type: 'div',
  props: { id: 'guide-base' },
  children: [
    { type: 'h3', props: {}, content: 'Welcome' },
    { type: 'img', props: { src: 'https://cdn.example/a.png', alt: 'A chart' } },
    { type: 'p', props: {}, content: '   ' },
    { type: 'button', props: { id: 'next' }, content: 'Next', actions: [{ action: 'advanceGuide' }] },
  ],
};

describe('issue #17 translation editor: text slots', () => {
  it('lists the non-blank texts in order, with where each is', () => {
    expect(textSlots(authored)).toEqual([
      { kind: 'content', text: 'Welcome' },
      { kind: 'alt', text: 'A chart' },
      { kind: 'content', text: 'Next' },
    ]);
    expect(textSlots(undefined)).toEqual([]);
  });

  it('writes a translation that keeps structure, actions and URLs, blank texts as authored, and reads it back', () => {
    const fr = withTexts(authored, ['Bienvenue', '', 'Suivant']);
    expect(fr.children![0].content).toBe('Bienvenue');
    expect(fr.children![1].props).toEqual({ src: 'https://cdn.example/a.png', alt: 'A chart' });
    expect(fr.children![3]).toEqual({ type: 'button', props: { id: 'next' }, content: 'Suivant', actions: [{ action: 'advanceGuide' }] });
    expect(checkBuildingBlocks(fr, 'g', 's').ok).toBe(true);
    expect(translatedTexts(authored, fr)).toEqual({ texts: ['Bienvenue', '', 'Suivant'], reshaped: false });
    expect(translatedTexts(authored, undefined)).toEqual({ texts: ['', '', ''], reshaped: false });
    const byHand: DomNode = { type: 'div', props: {}, children: [{ type: 'p', props: {}, content: 'Tout autre chose' }] };
    expect(translatedTexts(authored, byHand)).toEqual({ texts: ['', '', ''], reshaped: true });
  });
});
