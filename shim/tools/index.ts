/**
 * Entry of the integrator tools chunk (dist/agent/waymark.tools.js, issue #17): runs one tool for the shim's stub
 * (shim/createAgent.ts `tool`). Install validation, the native-method, global, URL and environment checks print a
 * console group and answer their report; debugging on and off answer the spec's reply (analytics §4) and open or
 * close the debugger; the log history is printed as a table.
 */
import { MESSAGES } from '../../shared/messages';
import type { GuideDiagnostics } from '../../shared/protocol';
import { reportOf, type ToolReport } from '../../shared/validation/finding';
import { installFindings } from '../../shared/validation/installFindings';
import { globalFindings, nativeFindings } from './checkNatives';
import { environmentFindings } from './environmentFindings';
import { openDebugger, watchCspViolations, type DebuggerPanel } from './openDebugger';
import { printHistory, printReport } from './printReport';
import type { ToolName, ToolsHost } from './toolsApi';
import { urlFindings } from './urlFindings';

/**
 * localStorage key of the debugging switch, per api key: the debugger opens again on the next pages
 * (shim/guides/watchDebuggerLaunch.ts reads it).
 */
export const DEBUG_STORAGE_PREFIX = '_wm_debug.';

let panel: DebuggerPanel | null = null;

export async function runTool(name: ToolName, host: ToolsHost, args: unknown[]): Promise<unknown> {
  watchCspViolations(new URL(host.env.assetBase).origin);
  switch (name) {
    case 'validateInstall':
      return printReport(validateInstall(host));
    case 'validateNativeMethods':
      return printReport(reportOf('native methods', nativeFindings()));
    case 'validateBuiltInGlobals':
      return printReport(reportOf('built-in globals', globalFindings(host.env.globalKey ?? 'waymark', host.agent)));
    case 'validateUrl': {
      const r = host.running();
      const sent = typeof args[0] === 'string' ? args[0] : r ? r.pageUrl() : document.URL;
      return printReport(reportOf('URL', urlFindings(sent, { hasUrlTransforms: (r?.options.urlTransforms?.length ?? 0) > 0 })));
    }
    case 'validateEnvironment':
      return printReport(reportOf('environment', environmentFindings(host)));
    case 'enableDebugging':
    case 'disableDebugging':
      return switchDebugging(host, name === 'enableDebugging');
    case 'showLogHistory':
      return printHistory(host.logger.history());
    case 'debugGuides':
      return debugGuides(host);
    case 'launchDesigner':
      return launchDesigner(host);
  }
}

/**
 * launchDesigner (guides §2 Designer, §8): the launch flow, as Shift+Alt+7 runs it (the guides chunk checks
 * disableDesigner and the child frame). Before initialize has started the agent: the spec's error, and false.
 */
async function launchDesigner(host: ToolsHost): Promise<boolean> {
  const r = host.running();
  const guides = r && (await r.guidesReady);
  if (!r) host.logger.log('error', MESSAGES.designerNotInitialized);
  else if (!guides) host.logger.log('warn', 'guides are disabled: no designer');
  else guides.launchDesigner();
  return Boolean(guides);
}

/** debugGuides (guides §5): the worker's verdict on every loaded guide, logged one line per guide, and answered. */
async function debugGuides(host: ToolsHost): Promise<GuideDiagnostics | null> {
  const r = host.running();
  const log = host.logger.log;
  const guides = r && (await r.guidesReady);
  if (!r || !guides || !guides.supported()) {
    log('warn', !r ? 'the agent is not running' : guides ? MESSAGES.notInSubscription : 'guides are disabled');
    return null;
  }
  const diagnostics = await r.bridge.call((w) => w.guideDiagnostics());
  for (const g of diagnostics.guides) log('info', `guide ${g.id}${g.name ? ` (${g.name})` : ''}: ${g.candidate ? 'may show' : 'not shown'}, ${g.reason}; ${g.completion}`);
  if (diagnostics.loadError) log('info', `last guide load: ${diagnostics.loadError}`);
  return diagnostics;
}

function validateInstall(host: ToolsHost): ToolReport {
  const r = host.running();
  const given = host.given();
  return reportOf(
    'install',
    installFindings({
      initializeCalled: given !== undefined,
      running: r !== null,
      apiKey: given?.apiKey,
      visitorId: r ? r.identity.visitorId : typeof given?.visitor?.id === 'string' ? given.visitor.id : null,
      accountId: r ? r.identity.accountId : typeof given?.account?.id === 'string' ? given.account.id : null,
      metadata: { visitor: given?.visitor, account: given?.account, parentAccount: given?.parentAccount },
      cookiesEnabled: navigator.cookieEnabled,
      localStorageOnly: given?.localStorageOnly === true,
    }),
  );
}

/**
 * analytics §4 debugging toggles: only the leader frame switches them (a follower is told so); the switch is kept
 * per api key, so the debugger opens again on the next pages; debugging turns the agent's logging on.
 */
function switchDebugging(host: ToolsHost, on: boolean): string {
  const r = host.running();
  if (r && !r.frame.leader) {
    host.logger.log('warn', MESSAGES.debuggingLeaderOnly);
    return MESSAGES.debuggingLeaderOnly;
  }
  const key = DEBUG_STORAGE_PREFIX + (r?.options.apiKey ?? '');
  const was = readSwitch(key);
  let reply: string;
  if (on) {
    reply = was ? MESSAGES.debuggingAlreadyEnabled : MESSAGES.debuggingEnabled;
    writeSwitch(key, true);
    host.logger.enable();
    if (r && !panel) {
      panel = openDebugger(r, {
        apiKey: r.options.apiKey,
        hideCredits: false,
        showGuide: (id) => void host.agent.showGuideById(id),
        onClose: () => {
          panel = null;
          writeSwitch(key, false);
        },
      });
    }
  } else {
    reply = was ? MESSAGES.debuggingDisabled : MESSAGES.debuggingAlreadyDisabled;
    writeSwitch(key, false);
    panel?.close();
    panel = null;
  }
  host.logger.log('info', reply);
  return reply;
}

function readSwitch(key: string): boolean {
  try {
    return localStorage.getItem(key) === 'true';
  } catch {
    return panel !== null;
  }
}

function writeSwitch(key: string, on: boolean): void {
  try {
    if (on) localStorage.setItem(key, 'true');
    else localStorage.removeItem(key);
  } catch {
    // Without storage the switch lasts this page.
  }
}
