/**
 * The check of an app's settings (issue #14, `PUT /api/apps/{apiKey}/settings`): the site config values an
 * agent reads from the server. `launcher` is guide.json's launcher config, checked by the agent's own
 * readLauncherConfig; `guides` holds the throttling and adoption-guide order of guides §3 and §4; `recording`
 * the recording plugin's switch and sampling (analytics: Recording plugin; used by issue #18); `formValidation`
 * the form fields the agent validates (analytics §2, §3, §5; shared/forms/formValidation); `guideMarkdown` whether
 * steps written in markdown are read as markdown (analytics: Markdown plugin; docs/markdown.md); `theme` the
 * look of every step (ours; shared/surfaces/guideTheme); `quotas` what the open collector endpoints store for the
 * app at most (ours, issue #31; server/ingest/createQuotaStore). The spec's site config has formValidation and
 * guideMarkdown on: so do our defaults.
 */
import { checkFormFields } from '../../shared/forms/formValidation';
import { readLauncherConfig } from '../../shared/surfaces/chooseLauncher';
import { checkTheme } from '../../shared/surfaces/guideTheme';
import type { AppQuotas, AppSettings } from '../../shared/api';

/**
 * An app's settings as stored: every part optional, an unset part keeps the server's default (`withDefaults`
 * makes the answer, shared/api AppSettings). A `guides` part may set one of its two; `quotas` any of theirs.
 */
export interface StoredSettings {
  launcher?: AppSettings['launcher'];
  guides?: Partial<AppSettings['guides']>;
  recording?: AppSettings['recording'];
  formValidation?: AppSettings['formValidation'];
  guideMarkdown?: boolean;
  theme?: AppSettings['theme'];
  quotas?: Partial<AppQuotas>;
}

// The answer's type, for the seed settings of server/createServer.ts (a cast of demo/settings.json).
export type { AppSettings };

/**
 * The quotas of an app that sets none: a thousand events a second, and a GiB of compressed recording a day. Far
 * over what the demo and the tests send; the bound of a runaway or hostile client of one app (issue #31).
 */
export const DEFAULT_QUOTAS: AppQuotas = { eventsPerMinute: 60_000, recordingBytesPerDay: 1_073_741_824 };

/** The largest quota: what the database's bigint and a JSON number both hold exactly. */
const MAX_QUOTA = Number.MAX_SAFE_INTEGER;

/** The settings every app starts with: nothing set but recording off. */
export const DEFAULT_SETTINGS: AppSettings = {
  launcher: null,
  guides: { throttling: { enabled: false, interval: 0, unit: 'minute' }, adoptionGuides: 'before' },
  recording: { enabled: false, sampleRate: 1 },
  formValidation: { enabled: true, fields: [] },
  guideMarkdown: true,
  theme: {},
  quotas: DEFAULT_QUOTAS,
};

/** What is wrong, and which field. */
export interface SettingsProblem {
  error: string;
  field: string;
}

const TOP = ['launcher', 'guides', 'recording', 'formValidation', 'guideMarkdown', 'theme', 'quotas'];
const QUOTAS = ['eventsPerMinute', 'recordingBytesPerDay'];

/** Returns the first problem of `body`, or null when it is a settings object the server keeps. */
export function checkSettings(body: unknown): SettingsProblem | null {
  if (!isObject(body)) return { error: 'settings must be a JSON object { launcher, guides, recording, formValidation, guideMarkdown, theme, quotas }', field: '' };
  const unknown = Object.keys(body).filter((key) => !TOP.includes(key));
  if (unknown.length) return { error: `unknown settings: ${unknown.join(', ')} (known: ${TOP.join(', ')})`, field: unknown[0] };
  if (body.launcher !== undefined && body.launcher !== null) {
    if (!isObject(body.launcher)) return { error: 'launcher must be an object {enabled, data} or null', field: 'launcher' };
    const read = readLauncherConfig(body.launcher);
    if (read && 'problem' in read) return { error: read.problem, field: fieldOf(read.problem) ?? 'launcher' };
  }
  if (body.guides !== undefined) {
    const guides = body.guides;
    if (!isObject(guides)) return { error: 'guides must be an object { throttling, adoptionGuides }', field: 'guides' };
    const extra = Object.keys(guides).filter((key) => key !== 'throttling' && key !== 'adoptionGuides');
    if (extra.length) return { error: `unknown guide settings: ${extra.join(', ')}`, field: `guides.${extra[0]}` };
    if (guides.throttling !== undefined) {
      const t = guides.throttling;
      if (!isObject(t)) return { error: 'guides.throttling must be an object { enabled, interval, unit }', field: 'guides.throttling' };
      if (typeof t.enabled !== 'boolean') return { error: 'guides.throttling.enabled must be true or false', field: 'guides.throttling.enabled' };
      if (typeof t.interval !== 'number' || !Number.isInteger(t.interval) || t.interval < 0) {
        return { error: 'guides.throttling.interval must be a whole number >= 0', field: 'guides.throttling.interval' };
      }
      if (t.unit !== 'minute' && t.unit !== 'hour' && t.unit !== 'day') {
        return { error: "guides.throttling.unit must be 'minute', 'hour' or 'day'", field: 'guides.throttling.unit' };
      }
    }
    if (guides.adoptionGuides !== undefined && guides.adoptionGuides !== 'before' && guides.adoptionGuides !== 'after') {
      return { error: "guides.adoptionGuides must be 'before' or 'after'", field: 'guides.adoptionGuides' };
    }
  }
  if (body.recording !== undefined) {
    const r = body.recording;
    if (!isObject(r)) return { error: 'recording must be an object { enabled, sampleRate, viewersSeeRecordings }', field: 'recording' };
    const extra = Object.keys(r).filter((key) => key !== 'enabled' && key !== 'sampleRate' && key !== 'viewersSeeRecordings');
    if (extra.length) return { error: `unknown recording settings: ${extra.join(', ')}`, field: `recording.${extra[0]}` };
    if (typeof r.enabled !== 'boolean') return { error: 'recording.enabled must be true or false', field: 'recording.enabled' };
    if (r.sampleRate !== undefined && !(typeof r.sampleRate === 'number' && r.sampleRate >= 0 && r.sampleRate <= 1)) {
      return { error: 'recording.sampleRate must be a number from 0 to 1', field: 'recording.sampleRate' };
    }
    if (r.viewersSeeRecordings !== undefined && typeof r.viewersSeeRecordings !== 'boolean') {
      return { error: 'recording.viewersSeeRecordings must be true or false', field: 'recording.viewersSeeRecordings' };
    }
  }
  if (body.formValidation !== undefined) {
    const f = body.formValidation;
    if (!isObject(f)) return { error: 'formValidation must be an object { enabled, fields }', field: 'formValidation' };
    const extra = Object.keys(f).filter((key) => key !== 'enabled' && key !== 'fields');
    if (extra.length) return { error: `unknown formValidation settings: ${extra.join(', ')}`, field: `formValidation.${extra[0]}` };
    if (typeof f.enabled !== 'boolean') return { error: 'formValidation.enabled must be true or false', field: 'formValidation.enabled' };
    // Absent is no fields; null is not a list (a stored null broke the readers of the settings).
    const checked = checkFormFields(f.fields === undefined ? [] : f.fields);
    if ('problem' in checked) return { error: `formValidation.${checked.problem}`, field: `formValidation.${checked.field}` };
  }
  if (body.guideMarkdown !== undefined && typeof body.guideMarkdown !== 'boolean') {
    return { error: 'guideMarkdown must be true or false', field: 'guideMarkdown' };
  }
  if (body.quotas !== undefined) {
    const q = body.quotas;
    if (!isObject(q)) return { error: 'quotas must be an object { eventsPerMinute, recordingBytesPerDay }', field: 'quotas' };
    const extra = Object.keys(q).filter((key) => !QUOTAS.includes(key));
    if (extra.length) return { error: `unknown quotas: ${extra.map((key) => `quotas.${key}`).join(', ')} (known: ${QUOTAS.join(', ')})`, field: `quotas.${extra[0]}` };
    for (const name of QUOTAS) {
      const value = q[name];
      if (value !== undefined && !(typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_QUOTA)) {
        return { error: `quotas.${name} must be a whole number from 0 to ${MAX_QUOTA}`, field: `quotas.${name}` };
      }
    }
  }
  if (body.theme !== undefined) return checkTheme(body.theme, 'theme');
  return null;
}

/** The stored settings with the defaults under them: what GET answers. */
export function withDefaults(stored: StoredSettings): AppSettings {
  return {
    launcher: stored.launcher ?? DEFAULT_SETTINGS.launcher,
    guides: { ...DEFAULT_SETTINGS.guides, ...stored.guides },
    recording: { ...DEFAULT_SETTINGS.recording!, ...stored.recording },
    formValidation: { ...DEFAULT_SETTINGS.formValidation!, ...stored.formValidation },
    guideMarkdown: stored.guideMarkdown ?? DEFAULT_SETTINGS.guideMarkdown,
    theme: stored.theme ?? DEFAULT_SETTINGS.theme,
    quotas: { ...DEFAULT_QUOTAS, ...stored.quotas },
  };
}

/** readLauncherConfig's messages start with the field (`launcher.data.position must be ...`). */
function fieldOf(problem: string): string | undefined {
  return /^(launcher(?:\.[\w]+)*)\b/.exec(problem)?.[1];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
