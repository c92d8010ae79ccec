/**
 * The designer (guides §2 Designer, issue #15): a stub until the designer lands.
 */
import type { AuthorHost } from '../api';
import type { DesignerToken } from '../../../shared/authoring/designerLaunch';

export interface DesignerContext {
  host: AuthorHost;
  /** The checked token (its baseUrl is the console API); null when launched without one (the agent's server). */
  token: DesignerToken;
  /** Starts a same-tab preview of a saved guide: the designer closes, and the preview's exit opens it again. */
  preview(guideId: string): void;
  /** The author closed the designer. */
  onClose(): void;
}

export interface DesignerSession {
  close(): void;
}

export function openDesigner(ctx: DesignerContext): DesignerSession {
  ctx.host.log('info', `designer for ${ctx.token.baseUrl}`);
  return { close() {} };
}
