/**
 * A badge-launched guide's badge (guides §2 Badges): attributes.badge {position, imageUrl, content,
 * showOnHover, isOnlyShowOnce, elementPathRule}. Problems are logged and the badge falls back or is left off.
 */
import type { DomNode, Guide } from '../../shared/guides/guides';
import { checkBuildingBlocks } from '../../shared/guides/checkBuildingBlocks';
import type { BadgePosition, BadgeToShow, LogLevel } from '../../shared/protocol';
import type { AssetCheck } from './checkAssetUrl';

const BADGE_POSITIONS: BadgePosition[] = ['top-left', 'top-right', 'inline', 'inline-left', 'inline-right', 'over'];

/** The guide's badge, or none (isOnlyShowOnce and seen, or no element to put it on). */
export function badgeOf(guide: Guide, checkAsset: AssetCheck, log: (level: LogLevel, message: string) => void): BadgeToShow[] {
  const badge = (guide.attributes?.badge ?? {}) as { position?: unknown; imageUrl?: unknown; content?: unknown; showOnHover?: unknown; isOnlyShowOnce?: unknown; elementPathRule?: unknown };
  if (badge.isOnlyShowOnce === true && guide.steps.some((s) => s.seenState && s.seenState !== 'none')) return [];
  const selector = typeof badge.elementPathRule === 'string' && badge.elementPathRule ? badge.elementPathRule : guide.steps[0]?.elementPathRule;
  if (!selector) {
    log('warn', `guide ${guide.id}: a badge needs attributes.badge.elementPathRule or a first step with an elementPathRule`);
    return [];
  }
  const position = BADGE_POSITIONS.includes(badge.position as BadgePosition) ? (badge.position as BadgePosition) : 'top-right';
  let imageUrl: string | undefined;
  if (typeof badge.imageUrl === 'string' && badge.imageUrl) {
    const checked = checkAsset(badge.imageUrl);
    if (checked.ok) imageUrl = checked.href;
    else log('warn', `guide ${guide.id} badge image: ${checked.message}`);
  }
  // guides §2 a building-block badge: attributes.badge.content (ours), checked like any step's blocks; a tree
  // that fails the check falls back to the image or the mark, logged.
  let content: DomNode | undefined;
  if (badge.content !== undefined) {
    const checked = checkBuildingBlocks(badge.content, guide.id, 'badge');
    if (checked.ok) content = checked.content;
    else log('warn', `guide ${guide.id} badge content: ${checked.message}`);
  }
  return [{ guideId: guide.id, label: guide.name ?? guide.id, selector, position, showOnHover: badge.showOnHover === true, theme: guide.steps[0]?.attributes?.theme, ...(imageUrl ? { imageUrl } : {}), ...(content ? { content } : {}) }];
}
