/**
 * The check of one guide an author saves (issue #14, `PUT /api/apps/{apiKey}/guides/{guideId}`): the agent's
 * own checks of a guide.json entry (shared/guides/validateGuidePayload: ids and step types; and
 * shared/guides/checkBuildingBlocks: every step's building blocks), so a guide the console accepts is one the
 * agent renders, plus the field at fault so the console can point at it. A guide's `audience` (the server's own
 * field) is checked in the condition language of shared/segments/segmentConditions.ts, a step's `markdown` (ours too)
 * by server/markdown/checkStepMarkdown.ts, its `goal` and `experiment` (issue #35) by
 * server/analytics/experiments/checkGuideGoal.ts.
 */
import { checkBuildingBlocks } from '../../shared/guides/checkBuildingBlocks';
import type { Guide, StepType } from '../../shared/guides/guides';
import { checkGuideLoadResponse } from '../../shared/guides/validateGuidePayload';
import { checkConditions } from '../../shared/segments/segmentConditions';
import { isLanguageTag } from '../../shared/guides/languageTags';
import { checkTheme } from '../../shared/surfaces/guideTheme';
import { checkNotificationBubble } from '../../shared/surfaces/notificationBubble';
import { epochMsOf } from '../../shared/eligibility/isInTimebox';
import { checkStepMarkdown } from '../markdown/checkStepMarkdown';
import { checkGoalFields } from '../analytics/experiments/checkGuideGoal';

/** What is wrong with a guide, and where (`steps[1].domJson`); `field` is '' for the whole body. */
export interface GuideProblem {
  error: string;
  field: string;
}

/** The step types the overlay draws (guides §3 Step type). */
export const STEP_TYPES: readonly StepType[] = ['tooltip', 'lightbox', 'mobile-lightbox', 'banner', 'whatsnew', 'launcher'];

/** The launch methods of guides §3, combined with '-' or ',' (`auto-launcher` is one of them). */
export const LAUNCH_METHODS = ['auto', 'api', 'badge', 'dom', 'launcher', 'extensionIcon'] as const;

/** Longest guide id or step id accepted: ids travel in URLs and event properties. */
export const MAX_GUIDE_ID_LENGTH = 128;

/** The step fields that hold a selector of the host page (`host >>> inner` reaches into a shadow root). */
const SELECTOR_FIELDS = ['elementPathRule', 'triggerElementPathRule', 'confirmationElementPathRule'] as const;

export interface GuideCheckOptions {
  /**
   * Whether a selector parses, where a DOM can tell (the console: the browser's own parser); the server has no
   * DOM and leaves selectors to the agent, which finds nothing with a selector that does not parse.
   */
  isSelector?(selector: string): boolean;
}

/**
 * Returns the first problem of `body` as the guide `guideId`, or null when the agent would take it.
 * Steps may leave out `guideId` (it is the guide's); a step that names another guide is refused.
 */
export function checkGuideBody(body: unknown, guideId: string, options: GuideCheckOptions = {}): GuideProblem | null {
  if (!isObject(body)) return { error: 'the guide must be a JSON object (one entry of guide.json guides[])', field: '' };
  if (typeof body.id !== 'string' || body.id === '') return { error: 'a guide has no string id', field: 'id' };
  if (body.id !== guideId) return { error: `the guide's id '${body.id}' differs from the id in the URL '${guideId}'`, field: 'id' };
  const idProblem = checkId(body.id, 'id');
  if (idProblem) return idProblem;
  if (body.name !== undefined && typeof body.name !== 'string') return { error: 'name must be a string', field: 'name' };
  const bubbleProblem = body.notificationBubble === undefined ? null : checkNotificationBubble(body.notificationBubble);
  if (bubbleProblem) return bubbleProblem;
  if (typeof body.launchMethod !== 'string' || body.launchMethod.trim() === '') {
    return { error: `launchMethod must be a string: a combination of ${LAUNCH_METHODS.join(', ')}`, field: 'launchMethod' };
  }
  const unknownMethod = body.launchMethod.split(/[-,\s]+/).find((m) => m !== '' && !(LAUNCH_METHODS as readonly string[]).includes(m));
  if (unknownMethod !== undefined) {
    return { error: `launchMethod '${body.launchMethod}' has '${unknownMethod}': use ${LAUNCH_METHODS.join(', ')}`, field: 'launchMethod' };
  }
  if (body.audience !== undefined) {
    const audienceProblem = checkAudience(body.audience);
    if (audienceProblem) return audienceProblem;
  }
  // issue #35: the goal and the experiment (server fields, never served to the agent).
  const goalProblem = checkGoalFields(body);
  if (goalProblem) return goalProblem;
  if (body.targetAccount !== undefined && body.targetAccount !== null) {
    const ids = Array.isArray(body.targetAccount) ? body.targetAccount : [body.targetAccount];
    if (!ids.length || ids.some((id) => !((typeof id === 'string' && id.trim() !== '') || (typeof id === 'number' && Number.isFinite(id))))) {
      return { error: 'targetAccount must be an account id, or a list of account ids', field: 'targetAccount' };
    }
  }
  const scheduleProblem = checkSchedule(body);
  if (scheduleProblem) return scheduleProblem;
  if (!Array.isArray(body.steps)) return { error: `guide ${body.id} has no steps array`, field: 'steps' };
  const languageProblem = checkTranslations(body, body.id);
  if (languageProblem) return languageProblem;
  if (body.steps.length === 0) return { error: `guide ${body.id} has no steps: a guide needs at least one`, field: 'steps' };
  const seen = new Set<string>();
  const stepIds = (body.steps as unknown[]).map((s) => (isObject(s) && typeof s.id === 'string' ? s.id : ''));
  for (const [index, step] of (body.steps as unknown[]).entries()) {
    const at = `steps[${index}]`;
    if (isObject(step) && step.guideId !== undefined && step.guideId !== body.id) {
      return { error: `step ${String(step.id)} names guide '${String(step.guideId)}', not '${body.id}'`, field: `${at}.guideId` };
    }
    // The agent's own check, one step at a time so the field can be named.
    const agent = checkGuideLoadResponse({ guides: [{ id: body.id, steps: [step] }], lastGuideStepSeen: {} });
    if (agent) return { error: agent, field: isObject(step) && typeof step.id === 'string' ? `${at}.type` : `${at}.id` };
    const { id, type } = step as { id: string; type: string };
    const stepIdProblem = checkId(id, `${at}.id`);
    if (stepIdProblem) return stepIdProblem;
    if (seen.has(id)) return { error: `two steps have the id '${id}'`, field: `${at}.id` };
    seen.add(id);
    if (!(STEP_TYPES as readonly string[]).includes(type)) {
      return { error: `step ${id} has type '${type}': use ${STEP_TYPES.join(', ')}`, field: `${at}.type` };
    }
    const ruleProblem = checkStepRules(step as Record<string, unknown>, id, options);
    if (ruleProblem) return { error: ruleProblem.error, field: `${at}.${ruleProblem.field}` };
    const theme = (step as { attributes?: { theme?: unknown } }).attributes?.theme;
    const themeProblem = theme === undefined ? null : checkTheme(theme, `${at}.attributes.theme`);
    if (themeProblem) return { error: `step ${id}: ${themeProblem.error}`, field: themeProblem.field };
    const content = (step as { domJson?: unknown }).domJson;
    if (content !== undefined) {
      const blocks = checkBuildingBlocks(content, body.id, id);
      if (!blocks.ok) return { error: blocks.message, field: `${at}.domJson` };
    }
    // issue #17 markdown plugin: every tag of a step written in markdown reads (docs/markdown.md).
    const markdown = (step as { markdown?: unknown }).markdown;
    if (markdown !== undefined) {
      const problem = checkStepMarkdown(markdown, id, stepIds);
      if (problem) return { error: problem, field: `${at}.markdown` };
    }
  }
  return null;
}

/**
 * A step's page rule compiles (the agent would drop a guide whose rule does not: autoDisplayRules), and its
 * selectors parse where `options` can tell. The problem's field is the step's own key.
 */
function checkStepRules(step: Record<string, unknown>, id: string, options: GuideCheckOptions): GuideProblem | null {
  const pageRule = step.regexUrlRule;
  if (pageRule !== undefined && typeof pageRule !== 'string') return { error: `step ${id}: regexUrlRule must be a string (a regular expression of the page URL)`, field: 'regexUrlRule' };
  if (pageRule) {
    try {
      new RegExp(pageRule);
    } catch (e) {
      const why = String((e as Error).message).split(': ').pop();
      return { error: `step ${id}: regexUrlRule '${pageRule}' is not a regular expression (${why})`, field: 'regexUrlRule' };
    }
  }
  for (const key of SELECTOR_FIELDS) {
    const rule = step[key];
    if (rule === undefined || rule === '') continue;
    if (typeof rule !== 'string') return { error: `step ${id}: ${key} must be a string (a CSS selector)`, field: key };
    const { isSelector } = options;
    if (isSelector && !rule.split('>>>').every((part) => isSelector(part.trim()))) return { error: `step ${id}: ${key} "${rule}" is not a CSS selector`, field: key };
  }
  return null;
}

/**
 * guides §4 Timebox: `showsAfter` and `expiresAfter` are times in epoch ms (a numeric string counts, as the agent
 * reads it); anything else the agent would ignore, so the guide would show when its author meant it not to.
 */
function checkSchedule(body: Record<string, unknown>): GuideProblem | null {
  const times: Partial<Record<'showsAfter' | 'expiresAfter', number>> = {};
  for (const key of ['showsAfter', 'expiresAfter'] as const) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    const ms = epochMsOf(value);
    if (ms === null) return { error: `${key} must be a time in epoch milliseconds (got ${JSON.stringify(value)})`, field: key };
    times[key] = ms;
  }
  if (times.showsAfter !== undefined && times.expiresAfter !== undefined && times.expiresAfter < times.showsAfter) {
    return { error: 'expiresAfter is before showsAfter: the guide would never show', field: 'expiresAfter' };
  }
  return null;
}

/** The guide as stored and served: every step names its guide. Call after `checkGuideBody` passed. */
export function withStepGuideIds(guide: Guide): Guide {
  return { ...guide, steps: guide.steps.map((step) => ({ ...step, guideId: step.guideId ?? guide.id })) };
}

function checkId(id: string, field: string): GuideProblem | null {
  if (id.length > MAX_GUIDE_ID_LENGTH) return { error: `${field} is longer than ${MAX_GUIDE_ID_LENGTH} characters`, field };
  if (/[\u0000-\u001f\u007f]/.test(id)) return { error: `${field} has a control character`, field };
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * issue #17 localization (server/guides/localizeGuide.ts): `authoredLanguage` a language tag; `translations` an
 * object of language tags, each `{ name?, steps: { <id of a step of the guide>: { domJson } } }`, every domJson
 * passing the agent's building-block check.
 */
function checkTranslations(body: Record<string, unknown>, guideId: string): GuideProblem | null {
  if (body.authoredLanguage !== undefined && !isLanguageTag(body.authoredLanguage)) {
    return { error: `authoredLanguage must be a language tag such as en or pt-BR (got ${JSON.stringify(body.authoredLanguage)})`, field: 'authoredLanguage' };
  }
  if (body.translations === undefined) return null;
  if (!isObject(body.translations)) return { error: 'translations must be an object: { "fr": { "steps": { "<stepId>": { "domJson": {...} } } } }', field: 'translations' };
  const stepIds = new Set((body.steps as unknown[]).map((s) => (isObject(s) ? s.id : undefined)));
  for (const [language, translation] of Object.entries(body.translations)) {
    const at = `translations.${language}`;
    if (!isLanguageTag(language)) return { error: `${language} is not a language tag such as fr or pt-BR`, field: at };
    if (!isObject(translation) || !isObject(translation.steps)) return { error: `${at} must be { "name"?: string, "steps": { "<stepId>": { "domJson": {...} } } }`, field: at };
    if (translation.name !== undefined && typeof translation.name !== 'string') return { error: `${at}.name must be a string`, field: `${at}.name` };
    for (const [stepId, step] of Object.entries(translation.steps)) {
      const field = `${at}.steps.${stepId}`;
      if (!stepIds.has(stepId)) return { error: `${at} translates a step the guide does not have: ${stepId}`, field };
      if (!isObject(step) || step.domJson === undefined) return { error: `${field} must be { "domJson": {...} }`, field };
      const blocks = checkBuildingBlocks(step.domJson, guideId, stepId);
      if (!blocks.ok) return { error: blocks.message, field: `${field}.domJson` };
    }
  }
  return null;
}

/** The longest segment id an audience may name (ids are UUIDs). */
const MAX_SEGMENT_ID_LENGTH = 100;

/**
 * A guide's audience: `{ "when": {path: condition} }`, `{ "segment": id }` (issue #35) or both, nothing else. That
 * the segment is the app's is the guide routes' to say.
 */
function checkAudience(audience: unknown): GuideProblem | null {
  const shape = 'audience must be an object {"when"?: {path: condition}, "segment"?: "<segment id>"} with at least one of them';
  if (!isObject(audience) || (audience.when === undefined && audience.segment === undefined)) return { error: shape, field: 'audience' };
  const unknown = Object.keys(audience).find((key) => key !== 'when' && key !== 'segment');
  if (unknown !== undefined) return { error: `audience has an unknown field '${unknown.slice(0, 40)}': ${shape}`, field: `audience.${unknown.slice(0, 40)}` };
  if (audience.when !== undefined) {
    const problem = checkConditions(audience.when);
    if (problem) return { error: `audience: ${problem}`, field: 'audience' };
  }
  const segment = audience.segment;
  if (segment !== undefined && (typeof segment !== 'string' || !/^[\w-]{1,100}$/.test(segment))) {
    return { error: `audience.segment must be the id of one of the app's segments (letters, digits, - and _, at most ${MAX_SEGMENT_ID_LENGTH})`, field: 'audience.segment' };
  }
  return null;
}
