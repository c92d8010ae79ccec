import { describe, expect, it } from 'vitest';
import { blockOutPanes, padRect, readBlockOut, unionRect, type Pane, type Rect } from '../../shared/surfaces/blockOutPanes';
import { BLOCK_OUT_DEFAULTS } from '../../shared/constants';
import { isRtlLanguage } from '../../shared/surfaces/isRtlLanguage';
import { stepLabel } from '../../shared/guides/stepLabel';

const rect = (left: number, top: number, width: number, height: number): Rect => ({ left, top, right: left + width, bottom: top + height });
const area = (panes: Pane[]) => panes.reduce((sum, p) => sum + p.width * p.height, 0);

describe('guides §2 block-out regions: reading blockOutUI', () => {
  it('is off unless enabled is exactly true', () => {
    expect(readBlockOut({})).toBeNull();
    expect(readBlockOut(undefined)).toBeNull();
    expect(readBlockOut({ blockOutUI: { enabled: false, padding: 4 } })).toBeNull();
    expect(readBlockOut({ blockOutUI: { enabled: 'true' } })).toBeNull();
    expect(readBlockOut({ blockOutUI: 'yes' })).toBeNull();
  });

  it('fills the defaults, z-index 10000 from the spec', () => {
    expect(readBlockOut({ blockOutUI: { enabled: true } })).toEqual({
      padding: 0,
      zIndex: 10_000,
      bgColor: BLOCK_OUT_DEFAULTS.bgColor,
      opacity: BLOCK_OUT_DEFAULTS.opacity,
      additionalElements: [],
    });
  });

  it('reads each field, numbers also as numeric strings, and drops values of the wrong kind', () => {
    expect(
      readBlockOut({ blockOutUI: { enabled: true, padding: '12', zindex: 20_000, bgColor: ' red ', opacity: 0.7, additionalElements: ['#a', 3, '', '.b'] } }),
    ).toEqual({ padding: 12, zIndex: 20_000, bgColor: 'red', opacity: 0.7, additionalElements: ['#a', '.b'] });
    expect(readBlockOut({ blockOutUI: { enabled: true, padding: -3, opacity: 2, bgColor: '', zindex: 'high' } })).toMatchObject({
      padding: 0,
      opacity: BLOCK_OUT_DEFAULTS.opacity,
      bgColor: BLOCK_OUT_DEFAULTS.bgColor,
      zIndex: 10_000,
    });
    expect(readBlockOut({ blockOutUI: { enabled: true, additionalElements: '#one, #two' } })!.additionalElements).toEqual(['#one, #two']);
  });
});

describe('guides §2 block-out regions: geometry', () => {
  it('unions the target with the additional elements, skipping ones that measure 0 x 0', () => {
    expect(unionRect([rect(100, 50, 40, 20), rect(300, 10, 10, 10), rect(0, 0, 0, 0)])).toEqual({ left: 100, top: 10, right: 310, bottom: 70 });
    expect(unionRect([rect(0, 0, 0, 0)])).toBeNull();
    expect(unionRect([])).toBeNull();
  });

  it('pads on every side', () => {
    expect(padRect(rect(100, 50, 40, 20), 8)).toEqual({ left: 92, top: 42, right: 148, bottom: 78 });
  });

  it('surrounds the hole with four panes that tile the rest of the viewport', () => {
    const viewport = { width: 1000, height: 800 };
    const hole = padRect(rect(100, 50, 40, 20), 8);
    const [top, bottom, left, right] = blockOutPanes(hole, viewport);
    expect(top).toEqual({ left: 0, top: 0, width: 1000, height: 42 });
    expect(bottom).toEqual({ left: 0, top: 78, width: 1000, height: 722 });
    expect(left).toEqual({ left: 0, top: 42, width: 92, height: 36 });
    expect(right).toEqual({ left: 148, top: 42, width: 852, height: 36 });
    // Everything but the hole is covered, once.
    expect(area([top, bottom, left, right])).toBe(1000 * 800 - 56 * 36);
  });

  it('rounds the hole outwards to whole pixels, so no pane edge is antialiased and the element stays clear', () => {
    const panes = blockOutPanes({ left: 737.45, top: 93.2, right: 890.58, bottom: 146.9 }, { width: 1280, height: 800 });
    expect(panes).toEqual([
      { left: 0, top: 0, width: 1280, height: 93 },
      { left: 0, top: 147, width: 1280, height: 653 },
      { left: 0, top: 93, width: 737, height: 54 },
      { left: 891, top: 93, width: 389, height: 54 },
    ]);
  });

  it('clips a hole that leaves the viewport, so no pane has a negative size', () => {
    const viewport = { width: 400, height: 300 };
    const partly = blockOutPanes({ left: -20, top: 280, right: 50, bottom: 340 }, viewport);
    expect(partly.every((p) => p.width >= 0 && p.height >= 0)).toBe(true);
    expect(partly[0]).toEqual({ left: 0, top: 0, width: 400, height: 280 });
    expect(partly[3]).toEqual({ left: 50, top: 280, width: 350, height: 20 });
    expect(area(partly)).toBe(400 * 300 - 50 * 20);
    // Scrolled wholly out of view: the whole viewport is dimmed.
    expect(area(blockOutPanes({ left: 10, top: -200, right: 60, bottom: -100 }, viewport))).toBe(400 * 300);
  });
});

describe('guides §2 right-to-left languages', () => {
  it('he and ar in any spelling, nothing else', () => {
    for (const tag of ['he', 'he-IL', 'AR', 'ar_EG', ' ar ']) expect(isRtlLanguage(tag), tag).toBe(true);
    for (const tag of ['en', 'en-US', 'fr', 'heb', 'fa', '', null, undefined]) expect(isRtlLanguage(tag), String(tag)).toBe(false);
  });
});

describe('guides §2 step dialogs: accessible name', () => {
  it('is the text of the first heading, depth first, whitespace collapsed', () => {
    const content = {
      type: 'div',
      children: [
        { type: 'p', content: 'Intro' },
        { type: 'div', children: [{ type: 'h2', content: ' Hello ', children: [{ type: 'strong', content: 'there\n' }] }] },
        { type: 'h1', content: 'Later' },
      ],
    };
    expect(stepLabel(content)).toBe('Hello there');
  });

  it('is null without a heading with text', () => {
    expect(stepLabel({ type: 'div', children: [{ type: 'h3', content: '  ' }, { type: 'p', content: 'text' }] })).toBeNull();
  });
});
