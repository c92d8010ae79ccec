/**
 * A guide's badge (guides §2 Badges): a small button placed on its target element, top-left, top-right,
 * over it, or beside it (inline, inline-left, inline-right), following it on scroll and resize
 * (floating-ui's autoUpdate). With showOnHover it appears only while the pointer is over the target.
 * Its face is building blocks (attributes.badge.content), an image, or a "?" mark; the blocks' own actions do
 * nothing here: a click anywhere on the badge opens the guide.
 */
import { autoUpdate, computePosition, offset, type Placement } from '@floating-ui/dom';
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import type { BadgePosition, BadgeToShow } from '../shared/protocol';
import { themeVars } from '../shared/surfaces/guideTheme';
import { renderBlocks } from './renderBlocks';

export interface BadgeProps {
  badge: BadgeToShow;
  target: Element;
  onOpen(guideId: string): void;
}

/** Badge size in px (guides §9: default badge size 13 px is the resource center's; ours is a 22 px mark). */
const SIZE = 22;

/** Where floating-ui puts the badge for each position, and how far it moves it back onto the target. */
const PLACEMENT: Record<BadgePosition, { placement: Placement; mainAxis: number; crossAxis: number }> = {
  'top-right': { placement: 'top-end', mainAxis: -SIZE / 2, crossAxis: SIZE / 2 },
  'top-left': { placement: 'top-start', mainAxis: -SIZE / 2, crossAxis: -SIZE / 2 },
  over: { placement: 'top', mainAxis: -SIZE, crossAxis: 0 },
  inline: { placement: 'right', mainAxis: 6, crossAxis: 0 },
  'inline-right': { placement: 'right', mainAxis: 6, crossAxis: 0 },
  'inline-left': { placement: 'left', mainAxis: 6, crossAxis: 0 },
};

export function Badge({ badge, target, onOpen }: BadgeProps): ReactNode {
  const el = useRef<HTMLButtonElement>(null);
  const [hovered, setHovered] = useState(false);

  useEffect(() => {
    if (!badge.showOnHover) return;
    const enter = () => setHovered(true);
    const leave = (event: Event) => {
      // Moving from the target onto the badge (inside our overlay's host element) keeps it.
      const to = (event as MouseEvent).relatedTarget as Element | null;
      if (to?.hasAttribute?.('data-waymark-overlay')) return;
      setHovered(false);
    };
    target.addEventListener('mouseenter', enter);
    target.addEventListener('mouseleave', leave);
    return () => {
      target.removeEventListener('mouseenter', enter);
      target.removeEventListener('mouseleave', leave);
    };
  }, [target, badge.showOnHover]);

  useLayoutEffect(() => {
    const floating = el.current;
    if (!floating) return;
    const { placement, mainAxis, crossAxis } = PLACEMENT[badge.position];
    const update = () =>
      computePosition(target, floating, { strategy: 'fixed', placement, middleware: [offset({ mainAxis, crossAxis })] }).then(({ x, y }) => {
        floating.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
      });
    return autoUpdate(target, floating, update);
  }, [target, badge.position]);

  const visible = !badge.showOnHover || hovered;
  return (
    <button
      ref={el}
      type="button"
      aria-label={`Open guide: ${badge.label}`}
      data-guide-id={badge.guideId}
      className={badge.content ? 'wm-badge wm-badge-blocks' : 'wm-badge'}
      // Building blocks size the badge themselves; the mark and the image are 22 px.
      style={{ ...(badge.content ? {} : { width: SIZE, height: SIZE }), visibility: visible ? 'visible' : 'hidden', ...(themeVars(badge.theme) as CSSProperties) }}
      onMouseEnter={() => badge.showOnHover && setHovered(true)}
      onMouseLeave={() => badge.showOnHover && setHovered(false)}
      onClick={() => onOpen(badge.guideId)}
    >
      {badge.content ? renderBlocks(badge.content, { onAction: () => undefined }) : badge.imageUrl ? <img src={badge.imageUrl} alt="" width={SIZE} height={SIZE} /> : '?'}
    </button>
  );
}
