/** The designer's stylesheet, inside its shadow root (the host's styles and ours never meet). */
import { DESIGNER_CONTAINER } from '../../../shared/constants';

export const DESIGNER_CSS = `
:host { all: initial; }
* { box-sizing: border-box; }
.panel { position: fixed; top: 0; left: 0; bottom: 0; z-index: ${DESIGNER_CONTAINER.zIndex}; display: flex;
  background: #fff; color: #0f172a; font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  box-shadow: 4px 0 24px rgba(15, 23, 42, .18); animation: slide-in .18s ease-out; }
.panel.fullscreen { right: 0; width: auto !important; }
@keyframes slide-in { from { transform: translateX(-100%); } to { transform: none; } }
.body { flex: 1; display: flex; flex-direction: column; min-width: 0; }
.handle { width: 8px; cursor: ew-resize; background: #e2e8f0; border: 0; padding: 0; }
.handle:hover, .handle:focus-visible { background: #a5b4fc; outline: none; }
header { display: flex; align-items: center; gap: 8px; padding: 12px 14px; border-bottom: 1px solid #e2e8f0; }
header h1 { font-size: 15px; margin: 0; flex: 1; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.content { flex: 1; overflow: auto; padding: 14px; display: flex; flex-direction: column; gap: 14px; }
footer { display: flex; gap: 8px; padding: 12px 14px; border-top: 1px solid #e2e8f0; flex-wrap: wrap; }
button { font: inherit; border-radius: 6px; border: 1px solid #cbd5e1; background: #fff; color: #0f172a; padding: 6px 10px; cursor: pointer; }
button:hover:not(:disabled) { background: #f1f5f9; }
button:disabled { opacity: .5; cursor: default; }
button.primary { background: #4f46e5; border-color: #4f46e5; color: #fff; }
button.primary:hover:not(:disabled) { background: #4338ca; }
button.icon { padding: 4px 8px; }
button.link { border: 0; background: none; padding: 0; color: #4f46e5; text-decoration: underline; align-self: flex-start; }
button.link:hover:not(:disabled) { background: none; color: #4338ca; }
button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 2px solid #4f46e5; outline-offset: 1px; }
label { display: flex; flex-direction: column; gap: 4px; font-weight: 500; }
label.inline { flex-direction: row; align-items: center; gap: 6px; font-weight: 400; }
input, select, textarea { font: inherit; font-weight: 400; padding: 6px 8px; border: 1px solid #cbd5e1; border-radius: 6px; background: #fff; color: inherit; width: 100%; }
label.inline input { width: auto; }
textarea { min-height: 64px; resize: vertical; }
fieldset { border: 1px solid #e2e8f0; border-radius: 8px; padding: 10px 12px; margin: 0; display: flex; flex-direction: column; gap: 10px; }
legend { font-weight: 600; padding: 0 4px; }
.row { display: flex; gap: 8px; align-items: flex-end; }
.row > * { flex: 1; }
.row > button { flex: none; }
.muted { color: #64748b; font-weight: 400; }
.error { color: #b91c1c; }
.warn { color: #b45309; }
.ok { color: #047857; }
.notice { padding: 8px 10px; border-radius: 6px; background: #f1f5f9; }
.notice.error { background: #fef2f2; }
.steps { display: flex; flex-direction: column; gap: 6px; list-style: none; margin: 0; padding: 0; }
.steps li { display: flex; align-items: center; gap: 6px; padding: 6px 8px; border: 1px solid #e2e8f0; border-radius: 6px; }
.steps li.current { border-color: #4f46e5; background: #eef2ff; }
.steps li[draggable] { cursor: grab; }
.steps li.drop { box-shadow: 0 -3px 0 #4f46e5; }
.steps li .grip { color: #94a3b8; user-select: none; }
.checklist { display: flex; flex-direction: column; gap: 4px; max-height: 160px; overflow: auto; padding: 6px 8px; }
.rule { display: flex; flex-direction: column; gap: 6px; padding-bottom: 8px; border-bottom: 1px dashed #e2e8f0; }
.steps li .name { flex: 1; cursor: pointer; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; background: none; border: 0; text-align: start; padding: 0; }
.guides { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.guides button { width: 100%; text-align: start; display: flex; justify-content: space-between; }
.badge { font-size: 11px; padding: 1px 6px; border-radius: 999px; background: #e2e8f0; }
.badge.public { background: #d1fae5; color: #065f46; }
.pick-box { position: fixed; display: none; pointer-events: none; z-index: ${DESIGNER_CONTAINER.zIndex + 1};
  outline: 2px solid #4f46e5; background: rgba(79, 70, 229, .12); border-radius: 2px; }
.picking-hint { position: fixed; top: 12px; left: 50%; transform: translateX(-50%); z-index: ${DESIGNER_CONTAINER.zIndex + 1};
  background: #0f172a; color: #fff; padding: 6px 12px; border-radius: 999px; font: 13px system-ui, sans-serif; }
`;
