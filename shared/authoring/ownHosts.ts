/**
 * The attributes marking the agent's own host elements on <html>: the overlay's (overlay/createOverlayHost) and the
 * authoring tools' (the designer, the preview bar, the launch modal). Whoever must tell them from the host page's
 * elements reads this one list: capture (never a host click), the picker (never picked), the modal dialog (never
 * hidden from assistive technology).
 */
export const OVERLAY_HOST = 'data-waymark-overlay';
export const AUTHOR_TOOL_HOSTS = ['data-waymark-designer', 'data-waymark-preview-bar', 'data-waymark-designer-modal'];

/** A selector matching an element with one of `attributes`. */
export const hostSelector = (attributes: readonly string[]): string => attributes.map((name) => `[${name}]`).join(', ');
