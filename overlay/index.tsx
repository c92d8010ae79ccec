/**
 * Entry of dist/agent/waymark.overlay.js, loaded by the shim with a dynamic import the first time a guide
 * is shown. Guides render with React inside a shadow root on a host element of our own, so host CSS and
 * ours never meet.
 */
import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { readBlockOut, type BlockOutOptions } from '../shared/surfaces/blockOutPanes';
import { MESSAGES } from '../shared/messages';
import type { StepToShow } from '../shared/protocol';
import type { LauncherHandlers, Overlay, OverlayModule, ResourceCenterHandlers, StepHandlers } from './api';
import { Badge } from './Badge';
import { Banner } from './Banner';
import { Embedded, mountEmbedded } from './Embedded';
import { BlockOut } from './BlockOut';
import { Launcher } from './Launcher';
import { Lightbox } from './Lightbox';
import { ResourceCenter } from './ResourceCenter';
import { prewarmWhenIdle } from './prewarm';
import { createOverlayHost, isRtlPage, mirrorForPage } from './createOverlayHost';
import { Tooltip } from './Tooltip';

export const createOverlay: OverlayModule['createOverlay'] = (doc, options = {}) => {
  // The page's overlay host when the painted steps made it first (issue #34), else one of our own.
  const { host, shadow, sheet, stepSheet, launcherSheet, attach } = options.host ?? createOverlayHost(doc);
  const container = doc.createElement('div');
  // Under whatever the painted steps drew (they append theirs last): a React step and a painted one never show together.
  shadow.insertBefore(container, shadow.firstChild);
  const root: Root = createRoot(container);
  // Badges live in a layer of their own, beside (and under) the step on screen.
  const badgeContainer = doc.createElement('div');
  shadow.insertBefore(badgeContainer, container);
  const badgeRoot: Root = createRoot(badgeContainer);
  let current: { step: StepToShow; handlers: StepHandlers } | null = null;
  /** Takes the embedded step (guides §3 embedConfig) out of the page, and puts the page's content back. */
  let unembed: (() => void) | null = null;

  /**
   * A layer with a React root of its own, made the first time it has something to show: a render that throws
   * takes only that layer off the page and tells `onError` of the moment, never a guide.
   */
  function separateLayer(onError: (error: unknown) => void) {
    let layerRoot: Root | null = null;
    return {
      render(node: ReactNode) {
        if (!layerRoot) {
          if (node === null) return;
          const layerContainer = doc.createElement('div');
          shadow.insertBefore(layerContainer, container);
          layerRoot = createRoot(layerContainer, {
            onUncaughtError: (error) => {
              layerRoot?.render(null);
              onError(error);
            },
          });
        }
        layerRoot.render(node);
      },
      unmount: () => layerRoot?.unmount(),
    };
  }
  // The launcher's layer: a render that throws is 'ERROR while initializing launcher'.
  let launcherHandlers: LauncherHandlers | null = null;
  const launcherLayer = separateLayer((error) => launcherHandlers?.onError(error));
  let rcHandlers: ResourceCenterHandlers | null = null;
  const rcLayer = separateLayer((error) => rcHandlers?.onError(error));

  // guides §2: Escape (key 27) dismisses a guide that has a dismiss action; every step has the close button.
  const onKeyDown = (event: KeyboardEvent) => {
    if (current && (event.key === 'Escape' || event.keyCode === 27)) current.handlers.onDismiss(null);
  };
  doc.addEventListener('keydown', onKeyDown, true);
  // Made ahead of a guide (issue #16 prefetch): the code of a first step is compiled in idle time, unless the
  // overlay has drawn something by then (its host is in the page from the first drawing on).
  prewarmWhenIdle(doc, () => host.isConnected);

  /**
   * guides §2 blockOutUI of a step with a target: its options and the elements to leave clear (the target,
   * then every match of additionalElements). Any failure, now or while drawing, logs 'Failed to add
   * BlockOut ui' (guides §8; info level for a banner) and the step shows without the block-out.
   */
  function blockOutOf(step: StepToShow, target: Element | null): { options: BlockOutOptions; elements: Element[]; onError(error: unknown): void } | null {
    const onError = (error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      options.log?.(step.type === 'banner' ? 'info' : 'error', `${MESSAGES.blockOutFailed} for guide ${step.guideId} step ${step.stepId}: ${detail}`);
    };
    try {
      const blockOut = readBlockOut(step.attributes);
      if (!blockOut || !target) return null;
      const extra = blockOut.additionalElements.flatMap((selector) => Array.from(doc.querySelectorAll(selector)));
      return { options: blockOut, elements: [target, ...extra], onError };
    } catch (error) {
      onError(error);
      return null;
    }
  }

  const overlay: Overlay = {
    show(step, target, handlers) {
      unembed?.();
      unembed = null;
      stepSheet.replaceSync(step.css ?? '');
      if (step.embed && target) {
        // In the page's flow, not over it: nothing in the overlay's own layer, and Escape leaves it alone.
        current = null;
        root.render(null);
        unembed = mountEmbedded(target, step.embed.method, [sheet, stepSheet], <Embedded step={step} handlers={handlers} />);
        return;
      }
      attach();
      current = { step, handlers };
      mirrorForPage(container, doc);
      const key = `${step.guideId}/${step.stepId}`;
      const blockOut = blockOutOf(step, target);
      const surface =
        step.type === 'tooltip' && target ? (
          <Tooltip key={key} step={step} target={target} handlers={handlers} />
        ) : step.type === 'banner' ? (
          <Banner key={key} step={step} handlers={handlers} />
        ) : (
          <Lightbox key={key} step={step} handlers={handlers} mobile={step.type === 'mobile-lightbox'} backdrop={!blockOut} />
        );
      // Rendered now, in the task that brought the step, not in a task React schedules later (issue #16).
      flushSync(() => root.render(
        <>
          {blockOut && <BlockOut key={`${key}#blockout`} options={blockOut.options} elements={blockOut.elements} onError={blockOut.onError} />}
          {surface}
        </>,
      ));
    },
    hide() {
      current = null;
      unembed?.();
      unembed = null;
      root.render(null);
    },
    showBadges(badges, onOpen) {
      if (badges.length) attach();
      badgeRoot.render(
        <>
          {badges.map(({ badge, target }) => (
            <Badge key={badge.guideId} badge={badge} target={target} onOpen={onOpen} />
          ))}
        </>,
      );
    },
    showLauncher(launcher, open, anchor, handlers) {
      launcherHandlers = handlers;
      launcherSheet.replaceSync(launcher?.css ?? '');
      if (launcher) attach();
      const rtl = isRtlPage(doc);
      launcherLayer.render(launcher ? <Launcher launcher={launcher} open={open} anchor={anchor} rtl={rtl} handlers={handlers} /> : null);
    },
    showResourceCenter(resourceCenter, state, handlers) {
      rcHandlers = handlers;
      if (!resourceCenter) return rcLayer.render(null);
      attach();
      const rtl = isRtlPage(doc);
      rcLayer.render(<ResourceCenter resourceCenter={resourceCenter} state={state} rtl={rtl} handlers={handlers} />);
    },
    destroy() {
      current = null;
      unembed?.();
      launcherLayer.unmount();
      rcLayer.unmount();
      doc.removeEventListener('keydown', onKeyDown, true);
      root.unmount();
      badgeRoot.unmount();
      host.remove();
    },
  };
  return overlay;
};
