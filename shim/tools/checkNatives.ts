/**
 * The native-method and built-in-global checks (analytics §1 console tools, issue #17): the platform functions the
 * agent calls on the page's main thread, each named when the page replaced it, with what the agent does about
 * it; and the globals it needs, each named when missing. A replaced function is one whose source is no longer
 * the engine's `[native code]` (a Proxy around a native passes as native: it cannot be told apart).
 */
import type { Finding } from '../../shared/validation/finding';

/** What the agent does when the page replaced a native: the agent keeps calling the page's version. */
const DEFAULT_EFFECT = 'the agent calls the page\'s version: if it misbehaves, capture or guides can fail. Restore the native, or make the wrapper call it unchanged.';

interface Native {
  name: string;
  read(): unknown;
  effect?: string;
}

/**
 * The natives the shim, the guide display and the in-page worker call on this page. history.pushState and
 * replaceState are not among them: the agent wraps them itself (shim/watchUrl.ts), as routers do.
 */
const NATIVES: readonly Native[] = [
  { name: 'JSON.stringify', read: () => JSON.stringify, effect: 'events are serialized in the agent\'s worker, out of its reach; the page\'s version writes the agent\'s storage (session, guide state) and, when the agent runs on the main thread, its events.' },
  { name: 'JSON.parse', read: () => JSON.parse, effect: 'the page\'s version reads the agent\'s storage (session, guide state, campaign); a wrong result starts a new session.' },
  { name: 'Array.prototype.map', read: () => Array.prototype.map },
  { name: 'Array.prototype.filter', read: () => Array.prototype.filter },
  { name: 'Array.prototype.forEach', read: () => Array.prototype.forEach },
  { name: 'Array.prototype.includes', read: () => Array.prototype.includes },
  { name: 'Array.prototype.slice', read: () => Array.prototype.slice },
  { name: 'Array.from', read: () => Array.from },
  { name: 'Object.keys', read: () => Object.keys },
  { name: 'Object.entries', read: () => Object.entries },
  { name: 'Object.assign', read: () => Object.assign },
  { name: 'Promise', read: () => Promise, effect: 'every call to the worker answers through it: a broken Promise stalls flushNow, guides and the designer.' },
  { name: 'Promise.prototype.then', read: () => Promise.prototype.then },
  { name: 'fetch', read: () => globalThis.fetch, effect: 'the page-hide path sends its last events with fetch keepalive when sendBeacon refuses them; the worker\'s own fetch is out of reach.' },
  { name: 'navigator.sendBeacon', read: () => navigator.sendBeacon, effect: 'the page-hide path sends its last events with it.' },
  { name: 'MutationObserver', read: () => globalThis.MutationObserver, effect: 'dead-click detection and guide targets watch the page with it.' },
  { name: 'EventTarget.prototype.addEventListener', read: () => EventTarget.prototype.addEventListener, effect: 'the agent listens for clicks, submits and changes through it: a wrapper that drops listeners loses events.' },
  { name: 'EventTarget.prototype.removeEventListener', read: () => EventTarget.prototype.removeEventListener },
  { name: 'setTimeout', read: () => globalThis.setTimeout },
  { name: 'clearTimeout', read: () => globalThis.clearTimeout },
  { name: 'requestAnimationFrame', read: () => globalThis.requestAnimationFrame, effect: 'guides are placed and drawn in animation frames.' },
  { name: 'Element.prototype.closest', read: () => Element.prototype.closest },
  { name: 'Element.prototype.getAttribute', read: () => Element.prototype.getAttribute },
  { name: 'Document.prototype.querySelector', read: () => Document.prototype.querySelector, effect: 'guides find their elements with it.' },
  { name: 'Document.prototype.querySelectorAll', read: () => Document.prototype.querySelectorAll },
  { name: 'Node.prototype.appendChild', read: () => Node.prototype.appendChild, effect: 'the agent adds its overlay and chunks to the page with it.' },
  { name: 'Storage.prototype.getItem', read: () => Storage.prototype.getItem, effect: 'the visitor, session and tab are read from storage with it.' },
  { name: 'Storage.prototype.setItem', read: () => Storage.prototype.setItem },
  { name: 'Worker', read: () => globalThis.Worker, effect: 'the agent\'s worker starts with it; replaced, the agent may run on the main thread.' },
  { name: 'Worker.prototype.postMessage', read: () => globalThis.Worker?.prototype.postMessage, effect: 'every event crosses to the worker through it.' },
  { name: 'crypto.getRandomValues', read: () => crypto.getRandomValues, effect: 'visitor, session and tab ids are drawn with it.' },
  { name: 'Function.prototype.toString', read: () => Function.prototype.toString, effect: 'this check reads sources with it: its verdicts cannot be trusted while it is replaced.' },
];

const NATIVE_SOURCE = /\{\s*\[native code\]\s*\}\s*$/;

/** Whether `fn` is the engine's own (by its source, read with the page's Function.prototype.toString). */
export function isNative(fn: unknown): boolean {
  if (typeof fn !== 'function') return false;
  try {
    return NATIVE_SOURCE.test(Function.prototype.toString.call(fn));
  } catch {
    return false;
  }
}

export function nativeFindings(): Finding[] {
  const out: Finding[] = [];
  for (const native of NATIVES) {
    let fn: unknown;
    try {
      fn = native.read();
    } catch {
      fn = undefined;
    }
    if (typeof fn !== 'function') out.push({ level: 'error', message: `${native.name} is missing`, advice: native.effect ?? DEFAULT_EFFECT });
    else if (!isNative(fn)) out.push({ level: 'warn', message: `${native.name} has been replaced by the page`, advice: native.effect ?? DEFAULT_EFFECT });
  }
  // Prototype.js-era libraries give arrays a toJSON: JSON.stringify then writes every array as a string.
  if (typeof (Array.prototype as unknown as { toJSON?: unknown }).toJSON === 'function') {
    out.push({ level: 'warn', message: 'Array.prototype.toJSON is defined', advice: 'JSON.stringify then writes arrays as strings on this page: the agent\'s storage holds them so. Remove it (old Prototype.js versions add it).' });
  }
  const enumerable = enumerableOnObjectPrototype();
  if (enumerable.length) {
    out.push({ level: 'warn', message: `Object.prototype has enumerable properties: ${enumerable.join(', ')}`, advice: 'Every for...in on the page sees them. Define them with Object.defineProperty (enumerable: false).' });
  }
  if (!out.length) out.push({ level: 'ok', message: `the ${NATIVES.length} natives the agent calls are the browser's own` });
  return out;
}

function enumerableOnObjectPrototype(): string[] {
  const keys: string[] = [];
  // eslint-disable-next-line guard-for-in -- the point is what a for...in sees
  for (const key in {}) keys.push(key);
  return keys;
}

interface Global {
  name: string;
  present(): boolean;
  /** error: the agent cannot run without it; warn: a part of it stops. */
  level: 'error' | 'warn';
  effect: string;
}

const GLOBALS: readonly Global[] = [
  { name: 'Promise', present: () => typeof Promise === 'function', level: 'error', effect: 'the agent cannot run.' },
  { name: 'Map and Set', present: () => typeof Map === 'function' && typeof Set === 'function', level: 'error', effect: 'the agent cannot run.' },
  { name: 'WeakMap', present: () => typeof WeakMap === 'function', level: 'error', effect: 'the agent cannot run.' },
  { name: 'URL', present: () => typeof URL === 'function', level: 'error', effect: 'the agent cannot find its own files.' },
  { name: 'crypto.getRandomValues', present: () => typeof crypto?.getRandomValues === 'function', level: 'error', effect: 'no ids can be drawn.' },
  { name: 'MessageChannel', present: () => typeof MessageChannel === 'function', level: 'warn', effect: 'the worker\'s answers cannot cross: calls to it fail.' },
  { name: 'Worker', present: () => typeof Worker === 'function', level: 'warn', effect: 'the agent runs on the main thread (getWorkerMode() says so), at a cost to the page.' },
  { name: 'structuredClone', present: () => typeof structuredClone === 'function', level: 'warn', effect: 'events captured before the worker starts are not copied: a change made to them meanwhile is sent.' },
  { name: 'MutationObserver', present: () => typeof MutationObserver === 'function', level: 'warn', effect: 'no dead-click detection; guides wait for their elements by polling only.' },
  { name: 'BroadcastChannel', present: () => typeof BroadcastChannel === 'function', level: 'warn', effect: 'a tab duplicated more than 10 s after it loaded keeps the original\'s tab id.' },
  { name: 'navigator.sendBeacon', present: () => typeof navigator.sendBeacon === 'function', level: 'warn', effect: 'the last events of a closing page go by fetch keepalive only.' },
  { name: 'indexedDB', present: () => typeof indexedDB === 'object' && indexedDB !== null, level: 'warn', effect: 'events waiting to be sent are not kept across pages: a closed tab loses what it had not sent.' },
  { name: 'localStorage', present: () => storageWorks(() => localStorage), level: 'warn', effect: 'the anonymous visitor and the session live in cookies and this page only.' },
  { name: 'sessionStorage', present: () => storageWorks(() => sessionStorage), level: 'warn', effect: 'every page load of the tab counts as a new tab.' },
  { name: 'requestAnimationFrame', present: () => typeof requestAnimationFrame === 'function', level: 'warn', effect: 'guides cannot be drawn.' },
];

function storageWorks(storage: () => Storage): boolean {
  try {
    const s = storage();
    s.setItem('_wm_check', '1');
    s.removeItem('_wm_check');
    return true;
  } catch {
    return false;
  }
}

/** The globals the agent needs, each missing one named; the agent's own global, if the page took it over. */
export function globalFindings(globalKey: string, agent: unknown): Finding[] {
  const out: Finding[] = [];
  for (const g of GLOBALS) if (!g.present()) out.push({ level: g.level, message: `${g.name} is not available`, advice: g.effect });
  const holder = (globalThis as Record<string, unknown>)[globalKey];
  if (holder !== agent) {
    out.push({ level: 'error', message: `window.${globalKey} is no longer the agent`, advice: `Something on the page replaced it: calls to window.${globalKey} go elsewhere. Give the agent another global with the script's data-waymark-global attribute.` });
  }
  if (!out.length) out.push({ level: 'ok', message: `the ${GLOBALS.length} globals the agent needs are here, and window.${globalKey} is the agent` });
  return out;
}
