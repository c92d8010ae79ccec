/**
 * Issue #17 "the log and debug messages of the spec": every message the two specs quote, held here as data (CI runs
 * on a clone without ../shared/spec), and for each either
 * - the `MESSAGES` export that spells it (shared/messageTexts.ts), the product code that says it, and the test that
 *   triggers it, or
 * - an entry in KNOWN_GAPS with why no code says it yet.
 * A change that drops or rewords a message, stops saying it, or deletes the test that triggers it fails here; so does
 * a gap that gets its words (move it to SPEC_MESSAGES then). Where the spec sits beside this checkout, the lists are
 * also checked against it: a quoted string of the spec that is neither a message nor a known non-message fails.
 *
 * The spec describes the original "Pendo" agent: a message naming the product says "Waymark" (shared/messages.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAUNCHER_SEARCH_PLACEHOLDER, LAUNCHER_STOP_TUTORIAL } from '../../shared/constants';
import { MESSAGES } from '../../shared/messages';

type MessageKey = keyof typeof MESSAGES;
type SpecRef = `${'analytics' | 'guides'} §${string}`;

interface SpecMessage {
  /** Where the specs say it. */
  spec: SpecRef[];
  /** The message as the spec spells it between quotes; `holes` stand for the values the message carries. */
  text: string;
  /** The placeholders of `text`, in order ('...', '{id}', 'N'), filled with `args`. */
  holes?: string[];
  /** The export of shared/messageTexts.ts that spells it (called with `args` when it carries values). */
  key: MessageKey;
  args?: Array<string | number>;
  /** The test (under test/) that makes the product code say it. */
  test: string;
  /** false: the spec words it without quotes (a list of errors); not counted among the quoted messages. */
  quoted?: false;
}

/** Every message of the two specs that Waymark says. */
const SPEC_MESSAGES: SpecMessage[] = [
  // analytics-spec
  { spec: ['analytics §4'], text: 'debugging already enabled', key: 'debuggingAlreadyEnabled', test: 'e2e/integratorTools.spec.ts' },
  { spec: ['analytics §4'], text: 'debugging enabled', key: 'debuggingEnabled', test: 'e2e/integratorTools.spec.ts' },
  { spec: ['analytics §4'], text: 'debugging already disabled', key: 'debuggingAlreadyDisabled', test: 'e2e/integratorTools.spec.ts' },
  { spec: ['analytics §4'], text: 'debugging disabled', key: 'debuggingDisabled', test: 'e2e/integratorTools.spec.ts' },
  { spec: ['analytics §5'], text: 'Missing visitor id.', key: 'missingVisitorId', test: 'unit/identityRules.test.ts' },
  { spec: ['analytics §5'], text: 'Must provide valid name string for event tracking', key: 'invalidTrackName', test: 'e2e/foundation.spec.ts' },
  { spec: ['analytics §5'], text: 'Must provide valid type string for event tracking', key: 'invalidTrackType', test: 'e2e/foundation.spec.ts' },
  { spec: ['analytics §5'], text: 'Invalid type from custom URL source', key: 'invalidCustomUrl', test: 'unit/urlTransforms.test.ts' },
  { spec: ['analytics §5'], text: 'Invalid URL attribute type', key: 'invalidUrlAttr', test: 'unit/urlTransforms.test.ts', quoted: false },
  { spec: ['analytics §5'], text: 'Invalid transform action', key: 'invalidTransformAction', test: 'unit/urlTransforms.test.ts', quoted: false },
  { spec: ['analytics §5'], text: 'missing required attr property', key: 'missingAttr', test: 'unit/urlTransforms.test.ts', quoted: false },
  { spec: ['analytics §5'], text: 'missing required action property', key: 'missingAction', test: 'unit/urlTransforms.test.ts', quoted: false },
  {
    spec: ['analytics §6', 'guides §1'],
    text: 'This functionality is not supported by your subscription.',
    key: 'notInSubscription',
    test: 'unit/guideEngine.test.ts',
  },
  {
    spec: ['analytics §8'],
    text: 'received status code N: text',
    holes: ['N', 'text'],
    key: 'badStatus',
    args: [503, 'upstream unavailable'],
    test: 'unit/sendPipeline.test.ts',
  },
  { spec: ['analytics §8'], text: 'Max length exceeded for an event', key: 'maxLengthExceeded', test: 'unit/sendPipeline.test.ts' },
  { spec: ['analytics §8'], text: 'Failed to load segment flags', key: 'segmentFlagsFailed', test: 'unit/segmentFlags.test.ts' },
  { spec: ['analytics §8'], text: 'inputCssSelectors must be an array', key: 'inputSelectorsNotArray', test: 'unit/shimPieces.test.ts' },
  { spec: ['analytics §8'], text: 'submitCssSelectors must be an array', key: 'submitSelectorsNotArray', test: 'unit/specMessagesTriggers.test.ts' },
  { spec: ['analytics §8'], text: 'Invalid privacy filter for agent', key: 'invalidPrivacyFilter', test: 'unit/privacyFilter.test.ts' },
  { spec: ['analytics §8'], text: 'Pendo is currently disabled.', key: 'agentDisabled', test: 'unit/shimPieces.test.ts' },
  { spec: ['analytics §8', 'guides §8'], text: 'Failed to postMessage', key: 'postMessageFailed', test: 'unit/specMessagesTriggers.test.ts' },
  { spec: ['analytics §8', 'guides §8'], text: 'Invalid Message: Missing type', key: 'missingType', test: 'unit/frames.test.ts' },
  { spec: ['analytics §8'], text: 'Unable to find agent url to install agent in frames', key: 'noAgentUrl', test: 'e2e/frames.spec.ts' },
  { spec: ['guides §8'], text: 'request timed out', key: 'requestTimedOut', test: 'unit/frameGuides.test.ts' },
  { spec: ['guides §5'], text: 'Error adding invalid GlobalScript via API', key: 'invalidGlobalScript', test: 'unit/hostExtensions.test.ts' },
  // guides-spec
  {
    spec: ['guides §4'],
    text: 'Guide was not shown because this visitor is in a control group of an active experiment for the guide',
    key: 'controlGroup',
    test: 'unit/guideEngine.test.ts',
  },
  { spec: ['guides §4'], text: 'Multi-step continuation has expired', key: 'continuationExpired', test: 'unit/guideEngine.test.ts' },
  { spec: ['guides §4'], text: 'Element activated guide timeout exceeded', key: 'elementActivationTimeout', test: 'e2e/guides.spec.ts' },
  { spec: ['guides §5'], text: 'Response from the guide was not in proper JSON format', key: 'contentNotJson', test: 'unit/guideContent.test.ts' },
  {
    spec: ['guides §5'],
    text: 'illegal building block key ... found on guide ... step ...',
    holes: ['...', '...', '...'],
    key: 'illegalBuildingBlockKey',
    args: ['onClick', 'g1', 's1'],
    test: 'unit/guideContent.test.ts',
  },
  {
    spec: ['guides §6'],
    text: 'Unable to launch the Visual Design Studio, set to disabled in configuration.',
    key: 'designerDisabled',
    test: 'e2e/authoring.spec.ts',
  },
  { spec: ['guides §8'], text: 'Guides disabled: unreachable endpoint guide.gif', key: 'guidesUnreachable', test: 'unit/guideEngine.test.ts' },
  { spec: ['guides §8'], text: 'error: guides are blocked', key: 'guidesBlocked', test: 'unit/guideEngine.test.ts' },
  { spec: ['guides §8'], text: 'error: invalid url', key: 'invalidGuideUrl', test: 'unit/guideEngine.test.ts' },
  { spec: ['guides §8'], text: 'invalid origin', key: 'previewInvalidOrigin', test: 'unit/authoring.test.ts' },
  { spec: ['guides §8'], text: 'invalid guide url', key: 'previewInvalidGuideUrl', test: 'unit/authoring.test.ts' },
  { spec: ['guides §8'], text: 'Guide not found', key: 'previewGuideNotFound', test: 'server/guideRoutes.test.ts' },
  { spec: ['guides §8'], text: 'Post loadGuide request failed', key: 'loadGuideFailed', test: 'unit/guideEngine.test.ts' },
  { spec: ['guides §8'], text: 'Error loading global script', key: 'globalScriptFailed', test: 'unit/guideContentLoading.test.ts' },
  { spec: ['guides §8'], text: 'Unable to find global css after delay', key: 'globalCssMissing', test: 'unit/guideContentLoading.test.ts' },
  {
    spec: ['guides §8'],
    text: 'Unable to verify content at ...',
    holes: ['...'],
    key: 'unableToVerifyContent',
    args: ['https://cdn.example/dom.json'],
    test: 'unit/guideContent.test.ts',
  },
  { spec: ['guides §8'], text: 'Failed to load content', key: 'contentLoadFailed', test: 'unit/guideEngine.test.ts' },
  { spec: ['guides §8'], text: 'Failed to load script', key: 'scriptLoadFailed', test: 'unit/launcher.test.ts' },
  {
    spec: ['guides §8'],
    text: 'Failed to load ... within 10 seconds',
    holes: ['...'],
    key: 'stylesheetTimeout',
    args: ['https://cdn.example/step.css'],
    test: 'unit/guideContentLoading.test.ts',
  },
  { spec: ['guides §8'], text: 'unable to parse ...', holes: ['...'], key: 'unableToParse', args: ['http://[::1'], test: 'unit/guideContent.test.ts' },
  {
    spec: ['guides §8'],
    text: 'Failed to load one or more Resource Center modules',
    key: 'resourceCenterModulesFailed',
    test: 'unit/resourceCenter.test.ts',
  },
  { spec: ['guides §8'], text: 'Failed to add BlockOut ui', key: 'blockOutFailed', test: 'e2e/surfaces.spec.ts' },
  {
    spec: ['guides §8'],
    text: 'Guide {id} timed out showing Step {id}',
    holes: ['{id}', '{id}'],
    key: 'stepTimedOut',
    args: ['g', 'g-1'],
    test: 'unit/guideEngine.test.ts',
  },
  { spec: ['guides §8'], text: 'Exceeded error rate limit, dropping guide', key: 'errorRateExceeded', test: 'unit/guideRulesMisc.test.ts' },
  { spec: ['guides §8'], text: 'No element found for step', key: 'noElementForStep', test: 'unit/specMessagesTriggers.test.ts' },
  {
    spec: ['guides §8'],
    text: 'ERROR in when attempting to render guide center badge image',
    key: 'launcherBadgeImageFailed',
    test: 'e2e/launcher.spec.ts',
  },
  { spec: ['guides §8'], text: 'Invalid module URL', key: 'invalidModuleUrl', test: 'unit/designerPlugins.test.ts' },
  { spec: ['guides §8'], text: 'ERROR while initializing launcher', key: 'launcherInitFailed', test: 'e2e/launcher.spec.ts' },
  {
    spec: ['guides §8'],
    text: 'skipping designer launch from a child frame. pass `allowChildFrame: true` to override',
    key: 'designerChildFrame',
    test: 'e2e/authoring.spec.ts',
  },
];

/**
 * The spec's messages that no code of ours says yet, and why. When one gets its words in shared/messageTexts.ts,
 * this test fails until it moves to SPEC_MESSAGES (with the code that says it and its test).
 */
const KNOWN_GAPS: Array<{ spec: SpecRef[]; text: string; why: string }> = [
  { spec: ['analytics §8', 'guides §8'], text: 'is going away', why: 'no API name of ours is deprecated yet, so no notice has a name to say it of' },
  { spec: ['analytics §8', 'guides §8'], text: 'is gone', why: 'no API name of ours has been removed yet, so no notice has a name to say it of' },
];

/** Screen texts the specs quote (not log messages), with the constant that spells them. */
const SPEC_SCREEN_TEXTS: Array<{ spec: SpecRef[]; text: string; ours: string }> = [
  { spec: ['analytics §2', 'guides §2'], text: 'Type here to start looking...', ours: LAUNCHER_SEARCH_PLACEHOLDER },
  { spec: ['guides §2'], text: 'Are you sure you want to stop this tutorial?', ours: LAUNCHER_STOP_TUTORIAL },
  {
    spec: ['guides §2'],
    text: "Thanks for letting us know you're here. We're ready to try this again. Launch Designer below to begin.",
    ours: MESSAGES.designerModalText,
  },
];

/** The other quoted strings of the specs: names and values, or screen texts drawn inline (no constant to check). */
const SPEC_NON_MESSAGES: Array<{ spec: SpecRef[]; text: string }> = [
  { spec: ['analytics §2', 'guides §2'], text: 'powered by' }, // the credit line, drawn by overlay/ and the debugger
  { spec: ['guides §2'], text: 'Step {current} of {total}' }, // the step position, drawn by overlay/StepChrome.tsx
  { spec: ['analytics §5'], text: 'redacted' }, // the privacy filter's replacement (privacyFilter.test.ts)
  { spec: ['analytics §7'], text: 'prompt' }, // an event type
  { spec: ['analytics §7'], text: 'debugger launch' }, // window message types of the debugger handshake
  { spec: ['analytics §7'], text: 'ready' },
];

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const PRODUCT_DIRS = ['shim', 'worker', 'overlay', 'server', 'shared'];
/** Where the messages are defined, not said. */
const DEFINITIONS = new Set([join(ROOT, 'shared/messageTexts.ts'), join(ROOT, 'shared/messages.ts')]);

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const productSources = PRODUCT_DIRS.flatMap((d) => sourceFiles(join(ROOT, d)))
  .filter((p) => !DEFINITIONS.has(p))
  .map((path) => ({ path, text: readFileSync(path, 'utf8') }));

/** Our wording of a spec text: the product's name is ours. */
const ourWording = (text: string) => text.replaceAll('Pendo', 'Waymark');

/** The spec's text with its holes filled by `args`, left to right. */
function filled(entry: SpecMessage): string {
  let out = '';
  let rest = ourWording(entry.text);
  (entry.holes ?? []).forEach((hole, i) => {
    const at = rest.indexOf(hole);
    if (at < 0) throw new Error(`no hole ${hole} left in "${entry.text}"`);
    out += rest.slice(0, at) + String(entry.args![i]);
    rest = rest.slice(at + hole.length);
  });
  return out + rest;
}

/** What MESSAGES[key] says, called with the entry's args when it carries values. */
function rendered(entry: SpecMessage): unknown {
  const value: unknown = MESSAGES[entry.key];
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown)(...(entry.args ?? [])) : value;
}

/** The longest fixed part of the spec's text: what a test that triggers it is bound to spell, if not the key. */
const fixedPart = (entry: SpecMessage) =>
  (entry.holes ?? []).reduce<string[]>((parts, hole) => parts.flatMap((p) => p.split(hole)), [ourWording(entry.text)])
    .map((p) => p.trim())
    .sort((a, b) => b.length - a.length)[0]!;

const saysKey = (text: string, key: string) => new RegExp(`\\bMESSAGES\\.${key}\\b`).test(text);

describe('issue #17: every message the specs quote is spelled, said and triggered, or a known gap', () => {
  it('lists each spec text once, and each message export at most once', () => {
    const texts = [...SPEC_MESSAGES, ...KNOWN_GAPS, ...SPEC_SCREEN_TEXTS, ...SPEC_NON_MESSAGES].map((e) => e.text);
    expect(texts.filter((t, i) => texts.indexOf(t) !== i)).toEqual([]);
    const keys = SPEC_MESSAGES.map((e) => e.key);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
  });

  describe.each(SPEC_MESSAGES.map((e) => [e.text, e] as const))("'%s'", (_text, entry) => {
    it(`is spelled as the spec spells it by MESSAGES.${entry.key}`, () => {
      expect(typeof MESSAGES[entry.key]).toBe(entry.holes ? 'function' : 'string');
      expect(rendered(entry)).toBe(filled(entry));
    });

    it('is said by product code (shim, worker, overlay, server or shared)', () => {
      const sayers = productSources.filter((f) => saysKey(f.text, entry.key) || (!entry.holes && f.text.includes(`'${ourWording(entry.text)}'`)));
      expect(sayers.map((f) => f.path), `nothing in ${PRODUCT_DIRS.join(', ')} says MESSAGES.${entry.key}`).not.toEqual([]);
    });

    it(`is triggered by test/${entry.test}`, () => {
      const path = join(ROOT, 'test', entry.test);
      expect(existsSync(path), path).toBe(true);
      const text = readFileSync(path, 'utf8');
      expect(saysKey(text, entry.key) || text.includes(fixedPart(entry)), `test/${entry.test} names neither MESSAGES.${entry.key} nor '${fixedPart(entry)}'`).toBe(true);
    });
  });

  it.each(KNOWN_GAPS.map((g) => [g.text, g.why]))("'%s' is not said yet: %s", (text) => {
    // A gap that gets its words must move to SPEC_MESSAGES, with the code that says it and its test.
    const strings = Object.values(MESSAGES as Record<string, unknown>).filter((v): v is string => typeof v === 'string');
    expect(strings.filter((s) => s.includes(text))).toEqual([]);
    expect(readFileSync(join(ROOT, 'shared/messageTexts.ts'), 'utf8')).not.toContain(text);
  });

  it.each(SPEC_SCREEN_TEXTS.map((s) => [s.text, s.ours]))("screen text '%s' is spelled as the spec spells it", (text, ours) => {
    expect(ours).toBe(ourWording(text));
  });
});

/** The specs beside this checkout (../shared/spec); absent on a CI clone, where the lists above stand alone. */
const SPEC_DIR = resolve(ROOT, '../shared/spec');
const SPEC_FILES = { analytics: join(SPEC_DIR, 'analytics-spec.txt'), guides: join(SPEC_DIR, 'guides-spec.txt') } as const;
const specsHere = Object.values(SPEC_FILES).every((f) => existsSync(f));

describe.runIf(specsHere)('issue #17: the lists above against the specs themselves', () => {
  const specs = specsHere ? { analytics: readFileSync(SPEC_FILES.analytics, 'utf8'), guides: readFileSync(SPEC_FILES.guides, 'utf8') } : { analytics: '', guides: '' };
  const entries = [
    ...SPEC_MESSAGES.map((e) => ({ ...e, quoted: e.quoted ?? true })),
    ...[...KNOWN_GAPS, ...SPEC_SCREEN_TEXTS, ...SPEC_NON_MESSAGES].map((e) => ({ spec: e.spec, text: e.text, quoted: true })),
  ];

  it('every listed text is in the spec (section) it is listed under, quoted unless marked unquoted', () => {
    for (const entry of entries) {
      for (const ref of entry.spec) {
        const [doc, section] = ref.split(' §') as ['analytics' | 'guides', string];
        const part = specs[doc].split(/\n## /).find((s) => s.startsWith(`${section}. `));
        expect(part, `${ref} exists`).toBeDefined();
        expect(part, `${ref} has '${entry.text}'`).toContain(entry.quoted ? `'${entry.text}'` : entry.text);
      }
    }
  });

  it('every quoted string of the specs is listed: a message, a known gap, a screen text or a name', () => {
    for (const [doc, spec] of Object.entries(specs)) {
      let rest = spec;
      for (const entry of entries) if (entry.quoted) rest = rest.replaceAll(`'${entry.text}'`, '');
      expect(rest.match(/'[^'\n]+'/g) ?? [], `unlisted quoted strings of the ${doc} spec`).toEqual([]);
    }
  });
});
