// The refusals' door (docs/decisions/064): every module's refusal words gathered into one catalogue, and
// describeRefusal, which the API, the pages and the command line use alike. Last in MODULE_DEPENDENCIES.
export { describeRefusal, REFUSAL_CATALOGUE, type DescribedRefusal, type RefusalCode } from './catalogue';
