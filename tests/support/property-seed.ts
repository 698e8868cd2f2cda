// Vitest setup of the unit and db tiers: FC_SEED replays a fast-check failure in any property test,
// including those that do not pass a seed themselves.
import fc from 'fast-check';
import { testSettings } from './settings';

if (testSettings.propertySeed !== undefined)
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: testSettings.propertySeed });
