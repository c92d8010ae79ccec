/**
 * The designer (guides §2 Designer, issue #15): a 400 px-wide container sliding in at the left of the page at
 * z-index 1000000 (the page moves over to make room), with a drag handle (its width, 320 to 720 px, also by the
 * arrow keys) and a full-screen mode, drawn with React in a shadow root of its own. It edits the app's guides through the console's API
 * (DesignerPanel), picks elements on the page (pickElement) and shows the step being edited live.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { DESIGNER_CONTAINER } from '../../../shared/constants';
import type { DesignerToken } from '../../../shared/authoring/designerLaunch';
import type { AuthorHost } from '../api';
import { createConsoleApi } from './consoleApi';
import { DesignerPanel } from './DesignerPanel';
import { DESIGNER_CSS } from './designerStyles';
import { pickElement, type Picker } from './pickElement';
import { loadDesignerPlugins } from './loadDesignerPlugins';
import type { StepTemplate } from './stepTemplates';

export interface DesignerContext {
  host: AuthorHost;
  /** The checked token: its baseUrl is the console API; its guideId, the guide to open. */
  token: DesignerToken;
  /** Starts a same-tab preview of a saved guide: the designer closes, and the preview's exit opens it again. */
  preview(guideId: string): void;
  /** The author closed the designer. */
  onClose(): void;
}

export interface DesignerSession {
  close(): void;
  /** Starts the panel again (a designer session arrived: it asks the console once more whether it is signed in). */
  reload(): void;
}

const MIN_WIDTH = 320;
const MAX_WIDTH = 720;

export function openDesigner(ctx: DesignerContext): DesignerSession {
  const element = document.createElement('div');
  element.setAttribute('data-waymark-designer', '');
  const shadow = element.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = DESIGNER_CSS;
  const mount = document.createElement('div');
  const box = document.createElement('div');
  box.className = 'pick-box';
  shadow.append(style, mount, box);
  document.documentElement.appendChild(element);

  const api = createConsoleApi(ctx.token.baseUrl, ctx.host.apiKey);
  // Once per designer, not per panel restart: a plugin's module runs once in the page anyway.
  const templates = loadDesignerPlugins({ serverUrl: ctx.host.serverUrl, named: ctx.token.plugins ?? [], log: ctx.host.log });
  const root = createRoot(mount);
  let picker: Picker | null = null;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    picker?.stop();
    root.unmount();
    element.remove();
  };
  let generation = 0;
  const render = () =>
    root.render(
      <Designer
        key={generation++}
        ctx={ctx}
        api={api}
        templates={templates}
        box={box}
        setPicker={(p) => (picker = p)}
        onClose={() => {
          close();
          ctx.onClose();
        }}
      />,
    );
  render();
  return {
    close,
    reload() {
      if (!closed) render();
    },
  };
}

interface DesignerProps {
  ctx: DesignerContext;
  api: ReturnType<typeof createConsoleApi>;
  /** The step templates the designer's plugins add, once they have loaded. */
  templates: Promise<StepTemplate[]>;
  box: HTMLElement;
  setPicker(p: Picker | null): void;
  onClose(): void;
}

function Designer({ ctx, api, templates, box, setPicker, onClose }: DesignerProps) {
  const [width, setWidth] = useState<number>(DESIGNER_CONTAINER.width);
  const [loaded, setLoaded] = useState<StepTemplate[]>([]);
  useEffect(() => {
    let live = true;
    void templates.then((t) => live && setLoaded(t));
    return () => void (live = false);
  }, [templates]);
  const [fullscreen, setFullscreen] = useState(false);
  const [picking, setPicking] = useState(false);

  const startDrag = (event: React.PointerEvent) => {
    event.preventDefault();
    const move = (e: PointerEvent) => setWidth(Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, e.clientX)));
    const up = () => {
      removeEventListener('pointermove', move);
      removeEventListener('pointerup', up);
    };
    addEventListener('pointermove', move);
    addEventListener('pointerup', up);
  };
  useEffect(() => {
    // The page moves over to make room, so the step being edited is not under the designer.
    const html = document.documentElement;
    const before = html.style.paddingInlineStart;
    if (!fullscreen) html.style.paddingInlineStart = `${width + 8}px`;
    return () => void (html.style.paddingInlineStart = before);
  }, [width, fullscreen]);
  const onPick = (apply: (rule: string) => void) => {
    setPicking(true);
    setPicker(
      pickElement(
        box,
        (pick) => apply(pick.proposal.rule),
        () => {
          setPicking(false);
          setPicker(null);
        },
      ),
    );
  };

  return (
    <>
      <aside
        className={`panel${fullscreen ? ' fullscreen' : ''}`}
        style={{ width, display: picking ? 'none' : undefined }}
        role="complementary"
        aria-label="Waymark designer"
        data-testid="waymark-designer"
      >
        <div className="body">
          <DesignerPanel
            host={ctx.host}
            api={api}
            baseUrl={ctx.token.baseUrl}
            guideId={ctx.token.guideId}
            fullscreen={fullscreen}
            onFullscreen={() => setFullscreen((f) => !f)}
            onClose={onClose}
            onPick={onPick}
            onPreview={ctx.preview}
            templates={loaded}
          />
        </div>
        {!fullscreen && (
          <button
            type="button"
            className="handle"
            aria-label={`Designer width ${width} px: drag, or use the arrow keys`}
            onPointerDown={startDrag}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight') setWidth((w) => Math.min(MAX_WIDTH, w + 20));
              if (e.key === 'ArrowLeft') setWidth((w) => Math.max(MIN_WIDTH, w - 20));
            }}
          />
        )}
      </aside>
      {picking && <div className="picking-hint">Click an element of the page · Esc to cancel</div>}
    </>
  );
}
