// The waiting room's browser-safe door (decision 087): when the member's page reads their place again.
export { nextReadSeconds } from './reading';
