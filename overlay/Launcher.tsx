/**
 * The launcher, or guide center (guides §2 Launcher): a badge in a corner of the window (or an element of the
 * page) opens a panel listing the guides the visitor may start, with an optional search box, onboarding
 * progress, the what's-new unseen count and a footer with the powered-by credit. The shim owns whether it is
 * open; closing (the close button, the badge, Escape inside the panel) while an onboarding tutorial is under way
 * asks first, inside the panel. Opened by the visitor, the panel takes focus, and gives it back to the badge
 * (or the page's element) when closed from inside; opened by itself or by the host, it leaves focus where it is.
 * For right-to-left languages (he, ar) the badge's corner is mirrored and the panel is laid out right to left.
 */
import { autoUpdate, computePosition, flip, offset, shift } from '@floating-ui/dom';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { LAUNCHER_SEARCH_PLACEHOLDER, LAUNCHER_STOP_TUTORIAL } from '../shared/constants';
import { filterLauncherGuides, isWhatsNewSeenDue, launcherPanelSize, needsStopTutorialConfirm } from '../shared/surfaces/launcherPanel';
import type { LauncherToShow, WhatsNewEntry } from '../shared/protocol';
import { themeVars } from '../shared/surfaces/guideTheme';
import { isAnnouncementInView, mirroredCorner } from '../shared/surfaces/resourceCenterPanel';
import { actionsElsewhere } from './actionsElsewhere';
import type { LauncherHandlers } from './api';
import { GuideItem } from './GuideItem';
import { renderBlocks } from './renderBlocks';

export interface LauncherProps {
  launcher: LauncherToShow;
  open: boolean;
  /** launchType element: the element the panel is placed by. */
  anchor: Element | null;
  /** The page's language (else the browser's) is he or ar. */
  rtl: boolean;
  handlers: LauncherHandlers;
}

/** Badge size and its distance from the window's edges, px; the panel opens 12 px beyond the badge. */
const BADGE = 48;
const EDGE = 20;

export function Launcher({ launcher, open, anchor, rtl, handlers }: LauncherProps): ReactNode {
  const [search, setSearch] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [imageFailed, setImageFailed] = useState(false);
  const panel = useRef<HTMLDivElement>(null);
  const badge = useRef<HTMLButtonElement>(null);
  /** The visitor opened the panel (badge, element, keyboard): focus goes into it once it is drawn. */
  const focusOnOpen = useRef(false);

  useEffect(() => {
    if (!open) setConfirming(false);
    else if (focusOnOpen.current) panel.current?.focus();
    focusOnOpen.current = false;
  }, [open]);

  useLayoutEffect(() => {
    const floating = panel.current;
    if (!open || !anchor || !floating) return;
    const update = () =>
      computePosition(anchor, floating, { strategy: 'fixed', placement: 'bottom-start', middleware: [offset(8), flip(), shift({ padding: 8 })] }).then(({ x, y }) => {
        floating.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      });
    return autoUpdate(anchor, floating, update);
  }, [open, anchor]);

  // Closed from inside the panel, focus goes back to what opened it rather than to the page's top.
  const closeNow = () => {
    const el = panel.current;
    const focused = el && (el.getRootNode() as ShadowRoot | Document).activeElement;
    if (focused && el.contains(focused)) ((anchor as HTMLElement | null) ?? badge.current)?.focus?.();
    handlers.onToggle(false);
  };
  // guides §2: closing an onboarding tutorial under way asks first.
  const close = () => (needsStopTutorialConfirm(launcher) ? setConfirming(true) : closeNow());
  const toggle = () => {
    if (open) return close();
    focusOnOpen.current = true;
    handlers.onToggle(true);
  };

  // launchType element: a click on the element opens the panel, or closes it as the badge would.
  useEffect(() => {
    if (!anchor) return;
    anchor.addEventListener('click', toggle);
    return () => anchor.removeEventListener('click', toggle);
  });
  const [vertical, horizontal] = mirroredCorner(launcher.position, rtl).split('-') as [string, string];
  const { width, height } = launcherPanelSize(launcher);
  const list = filterLauncherGuides(launcher.guides, search);
  const unseen = launcher.whatsnewUnseen;
  const percent = launcher.onboarding?.percent;
  // The app's theme, as its steps wear it (docs/guide-theme.md).
  const theme = themeVars(launcher.theme) as CSSProperties;

  return (
    <>
      {launcher.launchType === 'badge' && (
        <button
          ref={badge}
          type="button"
          className="wm-badge wm-launcher-badge"
          aria-label={unseen ? `Guides, ${unseen} unseen` : 'Guides'}
          aria-expanded={open}
          style={{ top: 'auto', left: 'auto', [vertical]: EDGE, [horizontal]: EDGE, width: BADGE, height: BADGE, ...theme }}
          onClick={toggle}
        >
          {launcher.badgeImageUrl && !imageFailed ? (
            <img
              src={launcher.badgeImageUrl}
              alt=""
              onError={() => {
                setImageFailed(true);
                handlers.onBadgeImageError();
              }}
            />
          ) : (
            '?'
          )}
          {unseen ? (
            <span className="wm-bubble" aria-label={`${unseen} unseen`}>
              {unseen}
            </span>
          ) : null}
        </button>
      )}
      {open && (
        <div
          ref={panel}
          className="wm-step wm-launcher"
          role="dialog"
          aria-label="Guides"
          tabIndex={-1}
          dir={rtl ? 'rtl' : undefined}
          onKeyDown={(event) => event.key === 'Escape' && close()}
          style={{ width, height, ...(anchor ? { top: 0, left: 0 } : { [vertical]: EDGE + BADGE + 12, [horizontal]: EDGE }), ...theme }}
        >
          <div className="wm-launcher-head">
            <h2>Guides</h2>
            {unseen !== undefined && <span>{`What's new: ${unseen} unseen`}</span>}
          </div>
          <button type="button" className="wm-close" aria-label="close" onClick={close}>
            {'\u00d7'}
          </button>
          {percent !== undefined && (
            <div className="wm-progress">
              {`Onboarding ${percent}% complete`}
              <div role="progressbar" aria-label="Onboarding progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
                <span style={{ width: `${percent}%` }} />
              </div>
            </div>
          )}
          {launcher.enableSearch && (
            <input
              type="search"
              className="wm-search"
              placeholder={LAUNCHER_SEARCH_PLACEHOLDER}
              aria-label="Search guides"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
          )}
          <div className="wm-launcher-body">
          {launcher.content && <div className="wm-launcher-custom">{renderBlocks(launcher.content, { onAction: actionsElsewhere(handlers.onOpenGuide) })}</div>}
          <ul className="wm-list">
            {list.map((g) => (
              <GuideItem key={g.guideId} guideId={g.guideId} name={g.name} complete={g.complete} onOpen={handlers.onOpenGuide} />
            ))}
            {!list.length && <li style={{ padding: 8 }}>No guides found</li>}
          </ul>
          {launcher.whatsnew?.length ? <WhatsNewFeed items={launcher.whatsnew} onSeen={handlers.onWhatsNewSeen} onOpenGuide={handlers.onOpenGuide} /> : null}
          </div>
          {!launcher.hideCredits && <div className="wm-footer">Powered by Waymark</div>}
          {confirming && (
            <div className="wm-confirm" role="alertdialog" aria-label={LAUNCHER_STOP_TUTORIAL}>
              <p>{LAUNCHER_STOP_TUTORIAL}</p>
              <button type="button" onClick={closeNow}>
                Yes, stop
              </button>
              <button type="button" className="wm-secondary" onClick={() => setConfirming(false)}>
                No, continue
              </button>
            </div>
          )}
        </div>
      )}
    </>
  );
}

/**
 * guides §2 What's-new feed: the items in the panel's scrolling body. An item becomes active once its top third
 * is scrolled into view (the resource center's rule, isAnnouncementInView) and is seen after it has stayed
 * active for the seen delay (guides §9, 1000 ms); scrolled away before that, it starts again.
 */
function WhatsNewFeed({ items, onSeen, onOpenGuide }: { items: WhatsNewEntry[]; onSeen(guideId: string, stepId: string): void; onOpenGuide(guideId: string): void }): ReactNode {
  const feed = useRef<HTMLElement>(null);
  const activeSince = useRef(new Map<string, number>());
  const reported = useRef(new Set<string>());
  useEffect(() => {
    const timer = setInterval(() => {
      const body = feed.current?.closest('.wm-launcher-body');
      if (!body) return;
      const view = body.getBoundingClientRect();
      const now = Date.now();
      for (const el of Array.from(feed.current!.querySelectorAll<HTMLElement>('[data-unseen]'))) {
        const key = `${el.dataset.guideId}/${el.dataset.stepId}`;
        if (reported.current.has(key)) continue;
        if (!isAnnouncementInView(el.getBoundingClientRect(), view)) {
          activeSince.current.delete(key);
          continue;
        }
        if (!activeSince.current.has(key)) activeSince.current.set(key, now);
        if (!isWhatsNewSeenDue(activeSince.current.get(key) ?? null, now)) continue;
        reported.current.add(key);
        onSeen(el.dataset.guideId!, el.dataset.stepId!);
      }
    }, WHATSNEW_CHECK_MS);
    return () => clearInterval(timer);
  }, [items, onSeen]);
  return (
    <section ref={feed} className="wm-whatsnew" aria-label="What's new">
      <h3>What's new</h3>
      {items.map((item) => (
        <article
          key={`${item.guideId}/${item.stepId}`}
          className="wm-whatsnew-item"
          data-guide-id={item.guideId}
          data-step-id={item.stepId}
          data-unseen={item.seen ? undefined : ''}
          aria-label={item.seen ? `${item.name} (seen)` : item.name}
        >
          {renderBlocks(item.content, { onAction: actionsElsewhere(onOpenGuide) })}
        </article>
      ))}
    </section>
  );
}

/** How often the feed looks at what is in view (ours): "seen" lands within 200 ms after the seen delay. */
const WHATSNEW_CHECK_MS = 200;
