// The farm's browser entry: its pure rules (the page ticks countdowns and stages with the server's
// own functions) and the shapes of the view. Nothing here reads a database.
export * from './rules';
export type * from './view';
export type * from './friends-view';
