/**
 * `POST /api/apps/{apiKey}/designer/feature-preview` `{ "selector", "url"? }` -> `{ clicks, visitors, from, to,
 * partial }` (issue #35 "Tagged from the designer too"): the past clicks of the last 30 days a feature being tagged
 * would count (queryFeaturePreview), before it is saved; `url`, a page's URL rule, limits them to the page the
 * feature would be limited to. A read: viewers, and a designer session of the app (within its author's role), may
 * ask; nothing is stored or audited. The summaries are flushed first, so a click answered before counts.
 * Bodies over MAX_PREVIEW_BODY_BYTES are a 413; a bad selector or URL rule a 400 naming it. Another app's
 * elements are never read: every query is by the path's api key.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf } from '../auth/routeAccess';
import { HttpError } from '../HttpError';
import type { Database } from '../storage/Database';
import type { Summarizer } from '../summaries/createSummarizer';
import { readRuleText } from './checkRuleBodies';
import { compileSelector, MAX_SELECTOR_LENGTH } from './compileSelector';
import { compileUrlRule, MAX_URL_RULE_LENGTH } from './compileUrlRule';
import { queryFeaturePreview, type FeaturePreview } from './queryFeaturePreview';

/** The largest preview body: a selector and a URL rule at their longest, with room for JSON's escapes. */
export const MAX_PREVIEW_BODY_BYTES = 8 * 1024;

/** What the preview route reads. */
export interface FeaturePreviewOptions {
  db: Database;
  summaries: Pick<Summarizer, 'flush'>;
  /** The present, the end of the 30 days counted. @default Date.now */
  now?: () => number;
}

type PreviewRequest = FastifyRequest<{ Params: { apiKey: string }; Body: unknown }>;

const EXAMPLE = '{ "selector": "button.export", "url": "//*/reports/:id" }';

/** The body: its compiled selector and URL rule. */
function readPreviewBody(body: unknown) {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, `the body must be a JSON object: ${EXAMPLE}`, 'body');
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => key !== 'selector' && key !== 'url')?.slice(0, 40);
  if (unknown !== undefined) throw new HttpError(400, `unknown field ${JSON.stringify(unknown)} (known: selector, url)`, unknown);
  const selector = compileSelector(readRuleText(fields.selector, 'selector', MAX_SELECTOR_LENGTH, 'a CSS selector'));
  if ('problem' in selector) throw new HttpError(400, `selector ${selector.problem}`, 'selector');
  if (fields.url === undefined || fields.url === null) return { selector, url: undefined };
  const url = compileUrlRule(readRuleText(fields.url, 'url', MAX_URL_RULE_LENGTH, 'a URL rule such as //*/reports/:id'));
  if ('problem' in url) throw new HttpError(400, `url ${url.problem}`, 'url');
  return { selector, url };
}

/** Registers the designer's feature preview. */
export function registerFeaturePreviewRoutes(app: FastifyInstance, { db, summaries, now = Date.now }: FeaturePreviewOptions): void {
  app.post(
    '/api/apps/:apiKey/designer/feature-preview',
    { ...accessOf('viewer', { designer: true }), bodyLimit: MAX_PREVIEW_BODY_BYTES },
    async (request: PreviewRequest): Promise<FeaturePreview> => {
      const { selector, url } = readPreviewBody(request.body);
      await summaries.flush();
      return queryFeaturePreview(db, request.params.apiKey, selector, url, now());
    },
  );
}
