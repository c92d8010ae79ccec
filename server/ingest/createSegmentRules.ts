/**
 * The segment rules of the reference server (spec: analytics §3, §7 "Segment flags"): a JSON file of
 * `[{ "flag": "beta-tester", "when": { "visitor.plan": "pro" } }, ...]`, re-read when its modification time
 * or size changes, so an author edits the file and the next segmentflag.json request sees it.
 *
 * Conditions are shared/segments/segmentConditions.ts's (a guide's audience speaks the same language).
 * A rule's flag is given when all its conditions hold; `"when": {}` always holds.
 */
import { readFile, stat } from 'node:fs/promises';
import { checkCondition, checkConditionPath, matchesConditions, type SegmentCondition, type SegmentSubject } from '../../shared/segments/segmentConditions';

export type { SegmentCondition, SegmentSubject, SegmentValue } from '../../shared/segments/segmentConditions';

/** One rule of the file. */
export interface SegmentRule {
  flag: string;
  when: Record<string, SegmentCondition>;
}

/** Where the rules file is and where warnings go. */
export interface SegmentRulesOptions {
  /** Path of the rules file. */
  file: string;
  /** Receives one message per unreadable version of the file (a missing file counts as one version). */
  warn(message: string): void;
}

/** The current rules. */
export interface SegmentRules {
  /** The rules of the file as it is now; `[]` when it is missing or malformed (warned, never thrown). */
  list(): Promise<SegmentRule[]>;
  /** The flags of every rule whose conditions all hold, in file order, without repeats. */
  flagsFor(subject: SegmentSubject): Promise<string[]>;
}


/** Creates the rules over `options.file`. */
export function createSegmentRules(options: SegmentRulesOptions): SegmentRules {
  /** The version last read: `null` mtime for a file that could not be stat'ed. */
  let cached: { mtimeMs: number | null; size: number; rules: SegmentRule[] } | null = null;

  async function list(): Promise<SegmentRule[]> {
    let info;
    try {
      info = await stat(options.file);
    } catch (err) {
      // Warned once per disappearance, not on every request.
      if (!cached || cached.mtimeMs !== null) {
        options.warn(`segment rules file ${options.file} cannot be read: ${(err as Error).message}`);
      }
      cached = { mtimeMs: null, size: 0, rules: [] };
      return [];
    }
    if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.rules;
    let rules: SegmentRule[] = [];
    try {
      rules = parseSegmentRules(JSON.parse(await readFile(options.file, 'utf8')));
    } catch (err) {
      options.warn(`ignoring segment rules file ${options.file}: ${(err as Error).message}`);
    }
    cached = { mtimeMs: info.mtimeMs, size: info.size, rules };
    return rules;
  }

  return {
    list,
    async flagsFor(subject) {
      const flags: string[] = [];
      for (const rule of await list()) {
        if (!flags.includes(rule.flag) && matchesSegmentRule(rule, subject)) flags.push(rule.flag);
      }
      return flags;
    },
  };
}

/** Checks a parsed rules file; throws with the index and the reason of the first bad rule. */
export function parseSegmentRules(value: unknown): SegmentRule[] {
  if (!Array.isArray(value)) throw new Error('the file must hold a JSON array of {"flag": string, "when": {...}}');
  return value.map((rule, index) => {
    const at = `rule ${index}`;
    if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) throw new Error(`${at} is not an object`);
    const { flag, when } = rule as { flag?: unknown; when?: unknown };
    if (typeof flag !== 'string' || flag === '') throw new Error(`${at}: flag must be a non-empty string`);
    if (typeof when !== 'object' || when === null || Array.isArray(when)) throw new Error(`${at} (${flag}): when must be an object`);
    for (const [path, condition] of Object.entries(when)) {
      const problem = checkConditionPath(path) ?? checkCondition(condition);
      if (problem) throw new Error(`${at} (${flag}), condition "${path}": ${problem}`);
    }
    return { flag, when: when as Record<string, SegmentCondition> };
  });
}

/** True when every condition of the rule holds for the subject. */
export function matchesSegmentRule(rule: SegmentRule, subject: SegmentSubject): boolean {
  return matchesConditions(rule.when, subject);
}
