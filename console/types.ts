/**
 * The answers of the admin API as the console reads them: shared/api, the one description the server's routes
 * answer with (docs/console-api.md), under the names the console's pages use; and the console's own view of a
 * guide body. Times are epoch ms.
 */
import type { ConsoleRange, GuideDetail } from '../shared/api';

export type * from '../shared/api';
export type {
  AgentHealth as HealthAnswer,
  ConsoleRange as Range,
  RecordingSummary as RecordingRow,
} from '../shared/api';

/**
 * A guide in the wire format (one entry of guide.json's guides[], shared/guides/guides Guide) as the console edits
 * it: as loose JSON, only the fields the console reads typed, so an editor keeps what it does not know.
 */
export interface GuideBody {
  id: string;
  name?: string;
  launchMethod: string;
  steps: Array<Record<string, unknown> & { id: string; type: string }>;
  [key: string]: unknown;
}

/** One guide as its routes answer it (shared/api GuideDetail), its body read as the console edits it. */
export interface StoredGuide extends Omit<GuideDetail, 'guide'> {
  guide: GuideBody;
}
