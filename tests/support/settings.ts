// Test sizes and time limits from the environment, each with a documented default (docs/testing.md); CI sets them in .ci/run.
//
// Sizes are multipliers of each test's own baseline (today's size), so one setting moves every property
// test or fuzz loop together while each keeps its proportions. Time limits are multiplied as well: a busy
// or slow machine raises TEST_TIMEOUT_SCALE instead of anyone editing a number in a test.

/** A positive number from the environment, or the default when unset or empty; anything else stops the run. */
function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number (got ${JSON.stringify(raw)})`);
  return value;
}

/** A positive whole number from the environment, or the default. */
function positiveInteger(name: string, fallback: number): number {
  const value = positiveNumber(name, fallback);
  if (!Number.isInteger(value))
    throw new Error(`${name} must be a whole number (got ${JSON.stringify(process.env[name])})`);
  return value;
}

export const testSettings = {
  /** TEST_PROPERTY_SCALE (default 1): multiplies the number of runs of every fast-check property test. */
  propertyScale: positiveNumber('TEST_PROPERTY_SCALE', 1),
  /** TEST_PROPERTY_STEPS (default 40): the most operations in one run of the wallet-and-draw model test. */
  propertySteps: positiveInteger('TEST_PROPERTY_STEPS', 40),
  /** FC_SEED (default unset: a fresh seed each run): replays a property test's failure with the seed it printed. */
  propertySeed: process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined,
  /** TEST_FUZZ_SCALE (default 1): multiplies the number of generated inputs of every fuzz loop. */
  fuzzScale: positiveNumber('TEST_FUZZ_SCALE', 1),
  /** TEST_TIMEOUT_SCALE (default 1): multiplies every test and hook time limit (vitest.config.ts and the tests'). */
  timeoutScale: positiveNumber('TEST_TIMEOUT_SCALE', 1),
  /**
   * TEST_WORKERS (default 2): files the unit, process, db and integration tiers run at once. Vitest's own
   * default is the cores less one, a single worker on a 2-core machine, while a db file spends much of its
   * time waiting on PostgreSQL (decision 068). The integration tier starts one shop per worker (decision
   * 069); the storm always runs one file at a time.
   */
  workers: positiveInteger('TEST_WORKERS', 2),
} as const;

/**
 * The number of runs of a property test whose baseline (CI's size) is `baseline`.
 * @example fc.assert(property, { numRuns: propertyRuns(100), seed: testSettings.propertySeed })
 */
export function propertyRuns(baseline: number): number {
  return Math.max(1, Math.ceil(baseline * testSettings.propertyScale));
}

/**
 * The number of generated inputs of a fuzz loop whose baseline (CI's size) is `baseline`.
 * @example while (deliveries.length < fuzzCount(1000)) deliveries.push(forgery())
 */
export function fuzzCount(baseline: number): number {
  return Math.max(1, Math.ceil(baseline * testSettings.fuzzScale));
}

/**
 * A time limit in milliseconds, scaled by TEST_TIMEOUT_SCALE.
 * @example it('runs the child process', async () => { ... }, scaledTimeout(60_000))
 */
export function scaledTimeout(milliseconds: number): number {
  return Math.ceil(milliseconds * testSettings.timeoutScale);
}
