/** Fixtures of the schedule and eligibility rule tests (guides §4, §5): a fixed instant and small guides. */
import type { Guide, GuideStep } from '../../shared/guides/guides';

/** 2026-11-22 15:30:00.000 UTC, the instant most tests count from. */
export const T = Date.UTC(2026, 10, 22, 15, 30);
export const MINUTE = 60_000;
export const HOUR = 3_600_000;

export const step = (id: string, extra: Partial<GuideStep> = {}): GuideStep => ({ id, guideId: 'g', type: 'lightbox', ...extra });
export const guide = (extra: Partial<Guide> = {}): Guide => ({ id: 'g', launchMethod: 'auto', steps: [step('s1')], ...extra });
export const threeSteps = (extra: Partial<GuideStep>[] = []): GuideStep[] => ['s1', 's2', 's3'].map((id, i) => step(id, extra[i]));
