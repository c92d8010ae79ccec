/**
 * The markdown plugin at the guide level (issue #17; analytics-spec: "Markdown plugin behaviour (branching,
 * required questions, step skipping, metadata substitution): tag syntax not shown"). A step may carry `markdown`
 * (the reference server's field, docs/markdown.md). guide.json (server/ingest/registerDataRoutes.ts) and the preview
 * endpoint (server/guides/registerPreviewRoutes.ts) serve each such step with its `domJson` made from it for the
 * visitor asking: steps whose skip markers hold for the visitor are left out (a guide left with no step is not
 * served), `{{...}}` values come from the visitor's guide.json payload, `[[...]]` buttons and `???` questions
 * become the agent's building blocks. The agent is unchanged: it checks and renders those blocks as any others.
 * With the site config `guideMarkdown` off, nothing is read: the source is served as plain text. The `markdown`
 * field itself is never served. Pure.
 */
import type { Guide, GuideStep } from '../../shared/guides/guides';
import { normalizeLanguage } from '../../shared/guides/languageTags';
import type { SegmentSubject } from '../../shared/segments/segmentConditions';
import { markdownToBlocks, plainTextBlocks, type GoToTarget } from './markdownToBlocks';
import { isSkipped } from './parseSkipMarker';
import { parseStepMarkdown, type ParsedMarkdown } from './parseStepMarkdown';

/** How guides are served. */
export interface MarkdownOptions {
  /** The site config `guideMarkdown` (server/guides/createGuideSource.ts): false serves the source as plain text. */
  enabled: boolean;
  /**
   * Whether skip markers are judged. The preview endpoint shows an author every step (it knows no visitor, and it
   * ignores a guide's audience as well).
   * @default true
   */
  skipSteps?: boolean;
}

/** True when a guide has a step written in markdown. */
export function hasMarkdown(guide: Guide): boolean {
  return guide.steps.some((step) => typeof step.markdown === 'string');
}

/** The guides as served to the visitor whose guide.json payload is `subject`: see the file's comment. */
export function applyMarkdown(guides: readonly Guide[], subject: SegmentSubject, options: MarkdownOptions): Guide[] {
  const served: Guide[] = [];
  for (const guide of guides) {
    const converted = hasMarkdown(guide) ? convertGuide(guide, subject, options) : guide;
    if (converted) served.push(converted);
  }
  return served;
}

/** One guide with markdown steps as served; undefined when every step is skipped for the visitor. */
export function convertGuide(guide: Guide, subject: SegmentSubject, { enabled, skipSteps = true }: MarkdownOptions): Guide | undefined {
  if (!enabled) {
    // issue #17: "gate it on the site config guideMarkdown" — off, the source is text: no tag is read.
    return { ...guide, steps: guide.steps.map((step) => (typeof step.markdown === 'string' ? { ...withoutMarkdown(step), domJson: plainTextBlocks(step.markdown) } : step)) };
  }
  const parsed = new Map<GuideStep, ParsedMarkdown>();
  for (const step of guide.steps) if (typeof step.markdown === 'string') parsed.set(step, parseStepMarkdown(step.markdown));
  // spec: "Markdown plugin behaviour (... step skipping ...)" — before seen states are applied
  // (server/guides/applyStepStates.ts), so a skipped step carries none.
  const kept = guide.steps.filter((step) => !(skipSteps && isSkipped(parsed.get(step)?.skips ?? [], subject)));
  if (kept.length === 0) return undefined;
  const polls = [...(guide.polls ?? [])];
  const steps = kept.map((step) => {
    const read = parsed.get(step);
    if (!read) return step;
    // A step translated for the visitor's language keeps its translated building blocks (localizeGuide); its
    // markdown still said whether it is skipped.
    if (isTranslated(guide, step.id)) return withoutMarkdown(step);
    const goTo = (target: string) => resolveGoTo(guide.steps, kept, step.id, target);
    const blocks = markdownToBlocks(read.tokens, { guideId: guide.id, stepId: step.id, subject, goTo });
    for (const poll of blocks.polls) {
      const at = polls.findIndex((p) => p.id === poll.id);
      if (at >= 0) polls.splice(at, 1, poll);
      else polls.push(poll);
    }
    const attributes = blocks.required ? { ...step.attributes, isRequired: true } : step.attributes;
    return { ...withoutMarkdown(step), domJson: blocks.domJson, ...(attributes ? { attributes } : {}) };
  });
  return { ...guide, steps, ...(polls.length ? { polls } : {}) };
}

/**
 * Where `[[Go to step <target>]]` on step `from` goes: the step at that 1-based position of the guide as written
 * (a target of digits) or with that id. A step skipped for the visitor: the next one served after it, else the
 * end of the guide (the button dismisses it). Null when the guide has no such step (the tag stays as text);
 * 'none' when the agent would refuse the jump for this visitor (to its own step, or from the first step straight
 * to the last of more than two: guides §4 Advance), and the button is left out.
 */
export function resolveGoTo(all: readonly GuideStep[], kept: readonly GuideStep[], from: string, target: string): GoToTarget {
  const index = /^\d+$/.test(target) ? Number(target) - 1 : all.findIndex((s) => s.id === target);
  if (index < 0 || index >= all.length) return null;
  const served = new Set(kept.map((s) => s.id));
  const next = all.slice(index).find((s) => served.has(s.id));
  if (!next) return 'end';
  if (next.id === from) return 'none';
  // spec: guides §4 Advance — "Skipping directly from the first to the last step is refused".
  if (kept.length > 2 && kept[0]!.id === from && kept[kept.length - 1]!.id === next.id) return 'none';
  return { stepId: next.id };
}

/** The step without the server's `markdown` field: it is never served. */
function withoutMarkdown(step: GuideStep): GuideStep {
  const { markdown: _source, ...rest } = step;
  return rest;
}

/** True when localizeGuide served the step's translated building blocks (server/guides/localizeGuide.ts). */
function isTranslated(guide: Guide, stepId: string): boolean {
  const { language, authoredLanguage } = guide;
  if (!language || !authoredLanguage || normalizeLanguage(language) === normalizeLanguage(authoredLanguage)) return false;
  return guide.translationStates?.[language]?.[stepId] !== undefined;
}

