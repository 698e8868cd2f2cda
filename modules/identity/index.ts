// The identity module's door: what other modules, the server and the scripts may call.
export { findMemberByIdOrEmail, createMemberWithSession, setMemberRole, type MemberRole } from './operator';
export { takeRateLimit, type RateLimitAnswer } from './rate-limit';
