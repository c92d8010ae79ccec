/**
 * guides §5: script, style, image and content URLs only from the content host and the configured origins
 * (guides.allowedOrigins). The engine's check, bound to this page's settings.
 */
import type { WorkerInit } from '../../shared/protocol';
import { isAllowedAssetUrl } from '../isAllowedAssetUrl';

/** Checks one URL: its absolute href when allowed, else why not. */
export type AssetCheck = (url: string) => ReturnType<typeof isAllowedAssetUrl>;

export function assetCheckFor(config: WorkerInit): AssetCheck {
  const origins = [config.contentHost, ...(config.guides?.allowedOrigins ?? [])];
  return (url) => isAllowedAssetUrl(url, `${config.contentHost}/`, origins);
}
