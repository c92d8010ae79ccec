/**
 * The preview endpoints of guides §7 "Preview" (issue #15): what an author's preview loads, a guide in any state
 * (a draft or staged guide is what one previews), behind the admin login like every /api route.
 * `GET /api/s/{subscriptionId}/guide/{guideId}/preview` and `.../resourcecenter/{guideId}/preview`, query `url`,
 * `apiKey`, `childGuides`, `ignoreGuide` (and ours: `language`) -> `{ guide, pages, children, guideCssUrl, normalizedUrl }`
 * (and ours: `languages`, `language`: issue #17, the preview bar's language options); an unknown
 * guide is 404 'Guide not found' (guides §8, what the preview bar shows). The reference server has one
 * subscription: apps are told apart by `apiKey`, and `subscriptionId` is not read.
 */
import { accessOf } from '../auth/routeAccess';
import { MESSAGES } from '../../shared/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Guide } from '../../shared/guides/guides';
import { applyTheme } from './applyTheme';
import { HttpError } from '../HttpError';
import type { GuideAssets } from './registerGuideAssetRoutes';
import type { GuideSource } from './createGuideSource';
import type { GuideStore } from './createGuideStore';
import { chooseLanguage, languagesOf, localizeGuide } from './localizeGuide';
import { isLanguageTag } from '../../shared/guides/languageTags';
import type { SegmentSubject } from '../../shared/segments/segmentConditions';
import { convertGuide, hasMarkdown, type MarkdownOptions } from '../markdown/applyMarkdown';

/** guides §8: the preview bar's message for a guide that does not exist. */
export const GUIDE_NOT_FOUND = MESSAGES.previewGuideNotFound;

type PreviewRequest = FastifyRequest<{
  Params: { subscriptionId: string; guideId: string };
  Querystring: Record<string, string | string[] | undefined>;
}>;

/** What the preview routes read. */
export interface PreviewRoutesOptions {
  guides: GuideStore;
  /** Guides of apps the database does not own yet (the guide folder). */
  source: GuideSource;
  assets?: GuideAssets;
}

/** Registers the two preview routes. */
export function registerPreviewRoutes(app: FastifyInstance, { guides, source, assets }: PreviewRoutesOptions): void {
  const find = async (apiKey: string, guideId: string): Promise<Guide | undefined> =>
    (await guides.get(apiKey, guideId))?.guide ?? (await source.list(apiKey)).find((g) => g.id === guideId);

  const preview = (resourceCenter: boolean) => async (request: PreviewRequest) => {
    const query = request.query;
    const apiKey = one(query, 'apiKey');
    if (!apiKey) throw new HttpError(400, 'apiKey is required: the app whose guide is previewed', 'apiKey');
    const url = one(query, 'url');
    if (url !== undefined && !/^https?:\/\//i.test(url)) throw new HttpError(400, 'url must be the http(s) URL of the page previewed', 'url');
    const stored = await find(apiKey, request.params.guideId);
    if (!stored) throw new HttpError(404, GUIDE_NOT_FOUND);
    // issue #17: the author's language choice (the preview bar's language options), else the authored language.
    const asked = one(query, 'language');
    if (asked !== undefined && !isLanguageTag(asked)) throw new HttpError(400, 'language must be a language tag such as fr or pt-BR', 'language');
    const language = chooseLanguage(stored, asked ? [asked] : []);
    // issue #17 markdown plugin: steps written in markdown as building blocks (as plain text when the site config
    // guideMarkdown is off). The preview knows no visitor: `{{...}}` tags show their fallbacks, and every step is
    // shown, skip markers not judged, as the guide's audience is not (server/markdown/applyMarkdown.ts).
    const site = await source.siteConfig(apiKey);
    const markdown = { enabled: site.guideMarkdown, skipSteps: false };
    const subject = { url };
    // The preview shows the guide in the app's theme, as its visitors will see it.
    const guide = applyTheme(withMarkdown(localizeGuide(stored, language), subject, markdown), site.theme);
    // childGuides: the ids of a resource center's modules to send with it (comma separated); ignoreGuide: one to leave out.
    const ignored = one(query, 'ignoreGuide');
    const childIds = (one(query, 'childGuides') ?? '').split(',').map((id) => id.trim()).filter((id) => id && id !== ignored);
    const children: Guide[] = [];
    if (resourceCenter) for (const id of childIds) {
      const child = await find(apiKey, id);
      if (child) children.push(applyTheme(withMarkdown(localizeGuide(child, chooseLanguage(child, [language])), subject, markdown), site.theme));
    }
    // guides §3: a guide's previewPages, the pages the preview bar offers.
    const previewPages: unknown = guide.previewPages;
    const pages = Array.isArray(previewPages) ? previewPages : [];
    return {
      guide,
      pages,
      children,
      // Ours beside the spec's fields: the languages the guide can be previewed in, the authored one first.
      languages: languagesOf(stored),
      language,
      // guides §7 Preview: the response names guideCssUrl; the app's guide CSS, or '' when it has none (issue #31).
      guideCssUrl: (assets ? (await assets.urls()).guideCssUrl : undefined) ?? '',
      normalizedUrl: url,
    };
  };

  app.get('/api/s/:subscriptionId/guide/:guideId/preview', accessOf('editor', { designer: true }), preview(false));
  app.get('/api/s/:subscriptionId/resourcecenter/:guideId/preview', accessOf('editor', { designer: true }), preview(true));
}

/** The guide with its markdown steps converted; every step is kept (skipSteps false), so one always comes back. */
function withMarkdown(guide: Guide, subject: SegmentSubject, options: MarkdownOptions): Guide {
  return hasMarkdown(guide) ? (convertGuide(guide, subject, options) ?? guide) : guide;
}

function one(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new HttpError(400, `${name} must be given once`, name);
  return value === '' ? undefined : value;
}
