/**
 * The preview record (guides §3 Preview): what a running preview keeps in local storage per api key, so it goes
 * on across the host's page loads until the author exits. Pure checks; the page reads and writes the storage.
 */
import { httpOrigin } from './designerLaunch';

/** spec: analytics §7 "Browser storage keys: ... preview records" — one per api key (the key is ours). */
export const PREVIEW_STORAGE_PREFIX = '_wm_preview.';
/** The preview URL parameter (ours): a console's "Preview" link opens the host page with it. */
export const PREVIEW_PARAMETER = 'waymark-preview';
/**
 * spec: guides §3 — "a preview from a different agent install type is skipped". This agent has one install
 * type (the web agent, by snippet or npm); records written by another (a browser extension's) are skipped.
 */
export const INSTALL_TYPE = 'web';

/** spec: guides §3 Preview modes. */
export type PreviewMode = 'enter' | 'start' | 'restart' | 'update' | 'exit' | 'resize';

export interface PreviewRecord {
  apiKey: string;
  installType: string;
  guideId: string;
  /** A resource center preview uses the resourcecenter endpoint (guides §7). */
  resourceCenter?: boolean;
  /** The reference server (preview endpoint): an origin. */
  serverUrl: string;
  /** The origin that asked for the preview; its messages are the only ones taken (guides §3). */
  origin: string;
  /** The step shown, by index; kept as the author moves on, so a page load resumes there. */
  stepIndex: number;
  /** The author's language choice in the preview bar (guides §2), when the guide has translations. */
  language?: string;
  /** guides §3 "a same-tab preview returns to the designer" on exit. */
  fromDesigner?: boolean;
}

/** Why a stored or given record is not used: the preview exits with this line (guides §5, §8). */
export type PreviewRefusal = 'invalid origin' | 'invalid guide url' | 'apiKey mismatch' | 'other install type' | 'malformed';

/**
 * spec: guides §5 — "Preview origin must be valid and the apiKey must match; otherwise the preview exits."
 * Answers the record, or why it is refused.
 */
export function checkPreviewRecord(value: unknown, apiKey: string): { record: PreviewRecord } | { refused: PreviewRefusal } {
  if (!value || typeof value !== 'object') return { refused: 'malformed' };
  const v = value as Record<string, unknown>;
  if (typeof v.guideId !== 'string' || !v.guideId) return { refused: 'malformed' };
  if (v.installType !== undefined && v.installType !== INSTALL_TYPE) return { refused: 'other install type' };
  if (v.apiKey !== apiKey) return { refused: 'apiKey mismatch' };
  const origin = httpOrigin(v.origin);
  if (!origin) return { refused: 'invalid origin' };
  const serverUrl = httpOrigin(v.serverUrl);
  if (!serverUrl) return { refused: 'invalid guide url' };
  const stepIndex = typeof v.stepIndex === 'number' && Number.isInteger(v.stepIndex) && v.stepIndex >= 0 ? v.stepIndex : 0;
  return {
    record: {
      apiKey,
      installType: INSTALL_TYPE,
      guideId: v.guideId,
      resourceCenter: v.resourceCenter === true,
      serverUrl,
      origin,
      stepIndex,
      language: typeof v.language === 'string' ? v.language : undefined,
      fromDesigner: v.fromDesigner === true,
    },
  };
}
