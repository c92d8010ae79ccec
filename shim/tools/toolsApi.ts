/**
 * The contract of the integrator tools chunk (dist/agent/waymark.tools.js, issue #17; analytics §1 "Console tools
 * for integrators", §4 debugging toggles, §8 the debugger plugin): install validation, the native-method, global,
 * URL and environment checks, debugging on and off with the debugger, and the printed log history. The shim keeps
 * one stub per call and imports the chunk on the first; a visitor's page never fetches it. Types only.
 */
import type { AgentEnvironment, InitializeOptions, WaymarkApi } from '../agentOptions';
import type { Running } from '../agentState';
import type { Logger } from '../createLogger';

/** What the shim gives the tools at each call. */
export interface ToolsHost {
  env: AgentEnvironment;
  /** The agent's logger: its lines, history and switch (debugging turns logging on). */
  logger: Logger;
  /** The running agent, or null (not initialized yet, or initialize refused). */
  running(): Running | null;
  /** The options initialize was last given, checked or not (validateInstall reads them even when refused). */
  given(): InitializeOptions | undefined;
  /** The agent's public API object (the global check asks whether the page still holds it). */
  agent: WaymarkApi;
}

/** The tools' calls, in the order the shim declares them (one stub each). */
export const TOOL_NAMES = ['validateInstall', 'validateNativeMethods', 'validateBuiltInGlobals', 'validateUrl', 'validateEnvironment', 'enableDebugging', 'disableDebugging', 'debugGuides', 'launchDesigner'] as const;

export type { Finding, ToolReport } from '../../shared/validation/finding';

export type ToolName = (typeof TOOL_NAMES)[number] | 'showLogHistory';

export interface ToolsModule {
  runTool(name: ToolName, host: ToolsHost, args: unknown[]): Promise<unknown>;
}
