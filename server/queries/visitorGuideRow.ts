/** One guide of a visitor's, as the console's visitor page lists it (queries/visitorGuides.ts; no imports, so the console can read the type). */
export type VisitorGuideStatus = 'completed' | 'dismissed' | 'snoozed' | 'in progress' | 'control group' | 'timed out';

export interface VisitorGuideRow {
  guideId: string;
  /** The guide's name; its id when the app no longer has it (`deleted`). */
  name: string;
  status: VisitorGuideStatus;
  /** 1-based position of the step of the latest event, and the guide's step count (0 when deleted). */
  step: number;
  steps: number;
  /** The latest guide event's time, epoch ms. */
  at: number;
  snoozedUntil?: number;
  deleted?: true;
}
