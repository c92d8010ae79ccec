/**
 * Entry of dist/agent/waymark.worker.js: exposes the worker API to the shim over Comlink.
 */
import { expose } from 'comlink';
import { createWorkerApi } from './createWorkerApi';
import { fetchTransport, systemClock } from './ports';

expose(createWorkerApi({ transport: fetchTransport, clock: systemClock }));
