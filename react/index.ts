/**
 * `waymark/react`: the agent in a React app. `<WaymarkProvider options={...}>` starts it once (StrictMode's
 * double effects included); `useWaymark()`, `useTrack()` and `useIdentify()` give the API to components.
 * Page changes of a client-side router need nothing: the agent counts each history change as one page load.
 */
export { WaymarkProvider, type WaymarkProviderProps } from './WaymarkProvider';
export { useIdentify, useTrack, useWaymark } from './useWaymark';
