export { startParseWorker, type ParseJobHandler, type ParseJobHandlers, type RunningParseWorker } from './main';
export { openParseWorkerContext, type ParseWorkerContext, type ContextOptions } from './context';
