// Session lifetimes, shared by better-auth's setup and the fast session readers.

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;
/** A session is extended (to SESSION_MAX_AGE_SECONDS) once it is older than this. */
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;
