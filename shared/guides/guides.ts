/**
 * Guide payload shapes (guides §3, wire-protocol.md "guide.json response").
 * Only the fields the agent reads are typed; unknown fields pass through untouched.
 */
import type { SegmentCondition } from '../segments/segmentConditions';
import type { GuideTheme } from '../surfaces/guideTheme';

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

/** spec: guides §3 "Element-match rule": one rule of a step's elementContainsRulesList. */
export interface ElementContainsRule {
  matchType: 'equal' | 'notEqual' | 'contains' | 'notContains' | 'greaterThan' | 'lessThan';
  matchValue: string | number;
  dataType?: 'number' | 'string';
}

/** spec: guides §3 Step "hashes": digests of the step's content, checked before anything renders. */
export interface StepHashes {
  domHash?: string;
  domJsonpHash?: string;
  contentHash?: string;
  contentJsHash?: string;
}

export interface GuideStep {
  id: string;
  guideId: string;
  type: StepType;
  elementPathRule?: string;
  triggerElementPathRule?: string;
  confirmationElementPathRule?: string;
  elementContainsRulesList?: ElementContainsRule[];
  regexUrlRule?: string;
  pageId?: string;
  domJson?: DomNode;
  /**
   * Ours (issue #17 markdown plugin, docs/markdown.md): the step's content written in markdown with Waymark's
   * tags. A server field: the reference server serves `domJson` made from it for each visitor and never the
   * field itself (server/markdown/applyMarkdown.ts); the agent never sees it.
   */
  markdown?: string;
  domUrl?: string;
  domJsonpUrl?: string;
  buildingBlocksUrl?: string;
  contentUrl?: string;
  contentUrlCss?: string;
  contentUrlJs?: string;
  hashes?: StepHashes;
  seenState?: SeenState;
  seenReason?: string;
  /** Epoch ms when a snooze ends (guides §4 Snooze). */
  snoozeEndTime?: number;
  dismissCount?: number;
  lastSeenAt?: number;
  lastUpdatedAt?: number;
  destinationStepId?: string;
  /** 'element click' or 'mouseover', or a comma list of them. */
  advanceMethod?: string;
  attributes?: {
    width?: number;
    height?: number;
    layoutDir?: 'top' | 'bottom' | 'left' | 'right' | 'auto';
    /** A tooltip's gap to its element, the caret in between (guides §2 "arrow size 15 (configurable)"). */
    arrowSize?: number;
    /** Ours: `false` draws a tooltip without its caret (the gap stays). Absent or true: the caret is drawn. */
    caret?: boolean;
    /** Ms after the step could show that it appears (and is seen); ours to define. */
    seenDelay?: number;
    isRequired?: boolean;
    /** The step never shows by itself (shown by id only); ours to define. */
    stayHidden?: boolean;
    /** false: the step is `height` high (what does not fit scrolls); else it fits its content. */
    autoHeight?: boolean;
    /** Values for `{{name}}` in the step's text (shared/guides/fillVariables.ts). */
    variables?: Record<string, string | number | boolean>;
    /** Ours: the step's look (shared/surfaces/guideTheme); the server writes the app's theme under it. */
    theme?: GuideTheme;
    [key: string]: unknown;
  };
  hideCredits?: boolean;
}

/** spec: guides §3 "Automation": fill a field or click an element of the host page from a guide. */
export interface Automation {
  id: string;
  type: 'autofill' | 'autoclick';
  target: { elementPathRules: string[] };
  /** autofill: the value to type. */
  value?: string;
}

/** spec: guides §3 Guide "redisplay". */
export interface GuideRedisplay {
  /** Ms after the last seen time before the guide may show again. */
  interval?: number;
  /** Dismissals after which it never repeats; 0 means unlimited. */
  maxDismissals?: number;
}

/**
 * A guide's audience: conditions of shared/segments/segmentConditions.ts over the visitor's guide.json payload
 * (`when`), and/or the id of one of the app's segments (`segment`, issue #35: judged by the collector over the
 * visitor's stored behaviour and metadata). Both must hold when both are given.
 */
export interface GuideAudience {
  when?: Record<string, SegmentCondition>;
  segment?: string;
}

/**
 * What a guide is meant to bring about (issue #35 "Did the guide work?"): a use of one of the app's features, a
 * visit to one of its pages, or a track event, within `withinDays` (1..90) of the visitor's first exposure to the
 * guide. A server field: guide.json never serves it.
 */
export type GuideGoal = ({ feature: string } | { page: string } | { track: string }) & { withinDays: number };

/**
 * A guide's experiment (issue #35, guides §4 Control group): `controlShare` (0.01..0.5) of its audience is held
 * back as control, chosen by the collector per visitor (server/analytics/experiments/experimentArm). A server field.
 */
export interface GuideExperiment {
  controlShare: number;
}

export interface Guide {
  id: string;
  name?: string;
  /** Combinations of auto, api, badge, dom, launcher, extensionIcon, auto-launcher. */
  launchMethod: string;
  state?: string;
  isMultiStep?: boolean;
  /** Adoption guide (guides §4 Auto display ordering). */
  isTraining?: boolean;
  /** Control-group guide: never shown (guides §4 Control group). */
  control?: boolean;
  /** The app the guide was made for (an imported guide's): kept and shown; one api key is one app here. */
  appId?: string | number;
  /**
   * guides §3, a top-level resource center's: the colours of its badge's unseen-count bubble, `{ background, color }`
   * (the spec names the field only; shared/surfaces/notificationBubble).
   */
  notificationBubble?: unknown;
  /** Ours to define: the account (or accounts) whose visitors alone are served the guide. */
  targetAccount?: string | number | Array<string | number>;
  /** Epoch ms: outside the timebox before this (guides §4 Timebox). */
  showsAfter?: number;
  /** Epoch ms: outside the timebox after this. */
  expiresAfter?: number;
  /** When the guide last went public (the reference server sets it). */
  publishedAt?: number;
  lastUpdatedAt?: number;
  /** guides §3: the pages a preview of the guide offers (the preview bar's setGuidePages). */
  previewPages?: unknown[];
  /** guides §3: the language the guide is served in (the collector chose it for the visitor), and the one written. */
  language?: string;
  authoredLanguage?: string;
  /** guides §3 translationStates: per language, per step, a hash of the translated content. */
  translationStates?: Record<string, Record<string, string>>;
  redisplay?: GuideRedisplay;
  automations?: Automation[];
  /** guides §3 polls: id, numericResponses, attributes.type (e.g. FreeForm, PickList, NumberScale, NPSRating, YesNo). */
  polls?: Array<{ id: string; numericResponses?: unknown; attributes?: { type?: string } }>;
  /**
   * Who the guide is for (issue #15): a server field, like Pendo's segments. A collector serves the guide in
   * guide.json only to visitors whose guide.json payload meets every condition, and leaves the field out; the
   * agent never sees it. Absent or `when: {}`: everyone.
   */
  audience?: GuideAudience;
  /** The guide's goal (issue #35); the collector leaves it out of guide.json. */
  goal?: GuideGoal;
  /** The guide's experiment (issue #35); guide.json serves a control visitor the guide with `control: true` instead. */
  experiment?: GuideExperiment;
  steps: GuideStep[];
  attributes?: {
    priority?: number;
    type?: string;
    device?: { desktop?: boolean; mobile?: boolean };
    isOnboarding?: boolean;
    isAnnouncement?: boolean;
    doNotResume?: boolean;
    overrideAutoThrottling?: boolean;
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
  dismissCount?: number;
  snoozeEndTime?: number;
  tabId?: string;
}

/** spec: guides §3 throttling timestamps (epoch ms) of auto-launched guides. */
export interface ThrottlingTimestamps {
  latestDismissedAutoAt?: number;
  latestSnoozedAutoAt?: number;
  finalAdvancedAutoAt?: number;
}

/** spec: guides §3 throttling config. */
export interface ThrottlingConfig {
  enabled: boolean;
  interval: number;
  unit: 'minute' | 'hour' | 'day';
}

/** The guide load response (guides §3). */
export interface GuideLoadResponse {
  id?: string;
  guides: Guide[];
  lastGuideStepSeen: LastGuideStepSeen;
  normalizedUrl?: string;
  /**
   * What the visitor's subscription holds. The spec tells of a subscription without the guides feature
   * (guides §5) but not how the agent learns it; this field is ours: `guides: false` turns guides off.
   */
  subscription?: { guides?: boolean };
  /**
   * guides §3 Launcher config `{enabled, data}`. wire-protocol.md names no field for it: `launcher` is ours.
   * Read (and checked) by shared/surfaces/chooseLauncher.ts readLauncherConfig.
   */
  launcher?: unknown;
  [key: string]: unknown;
}
