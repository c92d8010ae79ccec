/**
 * The texts of a step a translator translates (issue #17 localization, the console's translation editor): each
 * building block's `content` and its `alt`, `title`, `placeholder` and `aria-label`, in document order. A
 * translation is the authored content with those texts replaced, so its structure, actions and styles stay the
 * authored ones. Pure.
 */
import type { DomNode } from '../shared/guides/guides';
import { mapTexts, type TextKind } from '../shared/guides/mapTexts';

/** One text of a step: where it is, and what the author wrote. */
export interface TextSlot {
  kind: TextKind;
  text: string;
}

/** Every non-blank text of `node`, in order. */
export function textSlots(node: DomNode | undefined): TextSlot[] {
  const slots: TextSlot[] = [];
  if (node) mapTexts(node, (text, kind) => (slots.push({ kind, text }), text));
  return slots;
}

/** `authored` with its texts replaced by `texts` (same order as textSlots); a blank one keeps the authored text. */
export function withTexts(authored: DomNode, texts: readonly (string | undefined)[]): DomNode {
  let i = 0;
  return mapTexts(authored, (original) => {
    const next = texts[i++];
    return next !== undefined && next.trim() ? next : original;
  });
}

/**
 * The texts a stored translation gives each slot of the authored content: read in order when its shape is the
 * authored one (as this editor writes them); a translation written otherwise (by hand, another structure) reads
 * as untranslated texts, and `reshaped` says so.
 */
export function translatedTexts(authored: DomNode | undefined, translated: DomNode | undefined): { texts: string[]; reshaped: boolean } {
  const slots = textSlots(authored);
  if (!translated) return { texts: slots.map(() => ''), reshaped: false };
  const theirs = textSlots(translated);
  if (theirs.length !== slots.length || theirs.some((s, i) => s.kind !== slots[i]!.kind)) return { texts: slots.map(() => ''), reshaped: true };
  // A text equal to the authored one was left untranslated.
  return { texts: theirs.map((s, i) => (s.text === slots[i]!.text ? '' : s.text)), reshaped: false };
}
