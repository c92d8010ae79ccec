/**
 * The shim-worker contract for the guide surfaces beside steps (guides §2): badges, the launcher (guide
 * center) with its what's-new feed, and the resource center, each as the worker judged it for the page.
 */
import type { DomNode } from '../guides/guides';

/** guides §2 Badges: where a badge-launched guide's badge goes; a click on it shows the guide (reason badge). */
export interface BadgeToShow {
  guideId: string;
  /** The guide's name, for the badge's accessible label. */
  label: string;
  /** CSS selector of the element the badge is placed on. */
  selector: string;
  position: BadgePosition;
  /** An image from an allowed origin; a default "?" mark otherwise. */
  imageUrl?: string;
  /**
   * guides §2 "Badges (image or building-block)": `attributes.badge.content`, a building-block tree checked
   * like step content (checkBuildingBlocks); drawn as the badge in place of the image or the "?" mark.
   */
  content?: DomNode;
  /** Shown only while the pointer is over the target. */
  showOnHover: boolean;
  /** The app's step theme, as served on the guide's first step (shared/surfaces/guideTheme): the mark's colours. */
  theme?: unknown;
}

export type BadgePosition = 'top-left' | 'top-right' | 'inline' | 'inline-left' | 'inline-right' | 'over';

/** spec: guides §2 Launcher — where its badge sits. */
export type LauncherPosition = 'bottom-right' | 'bottom-left' | 'top-left' | 'top-right';

/** A guide the launcher lists (guides §2 Launcher: a guide listing); a click shows it with reason launcher. */
export interface LauncherEntry {
  guideId: string;
  name: string;
  /** attributes.isOnboarding. */
  isOnboarding: boolean;
  /** guides §4 Guide completion: every step (multi-step: the last) advanced or dismissed. */
  complete: boolean;
}

/**
 * guides §2 Launcher (guide center), as the worker judged the load response's `launcher` config for this
 * page: the panel's settings and the guides it lists (launch method launcher, eligible here).
 */
export interface LauncherToShow {
  /** 'badge': a badge at `position` opens it; 'element': clicks on `elementPathRule`'s element do. */
  launchType: 'badge' | 'element';
  position: LauncherPosition;
  /** The element that opens the launcher (launchType element). */
  elementPathRule?: string;
  /** launcherBadgeUrl from an allowed origin; a default mark otherwise. */
  badgeImageUrl?: string;
  enableSearch: boolean;
  /** No powered-by credit line in the footer. */
  hideCredits: boolean;
  /** The panel's size before the search box and credit line are added (see launcherPanelSize). */
  width: number;
  height: number;
  /** device.iframe: shown in a child frame too (otherwise only the top frame shows it; guides §6). */
  iframe: boolean;
  /**
   * `data.autoOpen` (ours; the spec's config has no such field): the panel opens by itself once no step shows,
   * unless the visitor closed it in the last 8 hours or its onboarding tutorial is done. Otherwise (the default) it
   * opens only when the visitor or the host asks. @default false
   */
  autoOpen?: boolean;
  guides: LauncherEntry[];
  /** guides §2 onboarding progress over the listed onboarding guides, when `data.onboarding` and there are some. */
  onboarding?: { percent: number };
  /** guides §2 what's-new unseen count, when `data.whatsnew` and listed guides have whatsnew steps. */
  whatsnewUnseen?: number;
  /**
   * guides §2 What's-new feed, when `data.whatsnew`: the whatsnew steps of the listed guides, with their
   * content resolved and verified by the worker like any step's (an item whose content fails is left off).
   */
  whatsnew?: WhatsNewEntry[];
  /** Local storage key of the launcher-closed flag, per api key and visitor (analytics §9 storage keys). */
  closedFlagKey: string;
  /** guides §2 custom content (`data.contentUrl`): building blocks shown at the top of the panel, checked like a step's. */
  content?: DomNode;
  /** guides §2 `data.contentUrlCss`: the stylesheet's text, scoped to the overlay's shadow root. */
  css?: string;
  /** guides §2 `data.contentUrlJs` from an allowed origin; the shim loads it unless preventCodeInjection. */
  scriptUrl?: string;
  /** The app's step theme the server put beside the config (`launcher.theme`; shared/surfaces/guideTheme). */
  theme?: unknown;
}

/** One what's-new item of the launcher's feed (guides §2). */
export interface WhatsNewEntry {
  guideId: string;
  stepId: string;
  name: string;
  /** Already shown: drawn as seen, not counted. */
  seen: boolean;
  /** The step's building blocks. */
  content: DomNode;
}

/** guides §2 Resource center module kinds (the values of attributes.resourceCenter.moduleId are ours). */
export type ResourceCenterModuleKind = 'guideList' | 'onboarding' | 'announcements' | 'iframe' | 'sandbox' | 'integration' | 'custom';

/** A guide a resource center module lists (guide list, onboarding task, announcement). */
export interface ResourceCenterItem {
  guideId: string;
  /** The first step: what a click shows, or the announcement marked seen when scrolled into view. */
  stepId: string;
  name: string;
  /** The plain text of the first step's content, for search (3 characters or more). */
  text: string;
  seenSteps: number;
  totalSteps: number;
  complete: boolean;
  /** announcements: the first step's building blocks, rendered in the module. */
  content?: DomNode;
}

/** A module of the resource center, as the worker checked it. */
export interface ResourceCenterModule {
  guideId: string;
  kind: ResourceCenterModuleKind;
  title: string;
  items: ResourceCenterItem[];
  /** onboarding: seen steps over total steps, a whole number. */
  percent?: number;
  /** announcements: items not seen yet. */
  unseen?: number;
  /** iframe: its page, from an allowed origin. */
  iframeSrc?: string;
  /** sandbox, custom: the building blocks of the module's first step. */
  content?: DomNode;
  /** integration: the provider (drift, intercom, zendesk) and what of it (chat, knowledge base, messaging). */
  integration?: { provider: string; name: string };
}

/** guides §2 Resource center as the worker judged it for this page. */
export interface ResourceCenterToShow {
  guideId: string;
  title: string;
  position: LauncherPosition;
  /**
   * guides §4 launch methods: badge (a badge in `position` opens it), dom (`activation`: the visitor's `event`
   * on an element matching `selector` opens or closes it), api (the host's open/close/toggleResourceCenter,
   * always there). The top-level guide's content failing validation leaves api only: no badge, no activation.
   */
  badge: boolean;
  activation?: { event: string; selector: string };
  /** The top-level guide's first step content, verified and checked: the home view's introduction. */
  intro?: DomNode;
  modules: ResourceCenterModule[];
  /** Unseen announcements over every module: the badge bubble's count. */
  unseenCount: number;
  /** The app's step theme (shared/surfaces/guideTheme), as served on the resource center's first step. */
  theme?: unknown;
  /** The top-level guide's `notificationBubble`: the bubble's colours (shared/surfaces/notificationBubble). */
  bubble?: unknown;
}

