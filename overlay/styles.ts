import { MODULE_SLIDE_MS, RESOURCE_CENTER_DEFAULTS as RC, TOOLTIP_DEFAULTS as TIP } from '../shared/constants';

/**
 * The overlay's stylesheet, adopted into its shadow root as a constructed stylesheet: host CSS cannot
 * reach in, ours cannot leak out, and no inline <style> is needed (so a strict style-src CSP holds).
 */
export const OVERLAY_CSS = `
:host { all: initial; }
* { box-sizing: border-box; }
.wm-step {
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--wm-text, #1f2430); background: var(--wm-bg, #fff); border-radius: var(--wm-radius, 8px);
  border: var(--wm-bw, 0px) solid var(--wm-bc, transparent);
  box-shadow: 0 10px 30px rgba(15, 23, 42, .25), 0 1px 3px rgba(15, 23, 42, .2);
  padding: 20px 22px 16px; position: fixed; max-width: calc(100vw - 16px);
}
.wm-step:focus { outline: none; }
.wm-step h1, .wm-step h2, .wm-step h3 { margin: 0 0 8px; margin-inline-end: 32px; line-height: 1.25; color: var(--wm-text, #111827); }
.wm-step h1 { font-size: 22px; } .wm-step h2 { font-size: 18px; } .wm-step h3 { font-size: 16px; }
.wm-step p { margin: 0 0 12px; }
.wm-step img { max-width: 100%; height: auto; }
.wm-step button:not(.wm-close) {
  font: inherit; font-weight: 600; color: var(--wm-on-accent, #fff); background: var(--wm-accent, #3b5bdb); border: 0; border-radius: 6px;
  padding: 8px 16px; cursor: pointer; margin: 4px 0 0; margin-inline-end: 8px;
}
.wm-step button:not(.wm-close):hover { background: var(--wm-accent-hover, #364fc7); }
/* Every control of a step shows where the keyboard is. */
.wm-step button:focus-visible, .wm-close:focus-visible, .wm-step a:focus-visible, .wm-step input:focus-visible,
.wm-step select:focus-visible, .wm-step textarea:focus-visible, .wm-step [tabindex]:not(.wm-step):focus-visible {
  outline: 3px solid #91a7ff; outline-offset: 2px;
}
.wm-step a { color: var(--wm-accent, #3b5bdb); }
.wm-step textarea, .wm-step select, .wm-step input:not([type=radio]):not([type=checkbox]) {
  display: block; width: 100%; box-sizing: border-box; margin: 4px 0 10px; padding: 6px 8px;
  font: inherit; color: #111827; border: 1px solid #cbd5e1; border-radius: 6px; background: #fff;
}
.wm-step [role=radiogroup] { display: flex; flex-wrap: wrap; gap: 6px 12px; margin: 8px 0 12px; }
.wm-step [role=radiogroup] label { display: inline-flex; align-items: center; gap: 4px; cursor: pointer; }
.wm-step label { display: block; }
.wm-step [data-poll-scale] { flex-wrap: nowrap; justify-content: space-between; gap: 4px; }
.wm-step [data-poll-scale] label { flex-direction: column-reverse; gap: 2px; }
.wm-step [data-poll-scale-labels] { display: flex; justify-content: space-between; gap: 12px; margin: -6px 0 12px; font-size: 12px; color: var(--wm-muted, #6b7280); }
.wm-badge {
  position: fixed; top: 0; left: 0; z-index: 299999; display: inline-flex; align-items: center; justify-content: center;
  padding: 0; border: 2px solid #fff; border-radius: 50%; background: var(--wm-accent, #3b5bdb); color: var(--wm-on-accent, #fff);
  font: 700 13px/1 system-ui, sans-serif; cursor: pointer; box-shadow: 0 1px 4px rgba(15, 23, 42, .35); overflow: hidden;
}
.wm-badge:focus-visible { outline: 3px solid #91a7ff; outline-offset: 2px; }
.wm-badge img { display: block; width: 100%; height: 100%; object-fit: cover; }
.wm-badge-blocks { min-width: 22px; min-height: 22px; padding: 2px 8px; border-radius: 11px; white-space: nowrap; }
.wm-required { margin: 6px 0 0; color: #b91c1c; font-size: 13px; }
.wm-thanks { margin: 8px 0 4px; margin-inline-end: 32px; font-weight: 600; color: var(--wm-text, #111827); }
.wm-close {
  position: absolute; top: 8px; right: 8px; width: 28px; height: 28px; border: 0; border-radius: 6px;
  background: transparent; color: var(--wm-muted, #6b7280); font: 22px/1 system-ui, sans-serif; cursor: pointer;
}
.wm-close:hover { background: var(--wm-hover, #f1f3f5); color: var(--wm-text, #111827); }
.wm-footer { display: flex; justify-content: space-between; gap: 12px; margin-top: 12px; font-size: 12px; color: var(--wm-muted, #6b7280); }
.wm-backdrop { position: fixed; inset: 0; background: rgba(15, 23, 42, .45); }
.wm-lightbox { left: 50%; top: 50%; transform: translate(-50%, -50%); max-height: calc(100vh - 32px); overflow: auto; }
.wm-banner { left: 0; right: 0; top: 0; border-radius: 0; max-width: none; overflow: auto; box-sizing: border-box; padding-inline-end: 48px; }
.wm-tooltip { top: 0; left: 0; }
.wm-embedded { position: relative; box-shadow: 0 1px 3px rgba(15, 23, 42, .2); max-width: 100%; box-sizing: border-box; margin: 0 0 12px; }
/* The mobile lightbox: the content scrolls, the close button and the footer stay where they are. */
.wm-mobile-lightbox { display: flex; flex-direction: column; overflow: hidden; padding: 40px 16px 12px; }
.wm-mobile-lightbox [data-waymark-step] { overflow: auto; min-height: 0; overscroll-behavior: contain; }
.wm-mobile-lightbox h1, .wm-mobile-lightbox h2, .wm-mobile-lightbox h3 { margin-inline-end: 0; }
/* Block-out panes (guides §2 blockOutUI): sized and placed by BlockOut.tsx; they take the page's clicks. */
.wm-blockout { position: fixed; top: 0; left: 0; width: 0; height: 0; }
/* Right-to-left languages (he, ar): the close button moves to the other corner. */
[dir=rtl] .wm-close { right: auto; left: 8px; }
.wm-caret { position: absolute; width: ${TIP.caretSize}px; height: ${TIP.caretSize}px; background: var(--wm-bg, #fff); transform: rotate(45deg); border: 0 solid var(--wm-bc, transparent); }
/* guides §9 border caret: a bordered tooltip's caret is a ${TIP.borderCaretSize} px caret plus the border on its two outer
   sides (rotated 45 degrees, the square's top-left corner points up), so the outline runs round its point. */
.wm-bordered .wm-caret { width: calc(${TIP.borderCaretSize}px + var(--wm-bw)); height: calc(${TIP.borderCaretSize}px + var(--wm-bw)); }
.wm-bordered[data-side=bottom] .wm-caret { border-top-width: var(--wm-bw); border-left-width: var(--wm-bw); }
.wm-bordered[data-side=top] .wm-caret { border-bottom-width: var(--wm-bw); border-right-width: var(--wm-bw); }
.wm-bordered[data-side=right] .wm-caret { border-bottom-width: var(--wm-bw); border-left-width: var(--wm-bw); }
.wm-bordered[data-side=left] .wm-caret { border-top-width: var(--wm-bw); border-right-width: var(--wm-bw); }
.wm-launcher-badge { overflow: visible; font-size: 22px; }
.wm-launcher-badge img { border-radius: 50%; }
.wm-bubble { position: absolute; top: -6px; right: -6px; min-width: 20px; padding: 0 5px; border-radius: 10px; background: var(--wm-bubble, #e03131); color: var(--wm-on-bubble, #fff); font: 700 12px/20px system-ui, sans-serif; }
.wm-launcher { z-index: 299999; display: flex; flex-direction: column; padding: 0; overflow: hidden; }
.wm-launcher-head, .wm-progress { padding-block: 14px 6px; padding-inline: 16px 48px; font-size: 12px; color: var(--wm-muted, #6b7280); }
.wm-progress { padding: 0 16px 6px; }
.wm-progress div { height: 6px; margin-top: 4px; background: #e9ecef; }
.wm-progress span { display: block; height: 100%; background: var(--wm-accent, #3b5bdb); }
.wm-launcher input.wm-search:not([type=radio]) { width: auto; height: 31px; margin: 4px 16px; }
.wm-list { flex: 1; overflow: auto; margin: 0; padding: 4px 8px; list-style: none; }
.wm-launcher-body { flex: 1; min-height: 0; overflow: auto; }
.wm-launcher-body > .wm-list { overflow: visible; }
.wm-launcher-custom { padding: 4px 0 8px; border-bottom: 1px solid var(--wm-line, #e5e7eb); margin-bottom: 4px; }
.wm-whatsnew h3 { margin: 8px 16px 4px; font-size: 13px; }
.wm-whatsnew-item { margin: 0 8px; padding: 10px 8px; border-bottom: 1px solid var(--wm-line, #e9ecef); }
.wm-whatsnew-item[data-unseen] { border-inline-start: 3px solid var(--wm-accent, #3b5bdb); }
.wm-whatsnew-item:not([data-unseen]) { opacity: 0.75; }
.wm-step button.wm-item, .wm-step button.wm-secondary { width: 100%; margin: 0; padding: 8px; text-align: start; font-weight: 400; color: inherit; background: none; }
.wm-step button.wm-item:hover, .wm-step button.wm-secondary:hover { background: var(--wm-hover, #f1f3f5); }
.wm-launcher .wm-footer { flex: none; height: 40px; margin: 0; align-items: center; justify-content: center; border-top: 1px solid var(--wm-line, #e9ecef); }
.wm-confirm { position: absolute; inset: 0; display: flex; flex-direction: column; justify-content: center; padding: 24px; background: var(--wm-bg, #fff); text-align: center; font-weight: 600; }
.wm-step .wm-confirm button { text-align: center; }
/* The resource center (guides §2, §9): bubble 26 px high with 13 px text pulsing every 2 s; the panel keeps
   10 px from the window's height; views slide in over 200 ms. */
.wm-rc { width: min(360px, calc(100vw - 40px)); height: min(480px, calc(100vh - ${80 + 20 + RC.heightMargin}px)); }
.wm-rc-bubble { top: -8px; height: ${RC.bubbleHeight}px; min-width: ${RC.bubbleHeight}px; border-radius: ${RC.bubbleHeight / 2}px; font: 700 ${RC.badgeSize}px/${RC.bubbleHeight}px system-ui, sans-serif; text-align: center; animation: wm-pulse ${RC.pulseMs}ms ease-in-out infinite; }
.wm-rc-bubble-left { right: auto; left: -8px; }
@keyframes wm-pulse { 0%, 100% { box-shadow: 0 0 0 0 color-mix(in srgb, var(--wm-bubble, #e03131) 60%, transparent); } 50% { box-shadow: 0 0 0 6px transparent; } }
@media (prefers-reduced-motion: reduce) { .wm-rc-bubble, .wm-rc-view { animation: none; } }
.wm-rc-head { display: flex; align-items: center; gap: 8px; padding-inline: 16px 48px; }
.wm-rc-head h2 { margin: 0; }
.wm-step button.wm-rc-back { margin: 0; padding: 2px 8px; color: var(--wm-accent, #3b5bdb); background: var(--wm-hover, #edf2ff); }
.wm-rc input.wm-search:not([type=radio]) { width: auto; height: 31px; margin: 4px 16px 0; }
.wm-rc-count { min-height: 18px; padding: 0 16px; font-size: 12px; color: var(--wm-muted, #6b7280); }
.wm-rc-view { flex: 1; min-height: 0; display: flex; flex-direction: column; overflow: auto; animation: wm-slide-in ${MODULE_SLIDE_MS}ms ease-out; }
.wm-rc-home { animation-name: wm-slide-back; }
[dir=rtl] .wm-rc-view { animation-name: wm-slide-back; } [dir=rtl] .wm-rc-home { animation-name: wm-slide-in; }
@keyframes wm-slide-in { from { transform: translateX(100%); } to { transform: none; } }
@keyframes wm-slide-back { from { transform: translateX(-100%); } to { transform: none; } }
.wm-rc-news { padding: 10px 8px; border-bottom: 1px solid var(--wm-line, #e9ecef); }
.wm-rc-news[data-unseen] { border-inline-start: 3px solid var(--wm-accent, #3b5bdb); }
.wm-rc-dot { color: #e03131; font-size: 12px; }
.wm-rc-empty { padding: 16px; color: var(--wm-muted, #6b7280); }
.wm-rc-body { padding: 8px 16px; overflow: auto; }
.wm-rc-intro { flex: none; border-bottom: 1px solid var(--wm-line, #e9ecef); }
.wm-rc-frame { flex: 1; width: 100%; border: 0; }
.wm-rc .wm-list { overflow: visible; }
.wm-sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
