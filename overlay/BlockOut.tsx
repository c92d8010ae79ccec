/**
 * Block-out regions (guides §2 blockOutUI): four panes dim the page around the highlighted elements (the
 * step's target and its additionalElements, their union, plus padding). There is no pane over the hole, so
 * the highlighted element keeps its clicks; the panes take the clicks meant for the rest of the page.
 * They follow scroll, resize and layout changes of every highlighted element, as the tooltip does
 * (floating-ui's autoUpdate).
 */
import { autoUpdate } from '@floating-ui/dom';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { blockOutPanes, padRect, unionRect, type BlockOutOptions } from '../shared/surfaces/blockOutPanes';

export interface BlockOutProps {
  options: BlockOutOptions;
  /** The target first, then the additional elements found on the page. */
  elements: Element[];
  /** A failure while drawing: the panes are removed and the step stays ('Failed to add BlockOut ui'). */
  onError(error: unknown): void;
}

const SIDES = ['top', 'bottom', 'left', 'right'] as const;

/** The four panes of a step's block-out, placed around `elements` and kept there while the step shows. */
export function BlockOut({ options, elements, onError }: BlockOutProps): ReactNode {
  const panes = useRef<Array<HTMLDivElement | null>>([]);
  const [failed, setFailed] = useState(false);

  useLayoutEffect(() => {
    const first = panes.current[0];
    if (failed || !first) return;
    const doc = first.ownerDocument;
    const update = () => {
      try {
        const union = unionRect(elements.map((el) => el.getBoundingClientRect()));
        // Nothing of the highlighted elements is laid out: the whole page is dimmed.
        const hole = union ? padRect(union, options.padding) : { left: 0, top: 0, right: 0, bottom: 0 };
        // The layout viewport without scrollbars: the panes never cover the page's own scrollbar.
        const viewport = { width: doc.documentElement.clientWidth, height: doc.documentElement.clientHeight };
        blockOutPanes(hole, viewport).forEach((pane, i) => {
          const el = panes.current[i];
          if (!el) return;
          el.style.transform = `translate(${pane.left}px, ${pane.top}px)`;
          el.style.width = `${pane.width}px`;
          el.style.height = `${pane.height}px`;
        });
      } catch (error) {
        setFailed(true);
        onError(error);
      }
    };
    const stops = elements.map((el) => autoUpdate(el, first, update));
    return () => stops.forEach((stop) => stop());
  }, [elements, options.padding, failed, onError]);

  if (failed) return null;
  return (
    <>
      {SIDES.map((side, i) => (
        <div
          key={side}
          ref={(el) => {
            panes.current[i] = el;
          }}
          className="wm-blockout"
          data-side={side}
          aria-hidden="true"
          style={{ background: options.bgColor, opacity: options.opacity, zIndex: options.zIndex }}
        />
      ))}
    </>
  );
}
