export { startParseWorker, type ParseJobHandler, type RunningParseWorker } from './main';
export { openParseWorkerContext, type ParseWorkerContext, type ContextOptions } from './context';
