/**
 * The authoring chunk's entry (dist/agent/waymark.author.js, issue #15): the designer's launch, the designer and
 * the preview. Imported by the guides chunk (shim/guides/watchAuthoring.ts) only when an author shows up.
 */
import type { AuthorHost, Authoring } from './api';

export function startAuthoring(host: AuthorHost): Authoring {
  return {
    launch(request) {
      host.log('info', `designer launch (${request.flow}, ${request.via})`);
    },
    preview(value) {
      host.log('info', `preview ${JSON.stringify(value)}`);
    },
    stop() {},
  };
}
