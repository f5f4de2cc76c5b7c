// legate/intercept: records and replays the Messages API traffic of any client at the HTTP boundary.
// Needs the optional peer msw (npm install --save-dev msw@^2.15.0); without it interceptAnthropic throws
// MissingPeerDependencyError (code missing_peer_dependency).
export {
  interceptAnthropic,
  type InterceptOptions,
  type Interception,
  type SampledInterceptOptions,
} from './interceptAnthropic.js';
export type { InterceptBody, InterceptedSample, InterceptionRun } from './interceptBody.js';
export { startInterception, stopInterception } from './interceptionServer.js';
export {
  interceptThisTest,
  type InterceptThisTestOptions,
  type SampledInterceptThisTestOptions,
} from './interceptThisTest.js';
export { startRecordingProxy, type RecordingProxy, type RecordingProxyOptions } from './recordingProxy.js';
export type { SampleOptions, SessionOptions } from './interceptSession.js';
export type { NormalisationChoice, NormalisationName } from '../trajectory/normalisations.js';
export { startStandIn, type StandIn, type StandInOptions, type StandInRequest } from './standIn/startStandIn.js';
