/**
 * guides §4 Automation, run by the building-block action `automation`: find the target (10 tries, 250 ms
 * apart), skip it when missing or disabled; autofill sets the value as typing would (input and change events,
 * through the prototype's setter so frameworks that track the value see it), autoclick clicks after 500 ms.
 */
import { AUTOMATION_CLICK_DELAY_MS, AUTOMATION_RETRIES, AUTOMATION_RETRY_MS } from '../../shared/constants';
import type { Automation } from '../../shared/guides/guides';
import type { LogLevel, StepToShow } from '../../shared/protocol';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runAutomation(
  step: StepToShow,
  automation: Automation,
  query: (selector: string) => Element | null,
  log: (level: LogLevel, message: string) => void,
): Promise<void> {
  const rules = Array.isArray(automation.target?.elementPathRules) ? automation.target.elementPathRules : [];
  let el: HTMLElement | null = null;
  for (let attempt = 0; attempt < AUTOMATION_RETRIES && !el; attempt++) {
    el = (rules.map(query).find((x) => x) ?? null) as HTMLElement | null;
    if (!el) await wait(AUTOMATION_RETRY_MS);
  }
  const name = `guide ${step.guideId} automation ${automation.id}`;
  if (!el) return log('info', `${name} skipped: target not found`);
  if ((el as HTMLInputElement).disabled) return log('info', `${name} skipped: target is disabled`);
  if (automation.type === 'autofill') {
    const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, String(automation.value ?? ''));
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (automation.type === 'autoclick') {
    await wait(AUTOMATION_CLICK_DELAY_MS);
    el.click();
  }
}
