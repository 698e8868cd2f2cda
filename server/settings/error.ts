// The one error a bad setting raises; main prints it and exits 1.

/** A configuration error that names the offending variables; main prints it and exits 1. */
export class ConfigError extends Error {}

/** The message of a refused start: a heading, then one indented line per problem. */
export function invalidSettings(lines: readonly string[]): ConfigError {
  return new ConfigError(`Invalid settings in the environment:\n${lines.map((line) => `  ${line}`).join('\n')}`);
}
