/**
 * The checks of `initialize` (guides §1; analytics §5, §8): an api key is required ('API key is not set,
 * Waymark will not initialize.'), `disabled` keeps the agent off ('Waymark is currently disabled.'), and the
 * selector options must be arrays (anything else is ignored, said once).
 */
import { MESSAGES } from '../shared/messages';
import type { LogLevel } from '../shared/protocol';
import type { InitializeOptions } from './agentOptions';

/** The options to start with, or null (logged) when the agent must not start. */
export function checkInitializeOptions(given: InitializeOptions | undefined, log: (level: LogLevel, message: string) => void): InitializeOptions | null {
  let options = given;
  if (!options || typeof options.apiKey !== 'string' || !options.apiKey.trim()) {
    log('warn', MESSAGES.apiKeyMissing);
    return null;
  }
  if (options.disabled === true) {
    log('info', MESSAGES.agentDisabled);
    return null;
  }
  for (const name of ['inputCssSelectors', 'submitCssSelectors'] as const) {
    if (options[name] !== undefined && !Array.isArray(options[name])) {
      log('error', name === 'inputCssSelectors' ? MESSAGES.inputSelectorsNotArray : MESSAGES.submitSelectorsNotArray);
      options = { ...options, [name]: undefined };
    }
  }
  return options;
}

/** URL transforms, a privacy filter or a custom URL source: the privacy chunk must load before the agent starts. */
export function needsPrivacy(options: InitializeOptions): boolean {
  // Any urlTransforms at all, even an empty or malformed list: the privacy chunk checks them and says what is wrong.
  return options.privacyFilter !== undefined || options.customUrl !== undefined || options.urlTransforms !== undefined;
}
