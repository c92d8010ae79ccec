/**
 * Shape checks of what the guide server sends, done before anything is evaluated or rendered.
 * spec: guides §5 — content must have type, children and props.
 */
import { MESSAGES } from '../messages';
import type { DomNode, GuideLoadResponse } from './guides';

/** Returns an error message, or null when the guide load response has the shape the agent reads. */
export function checkGuideLoadResponse(body: unknown): string | null {
  if (!isObject(body)) return 'guide.json response is not an object';
  if (!Array.isArray(body.guides)) return 'guide.json response has no guides array';
  if (!isObject(body.lastGuideStepSeen)) return 'guide.json response has no lastGuideStepSeen object';
  for (const guide of body.guides as unknown[]) {
    if (!isObject(guide) || typeof guide.id !== 'string') return 'a guide has no string id';
    if (!Array.isArray(guide.steps)) return `guide ${guide.id} has no steps array`;
    for (const step of guide.steps as unknown[]) {
      if (!isObject(step) || typeof step.id !== 'string') return `a step of guide ${guide.id} has no string id`;
      if (typeof step.type !== 'string') return `step ${step.id} of guide ${guide.id} has no type`;
    }
  }
  return null;
}

/** Narrows after `checkGuideLoadResponse` returned null. */
export function asGuideLoadResponse(body: unknown): GuideLoadResponse {
  return body as GuideLoadResponse;
}

/** Returns `MESSAGES.contentNotJson` unless the content root has type, children and props. */
export function checkStepContent(node: unknown): string | null {
  if (!isObject(node) || typeof node.type !== 'string' || !Array.isArray(node.children) || !isObject(node.props)) {
    return MESSAGES.contentNotJson;
  }
  return null;
}

/** Narrows after `checkStepContent` returned null. */
export function asDomNode(node: unknown): DomNode {
  return node as DomNode;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
