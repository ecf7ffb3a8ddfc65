export { startParseWorker, type ParseJobHandler, type RunningParseWorker } from './main';
