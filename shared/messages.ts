/**
 * Every message the spec words, spelled exactly as the spec spells it (the texts: shared/messageTexts.ts).
 * `MESSAGES` is the namespace of them all; each bundle keeps only the messages it reads (a namespace's unused
 * exports are tree-shaken, an object's unused keys never are).
 */
export * as MESSAGES from './messageTexts';
