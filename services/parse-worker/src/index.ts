export { startParseWorker, type RunningParseWorker } from './main';
export type { ParseJobHandler, ParseJobHandlers } from './handlers/job-handler';
export { openParseWorkerContext, type ParseWorkerContext, type ContextOptions } from './context';
