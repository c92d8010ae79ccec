/**
 * The resource center (guides §2): a badge in a corner of the window (mirrored for right-to-left languages)
 * with an unseen-count bubble opens a panel whose home view lists the modules under the top-level guide's own
 * content (its introduction); a single module replaces the home view. Modules: guide list, onboarding (task
 * list with progress), announcements (marked seen when scrolled into view), iframe, sandbox and custom
 * (building blocks, rendered as every step is: no innerHTML, no eval) and integrations (the provider's own
 * widget). The shim owns whether it is open and which module is
 * active; this component owns the search box and the slide between views. Opened by its element (launch method
 * dom) the panel is anchored to that element, below it or above where there is no room, and follows it as the
 * page scrolls (floating-ui's autoUpdate); launched by api without a badge, it opens in the badge's corner.
 */
import { autoUpdate, computePosition, flip, offset, shift } from '@floating-ui/dom';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { ANNOUNCEMENT_SEEN_CHECK_MS, SEARCH_ANNOUNCE_DEBOUNCE_MS } from '../shared/constants';
import type { GuideAction } from '../shared/guides/guides';
import type { ResourceCenterItem, ResourceCenterModule, ResourceCenterToShow } from '../shared/protocol';
import { isAnnouncementInView, mirroredCorner, resultsLabel, searchResourceCenter } from '../shared/surfaces/resourceCenterPanel';
import { themeVars } from '../shared/surfaces/guideTheme';
import { bubbleVars } from '../shared/surfaces/notificationBubble';
import type { ResourceCenterHandlers, ResourceCenterState } from './api';
import { actionsElsewhere } from './actionsElsewhere';
import { hasIntegration, openIntegration } from './openIntegration';
import { GuideItem } from './GuideItem';
import { renderBlocks } from './renderBlocks';

export interface ResourceCenterProps {
  resourceCenter: ResourceCenterToShow;
  state: ResourceCenterState;
  rtl: boolean;
  handlers: ResourceCenterHandlers;
}

/** Badge size and its distance from the window's edges, px; the panel opens 12 px beyond the badge. */
const BADGE = 48;
const EDGE = 20;

const LISTS = new Set(['guideList', 'onboarding', 'announcements']);

export function ResourceCenter({ resourceCenter, state, rtl, handlers }: ResourceCenterProps): ReactNode {
  const [search, setSearch] = useState('');
  const [announced, setAnnounced] = useState('');
  const panel = useRef<HTMLDivElement>(null);
  const win = window;
  // guides §2 integrations only when the page has the provider's API.
  const modules = resourceCenter.modules.filter((m) => m.kind !== 'integration' || hasIntegration(window, m.integration!.provider));
  // guides §2 "A single module replaces the home view".
  const single = modules.length === 1 ? modules[0]! : null;
  const active = single ?? modules.find((m) => m.guideId === state.activeModule) ?? null;
  const [vertical, horizontal] = mirroredCorner(resourceCenter.position, rtl).split('-') as [string, string];

  // guides §2 "anchored to an element": beside the element that opened it, kept in the window.
  const anchor = state.open && !state.nativeOpen && state.anchor?.isConnected ? state.anchor : null;
  useLayoutEffect(() => {
    const floating = panel.current;
    if (!anchor || !floating) return;
    const update = () =>
      computePosition(anchor, floating, { strategy: 'fixed', placement: rtl ? 'bottom-end' : 'bottom-start', middleware: [offset(8), flip(), shift({ padding: 8, crossAxis: true })] }).then(({ x, y }) => {
        floating.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      });
    return autoUpdate(anchor, floating, update);
  }, [anchor, rtl]);

  // A new view starts with an empty search.
  useEffect(() => setSearch(''), [active?.guideId, state.open]);
  // The panel takes focus when it opens and when its view changes (the clicked control is gone), so Escape
  // inside it closes it. In the commit that drew the view, not an effect after its paint: the view is drawn when the
  // page's state comes back from the click (not in the click's own event), so a key pressed in between went to the
  // page's body, and Escape right after choosing a module did nothing (a CI run caught it).
  useLayoutEffect(() => {
    const el = panel.current;
    const focused = el && (el.getRootNode() as ShadowRoot | Document).activeElement;
    if (state.open && el && !(focused && el.contains(focused))) el.focus();
  }, [state.open, active?.guideId]);

  const home = !active;
  const searchable = home || LISTS.has(active.kind);
  const pool: ResourceCenterItem[] = home ? modules.filter((m) => LISTS.has(m.kind)).flatMap((m) => m.items) : active.items;
  const found = search.trim() ? searchResourceCenter(pool, search) : null;

  // guides §2, §9: the results count is announced 300 ms after the last keystroke, in a live region.
  useEffect(() => {
    if (!found) {
      setAnnounced('');
      return;
    }
    const timer = setTimeout(() => setAnnounced(resultsLabel(found.length)), SEARCH_ANNOUNCE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, found?.length]);

  const close = () => handlers.onToggle(false);
  const openModule = (m: ResourceCenterModule) => {
    if (m.kind !== 'integration') return handlers.onOpenModule(m.guideId);
    try {
      openIntegration(win, m.integration!.provider, m.integration!.name, () => handlers.onIntegration('closed'));
      handlers.onIntegration('opened');
    } catch (error) {
      // guides §8: a chat or help provider API failure closes the resource center.
      handlers.onIntegration('failed', error);
    }
  };
  const onAction = actionsElsewhere(handlers.onOpenGuide);
  const count = resourceCenter.unseenCount;
  const theme = themeVars(resourceCenter.theme) as CSSProperties;

  return (
    <>
      {resourceCenter.badge && !state.nativeOpen && (
        <button
          type="button"
          className="wm-badge wm-launcher-badge wm-rc-badge"
          aria-label={count ? `${resourceCenter.title}, ${count} unseen` : resourceCenter.title}
          aria-expanded={state.open}
          style={{ top: 'auto', left: 'auto', [vertical]: EDGE, [horizontal]: EDGE, width: BADGE, height: BADGE, ...theme }}
          onClick={() => handlers.onToggle(!state.open)}
        >
          ?
          {count ? (
            <span className={`wm-bubble wm-rc-bubble${horizontal === 'left' ? ' wm-rc-bubble-left' : ''}`} aria-label={`${count} unseen`} style={bubbleVars(resourceCenter.bubble) as CSSProperties}>
              {count}
            </span>
          ) : null}
        </button>
      )}
      {state.open && !state.nativeOpen && (
        <div
          ref={panel}
          className="wm-step wm-launcher wm-rc"
          role="dialog"
          aria-label={resourceCenter.title}
          tabIndex={-1}
          dir={rtl ? 'rtl' : undefined}
          data-active-module={active?.guideId ?? ''}
          onKeyDown={(event) => event.key === 'Escape' && close()}
          data-anchored={anchor ? '' : undefined}
          // Anchored, floating-ui places it from the top left; else without a badge (launched by api) the panel
          // takes the badge's corner.
          style={anchor ? { top: 0, left: 0, right: 'auto', bottom: 'auto', ...theme } : { [vertical]: resourceCenter.badge ? EDGE + BADGE + 12 : EDGE, [horizontal]: EDGE, ...theme }}
        >
          <div className="wm-launcher-head wm-rc-head">
            {active && !single && (
              <button type="button" className="wm-rc-back" aria-label="Back" onClick={() => handlers.onOpenModule(null)}>
                {rtl ? '\u2192' : '\u2190'}
              </button>
            )}
            <h2>{active ? active.title : resourceCenter.title}</h2>
          </div>
          <button type="button" className="wm-close" aria-label="close" onClick={close}>
            {'\u00d7'}
          </button>
          {searchable && (
            <>
              <input type="search" className="wm-search" placeholder="Search" aria-label="Search" value={search} onChange={(event) => setSearch(event.target.value)} />
              <div className="wm-rc-count" role="status" aria-live="polite">
                {announced}
              </div>
            </>
          )}
          <div key={active?.guideId ?? 'home'} className={`wm-rc-view ${home ? 'wm-rc-home' : 'wm-rc-module'}`}>
            {found ? (
              <Items items={found} announcements={active?.kind === 'announcements'} handlers={handlers} onAction={onAction} />
            ) : home ? (
              modules.length ? (
                <>
                  {resourceCenter.intro && <div className="wm-rc-body wm-rc-intro">{renderBlocks(resourceCenter.intro, { onAction })}</div>}
                  <ul className="wm-list">
                    {modules.map((m) => (
                      <li key={m.guideId}>
                        <button type="button" className="wm-item" data-module-id={m.guideId} onClick={() => openModule(m)}>
                          {m.title}
                          {m.unseen ? <span className="wm-rc-dot">{` ${m.unseen} new`}</span> : null}
                        </button>
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                <p className="wm-rc-empty">Nothing here yet.</p>
              )
            ) : (
              <ModuleBody module={active} handlers={handlers} onAction={onAction} onOpen={openModule} />
            )}
          </div>
        </div>
      )}
    </>
  );
}

function ModuleBody({ module, handlers, onAction, onOpen }: { module: ResourceCenterModule; handlers: ResourceCenterHandlers; onAction(a: GuideAction[]): void; onOpen(m: ResourceCenterModule): void }): ReactNode {
  switch (module.kind) {
    case 'onboarding':
      return (
        <>
          <div className="wm-progress">
            {`${module.percent ?? 0}% complete`}
            <div role="progressbar" aria-label="Onboarding progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={module.percent ?? 0}>
              <span style={{ width: `${module.percent ?? 0}%` }} />
            </div>
          </div>
          <Items items={module.items} handlers={handlers} />
        </>
      );
    case 'announcements':
      return <Items items={module.items} announcements handlers={handlers} onAction={onAction} />;
    case 'iframe':
      return <iframe className="wm-rc-frame" src={module.iframeSrc} title={module.title} sandbox="allow-scripts allow-forms allow-popups" />;
    case 'integration':
      return (
        <div className="wm-rc-body">
          <button type="button" onClick={() => onOpen(module)}>{`Open ${module.integration!.name}`}</button>
        </div>
      );
    case 'sandbox':
    case 'custom':
      return <div className="wm-rc-body">{module.content ? renderBlocks(module.content, { onAction }) : null}</div>;
    default:
      return <Items items={module.items} handlers={handlers} />;
  }
}

/**
 * A list of items: guides to open, or announcements rendered in place. While announcements are on screen,
 * every 500 ms (guides §9) each unseen one whose top third is in view is reported seen, once.
 */
function Items({ items, announcements, handlers, onAction }: { items: ResourceCenterItem[]; announcements?: boolean; handlers: ResourceCenterHandlers; onAction?(a: GuideAction[]): void }): ReactNode {
  const list = useRef<HTMLUListElement>(null);
  const reported = useRef(new Set<string>());
  useEffect(() => {
    if (!announcements) return;
    const timer = setInterval(() => {
      // The scrolling view around the list is what the visitor sees of it.
      const box = (list.current?.closest('.wm-rc-view') ?? list.current)?.getBoundingClientRect();
      if (!box) return;
      for (const el of Array.from(list.current!.querySelectorAll<HTMLElement>('[data-unseen]'))) {
        const key = `${el.dataset.guideId}/${el.dataset.stepId}`;
        if (reported.current.has(key) || !isAnnouncementInView(el.getBoundingClientRect(), box)) continue;
        reported.current.add(key);
        handlers.onAnnouncementSeen(el.dataset.guideId!, el.dataset.stepId!);
      }
    }, ANNOUNCEMENT_SEEN_CHECK_MS);
    return () => clearInterval(timer);
  }, [announcements, items]);
  if (!items.length) return <p className="wm-rc-empty">No results</p>;
  return (
    <ul ref={list} className="wm-list">
      {items.map((item) =>
        announcements && item.content ? (
          <li key={item.guideId} className="wm-rc-news" data-guide-id={item.guideId} data-step-id={item.stepId} data-unseen={item.seenSteps ? undefined : ''}>
            {/* In place, an announcement's blocks may open a link or a guide; its step is already seen. */}
            {renderBlocks(item.content, { onAction: (a) => onAction?.(a) })}
          </li>
        ) : (
          <GuideItem key={item.guideId} guideId={item.guideId} name={item.name} complete={item.complete} onOpen={handlers.onOpenGuide} />
        ),
      )}
    </ul>
  );
}
