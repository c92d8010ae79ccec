/**
 * Constants the spec fixes. Each one cites its section so a reader can check the value against the text.
 * Nothing here may import DOM or worker globals: both sides and the server read this file.
 */

/** The version reported by `getVersion()` and sent as `v` on every beacon. */
export const AGENT_VERSION = '0.1.0';

/** spec: analytics §9 — a GET beacon's jzb stays within this many characters, else POST. */
export const GET_URL_LIMIT = 1900;
/** spec: analytics §9 — the "send silo": one POST body carries at most this many characters. */
export const SEND_SILO_LIMIT = 65536;
/**
 * spec: analytics §7 — the event beacon's `source` parameter. The spec names it without a meaning; ours says
 * which sender sent the beacon, so the collector can tell the worker's queue from the page-hide tail.
 */
export const BEACON_SOURCE = { worker: 'worker', pageHide: 'pagehide' } as const;
/** spec: analytics §9 — compression ratios assumed when estimating a batch before compressing it. */
export const COMPRESSION_RATIOS = [2.5, 3.75, 5] as const;
/** spec: analytics §9 — failures after which a queued batch is dropped. */
export const MAX_SEND_FAILURES = 100;
/** spec: analytics §9 — first retry delay; doubled per failure up to 2^6 times (64 s). */
export const RETRY_BASE_DELAY_MS = 1000;
export const RETRY_EXPONENT_CAP = 6;
/** spec: analytics §9 — unsent events kept in storage expire after 6 days. */
export const UNSENT_EVENT_TTL_MS = 518_400_000;
/** spec: analytics §9 — a single field is shortened to this length when an event is too long. */
export const SHORTENED_FIELD_LENGTH = 2000;

/** spec: analytics §9 — element data limits. */
export const MAX_ATTRIBUTES_PER_ELEMENT = 64;
export const MAX_ATTRIBUTE_LENGTH = 256;
export const DEFAULT_TEXT_LIMIT = 128;
export const EXTENDED_TEXT_LIMIT = 1024;
export const MAX_ANCESTOR_DEPTH = 20;

/** spec: analytics §3, §9 — anonymous visitor id: a fixed prefix and 11 random alphanumerics. */
export const ANONYMOUS_VISITOR_PREFIX = '_WM_';
export const ANONYMOUS_ID_RANDOM_LENGTH = 11;
/** spec: analytics §9 — the URL is polled this often for single-page-app page changes. */
export const URL_POLL_INTERVAL_MS = 500;

/** spec: analytics §9 — session id length and inactivity timeout. */
export const SESSION_ID_LENGTH = 16;
export const SESSION_INACTIVITY_MS = 1_800_000;
/** spec: analytics §9 — visitor cookie lifetime, 100 days. */
export const VISITOR_COOKIE_DAYS = 100;

/** spec: guides §7 — guide events are flushed this long after the last one. */
export const GUIDE_EVENT_FLUSH_MS = 500;
/** spec: guides §9 — guide loop delays. */
export const GUIDE_LOOP_IDLE_MS = 500;
export const GUIDE_LOOP_BUSY_MS = 50;

/** spec: guides §2, §9 — tooltip and lightbox geometry defaults. */
export const TOOLTIP_DEFAULTS = {
  width: 430,
  height: 200,
  arrowSize: 15,
  caretSize: 11,
  borderCaretSize: 10,
  caretOffset: 10,
  zIndex: 300_000,
  /** The tooltip keeps between 2 % and 98 % of the viewport's width (guides §9 "margins 2% left and 98% right"). */
  marginLeft: 0.02,
  marginRight: 0.98,
} as const;
/** spec: guides §9 — a tooltip follows its target on scroll at most once per this many ms (throttle). */
export const SCROLL_REPOSITION_THROTTLE_MS = 10;
/** spec: guides §9 — and on window resize once it has been quiet this many ms (debounce). */
export const RESIZE_DEBOUNCE_MS = 50;
export const LIGHTBOX_DEFAULTS = { width: 500, height: 500, backdropZIndex: 10_000 } as const;
/** spec: guides §2 — a banner sits at the top by default; default height 500 (its most). */
export const BANNER_DEFAULTS = { height: 500 } as const;
/**
 * spec: guides §2 Lightbox ("a separate mobile lightbox exists"), §2 Preview ("Mobile layout ...: width at
 * most 320"): the mobile lightbox is at most 320 wide; `margin` (ours, not the spec's) is kept free on each
 * side of a narrower viewport.
 */
export const MOBILE_LIGHTBOX_DEFAULTS = { maxWidth: 320, margin: 16 } as const;
/**
 * spec: guides §2 block-out regions (blockOutUI): default z-index 10000. The spec gives no default colour,
 * opacity or padding; these are Waymark's (the lightbox backdrop's slate at its 45 %, no padding).
 */
export const BLOCK_OUT_DEFAULTS = { zIndex: 10_000, padding: 0, bgColor: '#0f172a', opacity: 0.45 } as const;
/** spec: guides §9 — autofocus retries: up to 100, every 50 ms. */
export const AUTOFOCUS_RETRIES = 100;
export const AUTOFOCUS_RETRY_MS = 50;
/** spec: guides §2 — right-to-left languages (he, ar): steps are laid out mirrored. */
export const RTL_LANGUAGES = ['he', 'ar'] as const;

/** How long the worker waits for more events before it sends a beacon. Waymark delivers within seconds. */
export const EVENT_SEND_DELAY_MS = 1000;

/** spec: analytics §4, §9 — a rage click is this many clicks close together in time and space. */
export const RAGE_CLICK_COUNT = 4;
/** spec: analytics §9 — the clicks of a rage click fall within this many ms. */
export const RAGE_CLICK_WINDOW_MS = 1000;
/** spec: analytics §9 — the clicks of a rage click fall within this many px. */
export const RAGE_CLICK_RADIUS_PX = 30;
/** spec: analytics §9 — a dead click is a click with no effect after this many ms. */
export const DEAD_CLICK_MS = 500;
/** spec: analytics §9 — the click buffer spans this many ms. */
export const CLICK_BUFFER_WINDOW_MS = 100;
/** spec: analytics §9 — the click buffer holds at most this many entries. */
export const CLICK_BUFFER_MAX = 9;
/** spec: guides §9 — a plain selector is looked for in open shadow roots at most this many nodes per lookup. */
export const SHADOW_ROOT_SEARCH_BATCH = 5000;
/** spec: analytics §9 — click debounce for change events (see shared/analytics/createChangeDebounce.ts). */
export const CHANGE_EVENT_DEBOUNCE_MS = 5000;
/** spec: analytics §9 — a u-turn is a return to the same page within this many ms. */
export const U_TURN_WINDOW_MS = 7000;
/** spec: analytics §9 — an error click's error message is kept to this many characters. */
export const ERROR_CLICK_MESSAGE_LIMIT = 1500;

/** spec: guides §9 — step-state and throttling storage time-to-live. */
export const STEP_STATE_TTL_MS = 10_000;
/** spec: guides §9 — a guide request is stale after 1 hour. */
export const GUIDE_REQUEST_STALE_MS = 3_600_000;
/** spec: guides §9 — the blocked-guides flag of a failed availability probe lasts 4 hours. */
export const GUIDES_BLOCKED_FLAG_MS = 14_400_000;
/** spec: guides §9 — guide cache timeout. */
export const GUIDE_CACHE_TIMEOUT_MS = 600_000;
/** spec: guides §7 — content prefetch batch size. */
export const CONTENT_PREFETCH_BATCH = 10;
/** spec: guides §4, §9 — default snooze: 1 day. */
export const DEFAULT_SNOOZE_MS = 86_400_000;
/** spec: guides §4, §9 — a multi-step continuation record older than 12 hours is dropped. */
export const CONTINUATION_EXPIRY_MS = 43_200_000;
/** spec: guides §4, §9 — redisplay safeguard (health check). */
export const REDISPLAY_SAFEGUARD_MS = 60_000;
/** spec: guides §9 — step seen timeout default (guideSeenTimeoutLength). */
export const STEP_SEEN_TIMEOUT_MS = 10_000;
/** spec: guides §9 — max guide errors per minute. */
export const MAX_GUIDE_ERRORS_PER_MINUTE = 30;
/** spec: guides §8 — the error rate is measured once at least this many errors were seen. */
export const ERROR_RATE_MIN_SAMPLE = 5;
/** spec: guides §4, §9 — element activation max targets. */
export const ELEMENT_ACTIVATION_MAX_TARGETS = 50;
/** spec: guides §4 — automation target lookup: 10 tries, 250 ms apart; click delay 500 ms. */
export const AUTOMATION_RETRIES = 10;
export const AUTOMATION_RETRY_MS = 250;
export const AUTOMATION_CLICK_DELAY_MS = 500;
/** spec: guides §8 — a stylesheet that has not loaded after this fails. */
export const STYLESHEET_TIMEOUT_MS = 10_000;
/**
 * spec: guides §2 Launcher (guide center) — the panel is 330 wide by 310 high; the search box adds 39 to
 * the height (50 in old IE, which Waymark does not support) and the powered-by credit line 40.
 */
export const LAUNCHER_DEFAULTS = { width: 330, height: 310, searchHeight: 39, creditHeight: 40 } as const;
/** spec: guides §2 Launcher — closing it stores a closed flag for 8 hours. */
export const LAUNCHER_CLOSED_MS = 28_800_000;
/** spec: guides §2 Launcher — how long a stored flag lasts when no duration is given (10 days). */
export const STORED_FLAG_DEFAULT_MS = 864_000_000;
/** spec: guides §2 Launcher — the search box's placeholder. */
export const LAUNCHER_SEARCH_PLACEHOLDER = 'Type here to start looking...';
/** spec: guides §2 Launcher — what closing it asks while an onboarding tutorial is under way. */
export const LAUNCHER_STOP_TUTORIAL = 'Are you sure you want to stop this tutorial?';
/**
 * spec: guides §2, §9 Resource center — the badge's unseen-count bubble is 26 px high, its text ("default badge
 * size") 13 px, it pulses every 2 s; the panel keeps 10 px from the window's height ("height margin").
 */
export const RESOURCE_CENTER_DEFAULTS = { bubbleHeight: 26, badgeSize: 13, pulseMs: 2000, heightMargin: 10 } as const;
/** spec: guides §9 — search results are announced this long after the last keystroke. */
export const SEARCH_ANNOUNCE_DEBOUNCE_MS = 300;
/** spec: guides §2 — search text shorter than this matches no step content. */
export const RESOURCE_CENTER_SEARCH_MIN_CONTENT = 3;
/** spec: guides §9 — announcements are checked for being in view this often. */
export const ANNOUNCEMENT_SEEN_CHECK_MS = 500;
/** spec: guides §9 — modules switch with a slide of this long. */
export const MODULE_SLIDE_MS = 200;
/** spec: guides §9 — what's-new seen delay. */
export const WHATSNEW_SEEN_DELAY_MS = 1000;

/**
 * guides §2 URL triggers: the permalink parameter (query or hash; the spec does not spell its name), its
 * c__ variant, the optional step parameter, and the once-parameter that removes them after use.
 */
export const PERMALINK_PARAMS = { guide: 'waymark_guide', step: 'waymark_step', once: 'waymark_once', prefix: 'c__' } as const;

/** spec: analytics §8 — an event property collection slower than this is disabled with a critical error. */
export const EVENT_PROPERTY_LIMIT_MS = 50;

/** spec: guides §9 — how long the global guide CSS (guideCssUrl) is waited for. */
export const GLOBAL_CSS_WAIT_MS = 5000;

/**
 * Issue #7: a worker mode that is not ready this long after it started is given up for the next one
 * (shim/startWorker.ts). Ours: generous, as a slow network may take long to fetch the worker script.
 */
export const WORKER_READY_TIMEOUT_MS = 10_000;
/** The `type` of the first message a worker posts once its API is exposed. */
export const WORKER_READY_MESSAGE = 'waymark:ready';
/** The one-way capture messages (shared/protocol/capture.ts PushMessage, DeliveredMessage). */
export const PUSH_MESSAGE = 'waymark:push';
export const DELIVERED_MESSAGE = 'waymark:delivered';
/**
 * Issue #34: the page names the render chunk's URL in a message of its own as it starts the worker, so the worker asks
 * for it once it is ready, not after init (which waits for the page's idle time) beside guide.json.
 */
export const RENDER_CHUNK_MESSAGE = 'waymark:render';
/** The worker's one-way guide event copies for the page (shared/protocol/guides.ts GuideTailMessage). */
export const GUIDE_TAIL_MESSAGE = 'waymark:guideTail';
/** Issue #7 teardown: how long the worker gets to send what it holds before it is terminated (ours). */
export const TEARDOWN_FLUSH_MS = 2000;

/** spec: analytics §4 Frames, §9 — leadership is elected this long after a frame joins. */
export const FRAME_LEADER_ELECTION_MS = 50;
/** spec: analytics §7, §9 — the agent looks for child iframes to install itself into this often. */
export const IFRAME_RESCAN_MS = 250;
/**
 * guides §4 Guide loop, frame visibility phase: a child frame whose visibility is still unknown (its parent has
 * not said) shows no guide for this long after its guide loop started, then shows as a visible frame would
 * (a parent without an agent never says). Ours: the spec gives no value.
 */
export const FRAME_VISIBILITY_WAIT_MS = 1000;

/** spec: guides §2 Preview bar, §9 — a fixed iframe 70 px high at z-index 400000; narrow layout at 320 px or less. */
export const PREVIEW_BAR = { height: 70, zIndex: 400_000, mobileMaxWidth: 320 } as const;
/** spec: guides §2 Designer, §9 — the designer's slide-in container: 400 px wide at z-index 1000000. */
export const DESIGNER_CONTAINER = { width: 400, zIndex: 1_000_000 } as const;
/** spec: guides §2 Designer — the launch modal: 370 by 235 px, 150 px from the top, z-index 300000, state polled every 50 ms. */
export const DESIGNER_MODAL = { width: 370, height: 235, top: 150, zIndex: 300_000, pollMs: 50 } as const;
/** How often a preview reads which step shows (ours): the bar's progress and the record follow the author. */
export const PREVIEW_POLL_MS = 250;

/** spec: analytics §2, §9 — a validated form field is checked this long after the visitor stops typing. */
export const FORM_VALIDATION_DEBOUNCE_MS = 100;
/** spec: analytics §2, §9 — the validation tooltip beside an invalid field is 300 px wide. */
export const FORM_VALIDATION_TOOLTIP_WIDTH_PX = 300;

/**
 * spec: analytics §9 "Recorder: mousemove sampling 50 ms, scroll 100 ms, viewport resize 200 ms, media 500 ms,
 * iframe and stylesheet load timeout 5000 ms" (issue #18). Mousemove, scroll and media go to rrweb's `sampling`;
 * rrweb has no option for the other two, and holds exactly these values itself (a 200 ms throttle on resize,
 * 5000 ms iframe and stylesheet load timeouts): test/unit/recordingRecorder.test.ts pins them in the bundled
 * @rrweb/record so an upgrade that changes them fails.
 */
export const RECORDER_SAMPLING = { mousemoveMs: 50, scrollMs: 100, viewportResizeMs: 200, mediaMs: 500, loadTimeoutMs: 5000 } as const;
/**
 * Session recording (issue #18; ours, the spec gives no values): the page hands rrweb's events to the worker once
 * per second or per 100 events, never per event; the worker cuts a chunk every 5 s or 256 KB of JSON, so what
 * was recorded reaches the collector well within 30 s; a chunk's compressed body is at most 5 MB (413 above).
 */
export const RECORDING_HANDOVER_MS = 1000;
export const RECORDING_HANDOVER_EVENTS = 100;
export const RECORDING_CHUNK_MS = 5000;
export const RECORDING_CHUNK_CHARS = 256 * 1024;
/** The rrweb block class (the attribute `data-waymark-block` blocks too): the element is recorded as an empty box. */
export const RECORDING_BLOCK_CLASS = 'waymark-block';

/**
 * spec: guides §8, §9 "Cross-frame request time-out 10,000 ms default" — a frame that has not answered a request
 * (the eligibility check, a step to show, a step action) within this long: 'request timed out'.
 */
export const FRAME_REQUEST_TIMEOUT_MS = 10_000;

/**
 * spec: guides §9 "Frame connect retries: first 10 ms, doubling to 10,000 ms, 21 retries" — a frame that has heard
 * from no other frame announces itself again after each of these delays (a record posted before the others
 * listened is not lost).
 */
export const FRAME_CONNECT_RETRY = { firstMs: 10, maxMs: 10_000, retries: 21 } as const;
/**
 * spec: analytics §9 "frame message wait 120000 default" — how long after joining a frame waits for word from the
 * other frames of its tab: its connect retries (above, 120,230 ms in all) end at this mark, the last one shortened.
 */
export const FRAME_MESSAGE_WAIT_MS = 120_000;

/** guides §2: what a submitted poll shows in place of its step's content, unless attributes.thankYouMessage says. */
export const THANK_YOU_TEXT = 'Thank you for your feedback!';

/** guides §3 attributes.isRequired: the reminder of a step whose questions are not all answered yet. */
export const REQUIRED_ANSWER_TEXT = 'Answer the question to go on.';
