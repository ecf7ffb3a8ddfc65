export {
  BrowserPool,
  type BrowserJob,
  type BrowserPoolConfig,
  type BrowserPoolDeps,
  type BrowserPoolStats,
  type WithContextOptions,
} from './browser-pool';
export { Adblocker, BUNDLED_LIST_PATH, type AdblockerOptions } from './adblock';
export { CHROMIUM_ARGS, CHROMIUM_CANDIDATES, findChromium } from './chromium';
export { captureScreenshot, CONTENT_TYPES, DEFAULT_QUALITY, type CaptureOptions, type Screenshot } from './capture-screenshot';
export { renderHtml, type RenderOptions, type RenderedPage } from './render-html';
export { WAIT_UNTIL_EVENT } from './navigate';
export type { UrlGuard } from './request-filter';
export { openGuardedBrowser, type GuardedBrowser, type GuardedBrowserDeps } from './guarded-browser';
export { launchChromium, egressArgs, type LaunchedChromium, type SandboxMode } from './chromium';
export { enforceRendererLimit } from './renderer-watchdog';
