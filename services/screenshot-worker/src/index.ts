export { startScreenshotWorker, type RunningScreenshotWorker } from './main';
export { createScreenshotProcessor, type CapturedImage, type ScreenshotProcessorDeps } from './process-screenshot';
