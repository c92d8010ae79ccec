/**
 * Guide payload shapes (guides §3, wire-protocol.md "guide.json response").
 * Only the fields the agent reads are typed; unknown fields pass through untouched.
 */

/** A building-block node of step content: `{type, props, children, content, actions}`. */
export interface DomNode {
  type: string;
  props?: Record<string, unknown>;
  children?: DomNode[];
  content?: string;
  actions?: GuideAction[];
}

/** An action bound to a building block (advanceGuide, previousStep, dismissGuide, ...). */
export interface GuideAction {
  action: string;
  eventType?: string;
  parameters?: unknown[];
  source?: string;
  destination?: string;
}

export type StepType = 'tooltip' | 'lightbox' | 'mobile-lightbox' | 'banner' | 'whatsnew' | 'launcher';

/** spec: guides §4 "Step seenState". */
export type SeenState = 'none' | 'active' | 'advanced' | 'dismissed' | 'snoozed' | 'notSeen';

export interface GuideStep {
  id: string;
  guideId: string;
  type: StepType;
  elementPathRule?: string;
  regexUrlRule?: string;
  pageId?: string;
  domJson?: DomNode;
  domUrl?: string;
  seenState?: SeenState;
  seenReason?: string;
  lastSeenAt?: number;
  attributes?: {
    width?: number;
    height?: number;
    layoutDir?: 'top' | 'bottom' | 'left' | 'right' | 'auto';
    [key: string]: unknown;
  };
  hideCredits?: boolean;
}

export interface Guide {
  id: string;
  name?: string;
  launchMethod: string;
  isMultiStep?: boolean;
  lastUpdatedAt?: number;
  steps: GuideStep[];
  attributes?: {
    priority?: number;
    device?: { desktop?: boolean; mobile?: boolean };
    [key: string]: unknown;
  };
}

/** The last-step-seen record (guides §3 "Other records"). */
export interface LastGuideStepSeen {
  guideId?: string;
  guideStepId?: string;
  time?: number;
  state?: SeenState;
  seenReason?: string;
  visitorId?: string;
  destinationStepId?: string;
}

/** The guide load response (guides §3). */
export interface GuideLoadResponse {
  id?: string;
  guides: Guide[];
  lastGuideStepSeen: LastGuideStepSeen;
  normalizedUrl?: string;
  [key: string]: unknown;
}
