/**
 * Entry of dist/agent/waymark.worker.js: exposes the worker API to the shim over Comlink.
 */
import { expose } from 'comlink';
import { createWorkerApi } from './createWorkerApi';
import { createIdbQueueStore, fetchTransport, nativeDeflate, systemClock } from './ports';

// IndexedDB keeps unsent events across page loads; where it is missing, events live as long as the page.
const store = typeof indexedDB === 'undefined' ? undefined : createIdbQueueStore();
expose(createWorkerApi({ transport: fetchTransport, clock: systemClock, store, deflate: nativeDeflate() }));
