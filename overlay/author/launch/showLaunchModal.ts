/**
 * The designer's launch modal (guides §2 Designer): titled Designer, 370 by 235 px, 150 px from the top, z-index
 * 300000, the spec's body text, buttons Close and Launch Designer. Its state is polled every 50 ms: a token that
 * arrives meanwhile (an opener's set-token) closes it and launches the designer, as Launch Designer does.
 * Drawn in a shadow root of its own, so the host's styles and ours stay apart.
 */
import { DESIGNER_MODAL } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';

export interface LaunchModal {
  close(): void;
}

/**
 * Shows the modal. `poll` runs every 50 ms: when it answers true the modal closes (a token arrived and the
 * caller launched). `onLaunch` is the Launch Designer button.
 */
export function showLaunchModal(options: { onLaunch(): void; poll(): boolean; onClose?(): void }): LaunchModal {
  const host = document.createElement('div');
  host.setAttribute('data-waymark-designer-modal', '');
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML = `<style>
  .backdrop { position: fixed; inset: 0; background: rgba(15, 23, 42, .35); z-index: ${DESIGNER_MODAL.zIndex}; }
  .modal { position: fixed; top: ${DESIGNER_MODAL.top}px; left: 50%; transform: translateX(-50%);
    width: ${DESIGNER_MODAL.width}px; height: ${DESIGNER_MODAL.height}px; box-sizing: border-box; z-index: ${DESIGNER_MODAL.zIndex};
    display: flex; flex-direction: column; padding: 20px 24px; border-radius: 10px; background: #fff; color: #0f172a;
    font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; box-shadow: 0 12px 40px rgba(15, 23, 42, .3); }
  h2 { margin: 0 0 10px; font-size: 18px; }
  p { margin: 0; flex: 1; color: #334155; }
  .buttons { display: flex; justify-content: flex-end; gap: 8px; }
  button { font: inherit; padding: 8px 14px; border-radius: 6px; border: 1px solid #cbd5e1; background: #fff; color: #0f172a; cursor: pointer; }
  button.primary { background: #4f46e5; border-color: #4f46e5; color: #fff; }
  button:focus-visible { outline: 2px solid #4f46e5; outline-offset: 2px; }
</style>
<div class="backdrop"></div>
<div class="modal" role="dialog" aria-modal="true" aria-labelledby="title">
  <h2 id="title">Designer</h2>
  <p></p>
  <div class="buttons"><button type="button" class="close">Close</button><button type="button" class="primary">Launch Designer</button></div>
</div>`;
  root.querySelector('p')!.textContent = MESSAGES.designerModalText;
  document.documentElement.appendChild(host);
  const launchButton = root.querySelector<HTMLButtonElement>('button.primary')!;
  launchButton.focus();

  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    clearInterval(timer);
    removeEventListener('keydown', onKey, true);
    host.remove();
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      close();
      options.onClose?.();
    }
  };
  addEventListener('keydown', onKey, true);
  root.querySelector('button.close')!.addEventListener('click', () => {
    close();
    options.onClose?.();
  });
  launchButton.addEventListener('click', () => {
    close();
    options.onLaunch();
  });
  // spec: guides §2 — "The modal state is polled every 50 ms."
  const timer = setInterval(() => {
    if (options.poll()) close();
  }, DESIGNER_MODAL.pollMs);
  return { close };
}
