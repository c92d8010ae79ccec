/**
 * The console's check of a step written in markdown (issue #17: "bad input gets a clear error; nothing lost"):
 * the guide PUT (server/guides/checkGuideBody.ts) refuses a step whose markdown holds a tag that cannot be read,
 * naming the step and the line. guide.json would show such a tag as the text written (server/markdown/
 * parseStepMarkdown.ts), so a guide from the guide folder, which no PUT checked, still shows every word. Pure.
 */
import { MAX_MARKDOWN_LENGTH, metaOf, parseStepMarkdown } from './parseStepMarkdown';
import type { ButtonTag } from './parseTags';

/**
 * What is wrong with step `stepId`'s `markdown`, in words naming the step and the line; null when every tag reads.
 * @param stepIds the ids of the guide's steps in order: what `[[Go to step ...]]` may name.
 */
export function checkStepMarkdown(markdown: unknown, stepId: string, stepIds: readonly string[]): string | null {
  if (typeof markdown !== 'string') return `step ${stepId}: markdown must be a string (the step's content written in markdown, docs/markdown.md)`;
  if (markdown.length > MAX_MARKDOWN_LENGTH) return `step ${stepId}: markdown is longer than ${MAX_MARKDOWN_LENGTH} characters`;
  const { tokens, problems } = parseStepMarkdown(markdown);
  for (const token of tokens.flatMap((t) => t.children ?? [])) {
    if (token.type !== 'wm_button') continue;
    const tag = metaOf<ButtonTag & { line: number }>(token);
    const why = tag.kind === 'goToStep' ? goToProblem(stepIds, stepId, tag.target ?? '') : null;
    if (why) problems.push({ line: tag.line, message: `${token.content}: ${why}` });
  }
  const first = problems.sort((a, b) => a.line - b.line)[0];
  return first ? `step ${stepId}, markdown line ${first.line}: ${first.message}` : null;
}

/** What is wrong with the go-to target of a button on step `from`, or null. */
export function goToProblem(stepIds: readonly string[], from: string, target: string): string | null {
  const digits = /^\d+$/.test(target);
  const index = digits ? Number(target) - 1 : stepIds.indexOf(target);
  if (index < 0 || index >= stepIds.length) {
    return digits ? `the guide has no step ${target} (it has ${stepIds.length})` : `the guide has no step with the id '${target}'`;
  }
  if (stepIds[index] === from) return 'a button cannot go to its own step';
  // spec: guides §4 Advance — "Skipping directly from the first to the last step is refused" (by the agent).
  if (stepIds.length > 2 && stepIds[0] === from && index === stepIds.length - 1) {
    return 'the agent refuses a jump from the first step straight to the last (guides §4 Advance): name another step, or use [[Next]]';
  }
  return null;
}
