/**
 * The answers of the admin API's settings routes (docs/console-api.md "Settings"). Types only.
 */
import type { FormField } from '../forms/formValidation';
import type { GuideTheme } from '../surfaces/guideTheme';

/** What the collector stores for an app at most (issue #31): over one, a request is refused whole with 429. */
export interface AppQuotas {
  /** Events (analytics, guide and poll beacons together) accepted in a UTC minute. @default 60000 */
  eventsPerMinute: number;
  /** Bytes of recording chunks, as received (compressed), accepted in a UTC day. @default 1073741824 (1 GiB) */
  recordingBytesPerDay: number;
}

/**
 * `GET` and `PUT /api/apps/{apiKey}/settings`: an app's settings with the defaults filled in (a PUT replaces every
 * part it names and resets the others, so the console sends the whole object back).
 */
export interface AppSettings {
  /** guide.json's `launcher` ({ enabled, data }); null: the guide folder's launcher files. */
  launcher: Record<string, unknown> | null;
  /** guides §3 throttling of auto-launched guides; guides §4 Auto display: adoption guides before the others or after. */
  guides: { throttling: { enabled: boolean; interval: number; unit: 'minute' | 'hour' | 'day' }; adoptionGuides: 'before' | 'after' };
  /**
   * The recording plugin's switch and sampling; `viewersSeeRecordings` lets users of the viewer role watch the app's
   * recordings (issue #33; editors and admins always may), answered once an admin set it.
   */
  recording: { enabled: boolean; sampleRate: number; viewersSeeRecordings?: boolean };
  formValidation: { enabled: boolean; fields: FormField[] };
  guideMarkdown: boolean;
  /**
   * Every step's look (`{}`: the agent's own; a step's own `attributes.theme` values win); `GET|PUT
   * .../settings/theme` answer it alone.
   */
  theme: GuideTheme;
  /** Each one the app sets, else its default. */
  quotas: AppQuotas;
}

/** `POST /api/apps` `{ apiKey }`: 201 with `created: true`, or 200 with `created: false` for an app made before. */
export interface AppCreated {
  apiKey: string;
  created: boolean;
}
